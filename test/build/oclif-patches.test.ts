/**
 * Each of the build's changes to oclif (build/oclif-patches.ts), against the oclif installed here:
 * what it changes is still there (an upgrade that moves it fails here, not silently in the
 * bundle), and the built CLI still has what the change was for.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import vm from "node:vm";
import ts from "typescript";
import { describe, expect, test } from "vitest";
import {
  applyPatch,
  DEBUG_IMPORTERS,
  DEBUG_ON_DEMAND,
  LAZY_LOADS,
  lazyDefault,
  lazyNamed,
  NO_VERSION_WARNING,
  SAME_CONFIG,
  PLAIN_SORT,
  PLAIN_WSL,
  UNUSED_PACKAGES,
  unusedModule,
} from "../../build/oclif-patches.js";
import { BUILD_ROOT, runCli } from "../support/cli.js";
import { temporaryFolder } from "../support/files.js";
import {
  BUNDLE,
  bundledFiles,
  bundledModules,
  callersOf,
  installedFile,
  installedPackage,
  packageOf,
  requireFunctionOf,
  requiresOf,
  usesOf,
} from "./installed.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const ours = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { oclif: Record<string, unknown> & { commands: { strategy: string } } };
const preload = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));

/** Runs CommonJS `code` as a module with `require` and `process.env` of the test's choosing: its exports. */
function evaluate(code: string, require: (id: string) => unknown, env: Record<string, string> = {}): unknown {
  const module = { exports: {} as unknown };
  new Function("module", "require", "process", code)(module, require, { env });
  return module.exports;
}

/** What `node ...args` printed, and the built-in modules it loaded. */
async function loadedBy(args: string[]) {
  const list = path.join(temporaryFolder("reduck-build-modules-"), "modules.txt");
  const { stdout } = await promisify(execFile)(process.execPath, args, {
    env: {
      PATH: process.env.PATH ?? "",
      NODE_OPTIONS: `--import=${fileURLToPath(new URL("../speed/modules-at-exit.mjs", import.meta.url))}`,
      REDUCK_TEST_MODULES_FILE: list,
    },
  });
  const lines = readFileSync(list, "utf8").split("\n");
  return { stdout, builtins: lines.filter((l) => l.startsWith("NativeModule ")).map((l) => l.slice("NativeModule ".length)) };
}

describe.each([PLAIN_SORT, PLAIN_WSL, NO_VERSION_WARNING, SAME_CONFIG, ...LAZY_LOADS])("$name", (patch) => {
  test(`the installed ${patch.package} still says, once, what the patch replaces, and the patched file compiles`, () => {
    const patched = applyPatch(patch, installedFile(patch.package, patch.file), patch.file);
    expect(patched).toContain(patch.replace);
    expect(patched).not.toContain(patch.find);
    expect(() => vm.compileFunction(patched, ["exports", "require", "module", "__filename", "__dirname"])).not.toThrow();
  });
});

test("oclif-lazy-loads: every patch of one file applies to it together, and the file still compiles", () => {
  for (const file of new Set(LAZY_LOADS.map((p) => p.file))) {
    const patched = LAZY_LOADS.filter((p) => p.file === file).reduce((text, p) => applyPatch(p, text, file), installedFile("@oclif/core", file));
    expect(() => vm.compileFunction(patched, ["exports", "require", "module", "__filename", "__dirname"]), file).not.toThrow();
  }
});

test("oclif-lazy-loads: a module made lazy is required when first read, not before, and reads as it would have", () => {
  const required: string[] = [];
  const require = (id: string) => {
    required.push(id);
    return id === "colours" ? { __esModule: true, default: "the default" } : { strip: "strip of " + id };
  };
  const run = (patch: { replace: string }, read: string) =>
    new Function("require", "__importDefault", `${patch.replace}\nreturn () => ${read};`)(require, (m: { __esModule?: boolean }) =>
      m?.__esModule ? m : { default: m },
    ) as () => unknown;
  const colours = run(lazyDefault("t", "lib/x.js", "colours_1", "colours"), "colours_1.default");
  const width = run(lazyNamed("t", "lib/x.js", "width_1", "./width"), "width_1.strip");
  expect(required).toEqual([]);
  expect(colours()).toBe("the default");
  expect(width()).toBe("strip of ./width");
  expect(required).toEqual(["colours", "./width"]);
});

test("a patch whose text is gone, or there twice, stops the build naming the patch, the file and the package to check", () => {
  const expected = `oclif-plain-sort: x/plugin.js no longer says ${PLAIN_SORT.find} (once); check the patch against this version of @oclif/core`;
  expect(() => applyPatch(PLAIN_SORT, "ids.sort()", "x/plugin.js")).toThrow(expected);
  expect(() => applyPatch(PLAIN_SORT, `a${PLAIN_SORT.find}; b${PLAIN_SORT.find}`, "x/plugin.js")).toThrow(expected);
});

