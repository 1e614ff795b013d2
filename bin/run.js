#!/usr/bin/env node
import module from "node:module";

// Node 22.1+ keeps V8's compiled code between runs, and start-up is mostly compiling the CLI's
// bundle. (Node 20 has no such cache for ES modules.) Before the import, which it must see.
module.enableCompileCache?.();
const { main } = await import("../dist/cli/index.js");
await main();
