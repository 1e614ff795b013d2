import { readFile, writeFile } from "node:fs/promises";

/**
 * What forCodeCache puts before a built file: the function Node would wrap a CommonJS module in,
 * called at once when the file is required the usual way (`oclif manifest`, a test). Compiled by
 * bin/run.js, the file's value is that function: `this` at its top is `exports` in a CommonJS
 * module, the global object in bin/run.js's script.
 */
export const CODE_CACHE_HEAD =
  '(function (run, self) { return typeof exports === "object" && exports === self ? run(exports, require, module, __filename, __dirname) : run; })(function (exports, require, module, __filename, __dirname) {';

/**
 * `text` readied for bin/run.js, which compiles it with V8's code cache:
 *
 * - What is left of non-ASCII (comments, a regular expression esbuild keeps as written) is
 *   escaped, so the file can be read as latin1: one-byte text, made without decoding UTF-8 (a
 *   900 KB read went from 2 ms to under 1, measured). `\uXXXX` means the same character in
 *   strings, regular expressions and templates, and nothing in a comment; after a backslash it
 *   would not, so that stops the build.
 * - It is wrapped in the function Node would wrap it in (CODE_CACHE_HEAD), so bin/run.js compiles
 *   the file's text as it is instead of a copy with the wrapper added (900 KB more in memory,
 *   measured).
 */
export function readiedForCodeCache(text: string, file: string): string {
  const escaped = /\\[^\x00-\x7f]/.exec(text);
  if (escaped) throw new Error(`forCodeCache: ${file} has an escaped non-ASCII character at ${escaped.index}; escape it by hand`);
  const ascii = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return `${CODE_CACHE_HEAD}\n${ascii}\n}, this);\n`;
}

/** Readies the built CommonJS `file` for bin/run.js (readiedForCodeCache): a tsup `onSuccess`. */
export function forCodeCache(file: string): () => Promise<void> {
  return async () => {
    await writeFile(file, readiedForCodeCache(await readFile(file, "utf8"), file));
  };
}