test("oclif-plain-sort: its order of the CLI's command ids is localeCompare's", () => {
  const ids = Object.keys(JSON.parse(readFileSync(path.join(BUILD_ROOT, "oclif.manifest.json"), "utf8")).commands);
  expect(ids.length).toBeGreaterThan(20);
  const byPatch = new Function("commands", `return commands${PLAIN_SORT.replace};`);
  const shuffled = [...ids].reverse().map((id) => ({ id }));
  expect(byPatch(shuffled).map((c: { id: string }) => c.id)).toEqual([...ids].sort((a, b) => a.localeCompare(b)));
});

test("oclif-plain-sort: the built CLI calls no localeCompare as it starts (whose first call loads ICU's collation data)", async () => {
  const count = path.join(temporaryFolder("reduck-build-collation-"), "calls.txt");
  const result = await runCli(["help"], { env: { NODE_OPTIONS: `--import=${preload("count-locale-compare.mjs")}`, REDUCK_TEST_CALLS_FILE: count } });
  expect(result.code).toBe(0);
  expect(result.stdout).toContain("scripts");
  expect(readFileSync(count, "utf8")).toBe("0");
});

test("oclif-plain-wsl: is-wsl, which oclif does not depend on, is found from oclif as wsl-utils finds it, and is what wsl-utils answers", () => {
  const os = path.join(installedPackage(PLAIN_WSL.package), PLAIN_WSL.file);
  const wslUtils = createRequire(os).resolve("wsl-utils");
  expect(createRequire(os).resolve("is-wsl")).toBe(createRequire(wslUtils).resolve("is-wsl"));
  expect(readFileSync(wslUtils, "utf8")).toMatch(/^export \{default as isWsl\} from 'is-wsl';$/m);
});

test("oclif-plain-wsl: the built CLI finds its platform without wsl-utils, which loads child_process", async () => {
  // oclif's own version line (through the bundle, not bin/run.js's shortcut) names the platform it found.
  const { stdout, builtins } = await loadedBy(["-e", `require(${JSON.stringify(BUNDLE)}).main(["--version"])`]);
  expect(stdout).toContain(` ${process.platform}-`);
  expect(builtins).not.toContain("child_process");
});

describe.each(UNUSED_PACKAGES)("oclif-unused: $package", (unused) => {
  test(`the installed @oclif/core requires it in ${unused.requiredBy} only, and uses it in ${unused.usedIn} only`, () => {
    const lib = path.join(installedPackage("@oclif/core"), "lib");
    const requiring = readdirSync(lib, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".js"))
      .filter((file) => {
        const source = readFileSync(path.join(lib, file), "utf8");
        return source.includes(unused.package) && requiresOf(source, unused.package).length > 0;
      })
      .map((file) => `lib/${file.split(path.sep).join("/")}`);
    expect(requiring).toEqual([unused.requiredBy]);

    const source = installedFile("@oclif/core", unused.requiredBy);
    const bindings = requiresOf(source, unused.package).map(({ node }) => {
      const declaration = node.parent;
      if (!ts.isVariableDeclaration(declaration)) throw new Error(`${unused.package}'s require is no longer assigned to a name`);
      return declaration.name.getText();
    });
    const uses = bindings.flatMap((name) => usesOf(source, name)).map((use) => use.in);
    expect(uses.length).toBeGreaterThan(0);
    expect(new Set(uses)).toEqual(new Set([unused.usedIn]));
  });

  test("the bundle holds none of its files: oclif's file requires what stands in for it, which throws naming it", () => {
    const modules = bundledModules();
    expect(bundledFiles().filter((file) => packageOf(file) === unused.package)).toEqual([]);
    const standIn = modules.find((m) => m.id === `oclif-unused:${unused.package}`);
    expect(standIn, "the stand-in's module").toBeDefined();
    expect(callersOf(modules, requireFunctionOf(standIn!))).toEqual([`node_modules/@oclif/core/${unused.requiredBy}`]);
    const thrower = evaluate(unusedModule(unused.package), () => undefined) as Record<string, () => unknown>;
    expect(() => thrower.anything!()).toThrow(`${unused.package} is not part of reduck's build`);
  });
});

test("oclif-no-version-warning: the bundle holds neither the uncalled warning nor semver, which only it required", () => {
  const lib = path.join(installedPackage("@oclif/core"), "lib");
  const requiring = readdirSync(lib, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".js") && requiresOf(readFileSync(path.join(lib, file), "utf8"), "semver").length > 0)
    .map((file) => `lib/${file.split(path.sep).join("/")}`);
  expect(requiring).toEqual(["lib/index.js"]);
  const [use] = requiresOf(installedFile("@oclif/core", "lib/index.js"), "semver");
  let within: ts.Node | undefined = use!.node;
  while (within && !ts.isFunctionDeclaration(within)) within = within.parent;
  expect(within && ts.isFunctionDeclaration(within) ? within.name?.getText() : undefined).toBe("checkNodeVersion");
  expect(bundledFiles().filter((file) => packageOf(file) === "semver")).toEqual([]);
  // Its warning's words, which no shortening of names would change.
  expect(installedFile("@oclif/core", "lib/index.js")).toContain("to use this CLI. Current node version");
  expect(readFileSync(BUNDLE, "latin1")).not.toContain("to use this CLI. Current node version");
});

