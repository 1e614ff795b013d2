// The package's entry for Node itself (a plain script, jest, vitest when it does not transform the
// package): registers tsx's loader, then loads the TypeScript entry. Bundlers and vitest take
// index.ts directly (the "module" condition of package.json's exports).
import { register } from "tsx/esm/api";

register();
const sandbox = await import("./index.ts");

export const {
  startSandbox,
  sandboxHandlers,
  receivedRuns,
  nextRuns,
  seedUserScripts,
  ScriptsFolderError,
  createStore,
  createHandlers,
  startHttpServer,
  SEED_IDS,
  ReferenceStore,
  startSandboxProcess,
  spawnSandbox,
  freePort,
  TSX_NODE_ARGS,
  SANDBOX_ENTRY,
  parseSandboxArgs,
} = sandbox;
