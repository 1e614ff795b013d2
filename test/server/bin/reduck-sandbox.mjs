#!/usr/bin/env node
// `reduck-sandbox`: the sandbox's command. Its sources are TypeScript: it runs them bundled into
// one file of plain JavaScript (bundle.mjs: built on first start, and again when a source changes),
// or, when no bundle can be built there, through tsx's loader. Either way in this very process (so
// Ctrl-C and SIGTERM reach the sandbox itself). `--help` lists the options.
import { sandboxBundle } from "./bundle.mjs";

const bundle = await sandboxBundle();
if (bundle) {
  await import(bundle);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../process/sandbox.ts");
}
