/**
 * The packages the CLI's bundle runs on first use (build/lazy-packages.ts): their top level runs
 * only when our code first calls them, and they then answer as themselves.
 */
import { createRequire } from "node:module";
import { expect, test } from "vitest";
import { LAZY_PACKAGES, lazyPackage } from "../../build/lazy-packages.js";
import { bundledModules, bundleHelpers, callOf, cliText, literally } from "./installed.js";

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
  const { esm } = bundleHelpers(text);
  // The stand-in's first use starts string-width's top level (`init()`) and takes its exports.
  const standIn = bundledModules(text).find((m) => m.id === "lazy-package:string-width");
  expect(standIn).toBeDefined();
  const init = /\(([\w$]+)\(\), [\w$]+\([\w$]+\)\)\.default/.exec(standIn!.text)?.[1];
  expect(init).toBeDefined();
  const start = new RegExp(`(?:^var |, )${literally(init!)} = ${literally(esm)}\\(`, "m").exec(text);
  expect(start).not.toBeNull();
  const body = text.slice(start!.index, text.indexOf("\n});", start!.index));
  expect(body).toContain("RGI_Emoji");
  // Called from the stand-in alone.
  expect(text.match(callOf(init!))?.length).toBe(1);
  expect(standIn!.text).toMatch(callOf(init!));
  expect(createRequire(import.meta.url).resolve("string-width")).toMatch(/string-width/);
});
