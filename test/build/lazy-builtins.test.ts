/**
 * The built-ins the CLI's bundle loads on first use (build/lazy-builtins.ts): what stands in for
 * one answers as the module does once used, and only third-party code's `require`s get it.
 * test/speed/start-up.test.ts shows a catalogue command never loads them.
 */
import { createRequire } from "node:module";
import { expect, test } from "vitest";
import { LAZY_BUILTINS, lazyModule } from "../../build/lazy-builtins.js";
import { bundledModules, callersOf, requireFunctionOf } from "./installed.js";

const nodeRequire = createRequire(import.meta.url);

/** The stand-in for `name`, and the modules it has required so far. */
function standIn(name: string) {
  const required: string[] = [];
  const module = { exports: {} as Record<string | symbol, unknown> };
  new Function("module", "require", lazyModule(name))(module, (id: string) => {
    required.push(id);
    return nodeRequire(id);
  });
  return { module: module.exports, required };
}

test.each(LAZY_BUILTINS)("%s: loaded at its first use, then answering as the module itself", (name) => {
  const { module, required } = standIn(name);
  expect(required).toEqual([]);
  const real = nodeRequire(`node:${name}`);
  const [key] = Object.keys(real);
  expect(module[key!]).toBe(real[key!]);
  expect(required).toEqual([`node:${name}`]);
  expect(Object.keys(module)).toEqual(Object.keys(real));
  expect(key! in module).toBe(true);
  expect("no such export" in module).toBe(false);
  expect(Object.getOwnPropertyDescriptor(module, key!)?.value).toBe(real[key!]);
  // As esbuild's interop reads a CommonJS module: not an ES module's namespace.
  expect(module.__esModule).toBeUndefined();
  expect(required).toEqual([`node:${name}`]);
});

test("in the bundle, third-party code requires each through its stand-in, and our own code never does", () => {
  const modules = bundledModules();
  for (const name of LAZY_BUILTINS) {
    const module = modules.find((m) => m.id === `lazy-builtin:${name}`);
    expect(module, name).toBeDefined();
    const callers = callersOf(modules, requireFunctionOf(module!));
    expect(callers.length, name).toBeGreaterThan(0);
    for (const id of callers) expect(id, name).toMatch(/^node_modules\//);
  }
  const callers = callersOf(modules, requireFunctionOf(modules.find((m) => m.id === "lazy-builtin:child_process")!));
  expect(callers).toContain("node_modules/@oclif/core/lib/util/os.js");
});
