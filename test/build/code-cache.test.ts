/**
 * How the build readies a CommonJS file for bin/run.js's code cache (build/code-cache.ts): ASCII
 * text meaning what it meant, wrapped so that bin/run.js compiles it as it is and `require` runs it
 * as before.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";
import { expect, test } from "vitest";
import { forCodeCache, readiedForCodeCache } from "../../build/code-cache.js";
import { temporaryFolder } from "../support/files.js";

// Non-ASCII where esbuild leaves it: a string, a template, a regular expression, a comment.
const SOURCE = [
  'const word = "caf\u00e9 \u{1F986}";',
  "const line = `\u2014 ${word}`;",
  "const duck = /\u{1F986}|\u00e9/;",
  "// na\u00efve",
  "exports.word = word; exports.line = line; exports.matches = duck.test(word);",
].join("\n");

/** `SOURCE`, readied and written as a built file, in a folder of its own. */
async function built(): Promise<string> {
  const file = path.join(temporaryFolder("reduck-code-cache-"), "index.cjs");
  writeFileSync(file, SOURCE);
  await forCodeCache(file)();
  return file;
}

test("the readied file is ASCII, and means what it meant when required the usual way", async () => {
  const file = await built();
  const text = readFileSync(file, "latin1");
  expect(/[^\x00-\x7f]/.test(text)).toBe(false);
  expect(createRequire(import.meta.url)(file)).toEqual({ word: "caf\u00e9 \u{1F986}", line: "\u2014 caf\u00e9 \u{1F986}", matches: true });
});

test("compiled as bin/run.js compiles it, the file's value is the function Node would wrap it in", async () => {
  const file = await built();
  const wrapper = new vm.Script(readFileSync(file, "latin1"), { filename: file }).runInThisContext();
  expect(typeof wrapper).toBe("function");
  const module = { exports: {} };
  wrapper(module.exports, createRequire(file), module, file, path.dirname(file));
  expect(module.exports).toEqual({ word: "caf\u00e9 \u{1F986}", line: "\u2014 caf\u00e9 \u{1F986}", matches: true });
});

test("a non-ASCII character after a backslash, whose escape would mean something else, stops the build", () => {
  expect(() => readiedForCodeCache('const s = "\\\u00e9";', "dist/cli/index.cjs")).toThrow(
    "forCodeCache: dist/cli/index.cjs has an escaped non-ASCII character at 11; escape it by hand",
  );
});
