/**
 * The CLI's files as bin/run.js loads them. esbuild splits only ES modules (one file per command,
 * shared code in shared files), while bin/run.js compiles CommonJS with V8's code cache (Node 20
 * has no compile cache for ES modules) and, on Node 20, a code-cached function cannot call
 * `import()`. So the CLI is built as ES modules and each file is then made CommonJS here: its
 * imports become `require`, `import()` becomes `require` in a promise, and it is readied for the
 * code cache (build/code-cache.ts).
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { transform } from "esbuild";
import { readiedForCodeCache } from "./code-cache.js";

/** Put before each file: CommonJS has no `import.meta`; the ES modules' `import.meta.url` is this. */
export const COMMONJS_HEAD = '"use strict";\nvar __import_meta_url = require("node:url").pathToFileURL(__filename).href;';

/**
 * The line esbuild writes before each module it bundles (`// node_modules/...`, `// src/...`,
 * `// lazy-builtin:...`), which names it in the built file (test/build reads them). esbuild's
 * transform keeps only legal comments (`//!`), so these are made legal comments for it, and back.
 */
const MODULE_NAME = /^\/\/ ((?:node_modules|src)\/\S+|[a-z][a-z-]*:\S+)$/gm;

/** `code`, an ES module the build wrote as `file`, as CommonJS readied for the code cache. */
export async function commonJs(code: string, file: string): Promise<string> {
  const result = await transform(code.replace(MODULE_NAME, "//! $1"), {
    format: "cjs",
    platform: "node",
    target: "node20",
    supported: { "dynamic-import": false },
    define: { "import.meta.url": "__import_meta_url" },
    banner: COMMONJS_HEAD,
    sourcefile: file,
    logLevel: "error",
  });
  return readiedForCodeCache(result.code.replace(/^\/\/! /gm, "// "), file);
}

/** A tsup `onSuccess`: every `.cjs` file in `dir` that `skip` does not name, made CommonJS (commonJs). */
export function toCommonJs(dir: string, skip: RegExp): () => Promise<void> {
  return async () => {
    for (const name of await readdir(dir)) {
      if (!name.endsWith(".cjs") || skip.test(name)) continue;
      const file = path.join(dir, name);
      await writeFile(file, await commonJs(await readFile(file, "utf8"), file));
    }
  };
}