test("oclif-unused: tinyglobby finds commands only for the `pattern` strategy; this CLI lists its commands (`explicit`)", () => {
  expect(ours.oclif.commands.strategy).toBe("explicit");
  const calls = usesOf(installedFile("@oclif/core", "lib/config/plugin.js"), "getCommandIdsFromPattern").filter(({ node }) =>
    ts.isPropertyAccessExpression(node.parent),
  );
  expect(calls.length).toBe(1);
  let clause: ts.Node | undefined = calls[0]!.node;
  while (clause && !ts.isCaseClause(clause)) clause = clause.parent;
  expect(clause && ts.isCaseClause(clause) ? clause.expression.getText() : undefined).toBe("'pattern'");
});

test("oclif-unused: minimatch matches plugin names against oclif's plugin lists, and this CLI names none", () => {
  for (const list of ["plugins", "devPlugins", "jitPlugins"]) expect(ours.oclif[list], list).toBeUndefined();
});

test("debug-on-demand: in the bundle, oclif's logger and plugin-autocomplete require the stand-in, and no file of node_modules the real `debug`", () => {
  const modules = bundledModules();
  const standIn = modules.find((m) => m.id === "debug-on-demand:debug");
  expect(standIn, "the stand-in's module").toBeDefined();
  const callers = callersOf(modules, requireFunctionOf(standIn!));
  expect(callers).toContain("node_modules/@oclif/core/lib/logger.js");
  expect(callers).toContain("node_modules/@oclif/plugin-autocomplete/lib/commands/autocomplete/create.js");
  for (const id of callers) expect(DEBUG_IMPORTERS.test(id), id).toBe(true);
  // The package as oclif's logger would have it; the stand-in requires it under DEBUG.
  const entry = path
    .relative(ROOT, createRequire(path.join(installedPackage("@oclif/core"), "lib", "logger.js")).resolve("debug"))
    .split(path.sep)
    .join("/");
  const real = modules.find((m) => m.id === entry);
  expect(real, entry).toBeDefined();
  const realCallers = callersOf(modules, requireFunctionOf(real!));
  expect(realCallers.filter((id) => id.startsWith("node_modules/"))).toEqual([]);
  // One `debug` for oclif and src/: the writer that src/cli/shell/debug-secrets.ts wraps to hide secrets is oclif's.
  expect(realCallers).toEqual(expect.arrayContaining(["debug-on-demand:debug", "src/cli/shell/debug-secrets.ts"]));
});

test("debug-on-demand: without DEBUG, debug functions that print nothing and no `debug`; with it, the real package", () => {
  const real = Object.assign(() => "real", { enabled: true });
  const loaded: string[] = [];
  const require = (id: string) => {
    loaded.push(id);
    return real;
  };
  const silent = evaluate(DEBUG_ON_DEMAND, require) as (
    ns: string,
  ) => (() => unknown) & { enabled: boolean; namespace: string; extend: (s: string) => { namespace: string } };
  const debug = silent("oclif:main");
  expect(debug()).toBeUndefined();
  expect(debug.enabled).toBe(false);
  expect(debug.namespace).toBe("oclif:main");
  expect(debug.extend("config").namespace).toBe("oclif:main:config");
  expect(loaded).toEqual([]);
  expect(evaluate(DEBUG_ON_DEMAND, require, { DEBUG: "oclif:*" })).toBe(real);
  expect(loaded).toEqual(["debug"]);
});

test("oclif-same-config: Config.load handed a configuration of this oclif returns it as it is; unpatched it loads a copy", async () => {
  const file = path.join(installedPackage(SAME_CONFIG.package), SAME_CONFIG.file);
  const load = (source: string) => {
    const module = { exports: {} as { Config: { load(opts: unknown): Promise<object> } } };
    vm.compileFunction(source, ["exports", "require", "module", "__filename", "__dirname"])(
      module.exports,
      createRequire(file),
      module,
      file,
      path.dirname(file),
    );
    return module.exports.Config;
  };
  const original = readFileSync(file, "utf8");
  for (const [Config, same] of [
    [load(applyPatch(SAME_CONFIG, original, file)), true],
    [load(original), false],
  ] as const) {
    const loaded = await Config.load(BUILD_ROOT);
    const again = await Config.load(loaded);
    expect(again === loaded).toBe(same);
    expect((again as { bin?: string }).bin).toBe("reduck");
  }
});
