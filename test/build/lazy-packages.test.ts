/**
 * The packages the CLI's bundle runs on first use (build/lazy-packages.ts): their top level runs
 * only when our code first calls them, and they then answer as themselves.
 */
import { createRequire } from "node:module";
import { expect, test } from "vitest";
import { LAZY_PACKAGES, lazyPackage } from "../../build/lazy-packages.js";
import { cliText } from "./installed.js";

test.each(LAZY_PACKAGES)("%s: loaded at its first call, then answering as the package's default export", async (name) => {
  const required: string[] = [];
  const real = (await import(name)).default as (...args: unknown[]) => unknown;
  // The stand-in as a CommonJS function of `require`, as esbuild bundles it.
  const source = lazyPackage(name).replace("export default function lazy", "module.exports = function lazy");
  const module = { exports: undefined as unknown as (...args: unknown[]) => unknown };
  new Function("module", "require", source)(module, (id: string) => {
    required.push(id);
    return { default: real };
  });
  expect(required).toEqual([]);
  expect(module.exports("ab\u4e2d")).toBe(real("ab\u4e2d"));
  expect(module.exports("\u{1F986}x")).toBe(real("\u{1F986}x"));
  expect(required).toEqual([name]);
});

test("in the bundle, string-width's top level (its Unicode regular expressions) runs inside its lazy start, and only the stand-in starts it", () => {
  const text = cliText();
  const start = /^var (init_string_width) = __esm\(\{$/m.exec(text);
  expect(start).not.toBeNull();
  const body = text.slice(start!.index, text.indexOf("\n});", start!.index));
  expect(body).toContain("RGI_Emoji");
  // Called from the stand-in alone.
  const calls = text.match(/\binit_string_width\(\)/g) ?? [];
  expect(calls.length).toBe(1);
  expect(text).toMatch(/^\/\/ lazy-package:string-width\n(?:.*\n){0,4}.*init_string_width\(\)/m);
  expect(createRequire(import.meta.url).resolve("string-width")).toMatch(/string-width/);
});
