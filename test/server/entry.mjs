// The package's entry for Node itself (a plain script, jest, vitest when it does not transform the
// package): registers tsx's loader, then loads the TypeScript entry. Bundlers and vitest take
// index.ts directly (the "module" condition of package.json's exports).
import "./process/register-tsx.mjs";

const sandbox = await import("./index.ts");

// Every value index.ts exports, by name (entry.test.ts checks that none is missing).
export const {
  DEFAULT_RUN_TIMEOUT_MS,
  DEFAULT_WAIT_SECONDS,
  REQUEST_LOG_PATH,
  ReferenceStore,
  SANDBOX_HANDLE,
  SANDBOX_HOST,
  SEED_IDS,
  SandboxStore,
  ScriptsFolderError,
  SiteError,
  createHandlers,
  createStore,
  isFinished,
  loadCatalogue,
  nextRuns,
  parseSandboxArgs,
  receivedRuns,
  sandboxHandlers,
  seedUserScripts,
  sharedBrowserHost,
  spawnSandbox,
  startHttpServer,
  startSandbox,
  startSandboxProcess,
} = sandbox;
