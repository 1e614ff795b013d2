import { defineConfig } from "tsup";
import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import type { Plugin } from "esbuild";

/**
 * Packages @oclif/core requires at start-up for features this CLI never uses, left out of its
 * bundle (parsing and evaluating them cost up to 10 ms per start, measured): `semver` only
 * serves oclif's Node-version warning, which cannot run bundled anyway (it reads a package.json
 * beside `__dirname`, which an ES module lacks, and gives up); `tinyglobby` only finds command
 * files by pattern, while this CLI lists its commands explicitly; `minimatch` only matches
 * plugin names against wildcards in package.json's `oclif.plugins`, and this CLI has no plugins
 * (help and autocomplete are built in). Calling one throws.
 */
const oclifUnused: Plugin = {
  name: "oclif-unused",
  setup(build) {
    build.onResolve({ filter: /^(semver|tinyglobby|minimatch)$/ }, (args) =>
      args.importer.includes("@oclif/core") ? { path: args.path, namespace: "oclif-unused" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "oclif-unused" }, (args) => ({
      loader: "js",
      contents: `module.exports = new Proxy({}, { get: (_, key) => key === "__esModule" ? undefined : () => { throw new Error(${JSON.stringify(`${args.path} is not part of reduck's build`)}); } });`,
    }));
  },
};

/**
 * oclif sorts the commands of its manifest with `localeCompare` at every start, and the first
 * `localeCompare` of a process loads ICU's collation data: about 5 ms (measured). Command ids
 * here are lower-case words, digits, `-` and `:`, which sort the same by code unit.
 */
const oclifPlainSort: Plugin = {
  name: "oclif-plain-sort",
  setup(build) {
    build.onLoad({ filter: /@oclif[\\/]core[\\/]lib[\\/]config[\\/]plugin\.js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const sort = ".sort((a, b) => a.id.localeCompare(b.id))";
      if (!source.includes(sort)) throw new Error(`oclif-plain-sort: ${args.path} no longer sorts with ${sort}; check the plugin against this oclif version`);
      return { loader: "js", contents: source.replace(sort, ".sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))") };
    });
  },
};

/**
 * oclif finds the platform (`wsl` or Node's) at every start through `wsl-utils`, which loads
 * `child_process` and a PowerShell helper just to re-export `is-wsl`'s answer: `is-wsl` is
 * asked directly. Checked against this oclif version, like oclifPlainSort.
 */
const oclifPlainWsl: Plugin = {
  name: "oclif-plain-wsl",
  setup(build) {
    build.onLoad({ filter: /@oclif[\\/]core[\\/]lib[\\/]util[\\/]os\.js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const wsl = "return (await import('wsl-utils')).isWsl ?";
      if (!source.includes(wsl)) throw new Error(`oclif-plain-wsl: ${args.path} no longer says ${wsl}; check the plugin against this oclif version`);
      return { loader: "js", contents: source.replace(wsl, "return (await import('is-wsl')).default ?") };
    });
  },
};

/**
 * Node built-ins that third-party code `require`s at start-up but calls only for a feature a
 * command may never use (oclif: `child_process` for a Windows shell, `readline` for flags read
 * from stdin, `perf_hooks` for its own timing, off unless asked): each is loaded on its first use instead (child_process cost 1.7 ms, measured).
 */
const lazyBuiltins: Plugin = {
  name: "lazy-builtins",
  setup(build) {
    build.onResolve({ filter: /^(node:)?(child_process|readline|perf_hooks)$/ }, (args) =>
      args.kind === "require-call" && /[\\/]node_modules[\\/]/.test(args.importer)
        ? { path: args.path.replace(/^node:/, ""), namespace: "lazy-builtin" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, (args) => ({
      loader: "js",
      contents: `let real;
const load = () => (real ??= require("node:${args.path}"));
module.exports = new Proxy({}, {
  get: (_, key) => (key === "__esModule" ? undefined : load()[key]),
  has: (_, key) => key in load(),
  ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_, key) => {
    const d = Reflect.getOwnPropertyDescriptor(load(), key);
    return d && { ...d, configurable: true };
  },
});`,
    }));
  },
};

/**
 * oclif's logger and plugin-autocomplete make their debug functions with the `debug` package at
 * start-up, and loading it (with supports-color and tty) cost 1.5 ms of every start (measured).
 * Their debug output appears only under `DEBUG=...`: without it they get functions that print
 * nothing, and `debug` is not loaded.
 */
const debugOnDemand: Plugin = {
  name: "debug-on-demand",
  setup(build) {
    build.onResolve({ filter: /^debug$/ }, (args) =>
      /@oclif[\\/](core[\\/]lib[\\/]logger|plugin-autocomplete[\\/]lib[\\/])/.test(args.importer) ? { path: "debug", namespace: "debug-on-demand" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "debug-on-demand" }, () => ({
      loader: "js",
      resolveDir: process.cwd(),
      contents: `const silent = (namespace) => Object.assign(() => {}, { enabled: false, namespace, extend: (sub, d = ":") => silent(namespace + d + sub) });
module.exports = process.env.DEBUG ? require("debug") : silent;`,
    }));
  },
};

/**
 * The CLI bundle requires its vendor files (built as entries of their own, below) instead of
 * bundling their packages: the MCP SDK and zod where src/mcp imports them, ajv where
 * src/cli/run/validate-args.ts does (as `../vendor/ajv.js`).
 */
const vendorFiles: Plugin = {
  name: "vendor-files",
  setup(build) {
    build.onResolve({ filter: /^(@modelcontextprotocol\/sdk\/(server\/(index|stdio|streamableHttp|zod-json-schema-compat)|types)\.js|zod)$/ }, (args) =>
      /[\\/]src[\\/]mcp[\\/]/.test(args.importer) ? { path: "./mcp-vendor.cjs", external: true } : undefined,
    );
    build.onResolve({ filter: /^\.\.\/vendor\/ajv\.js$/ }, () => ({ path: "./ajv-vendor.cjs", external: true }));
  },
};

/**
 * Readies a built CommonJS file for bin/run.js, which compiles it with V8's code cache:
 *
 * - Escapes what is left of non-ASCII (comments, a regular expression esbuild keeps as
 *   written), so it can be read as latin1: one-byte text, made without decoding UTF-8 (a 900 KB
 *   read went from 2 ms to under 1, measured). `\uXXXX` means the same character in strings,
 *   regular expressions and templates, and nothing in a comment; after a backslash it would not,
 *   so that stops the build.
 * - Wraps it in the function Node would wrap it in, so bin/run.js compiles the file's text as
 *   it is instead of a copy with the wrapper added (900 KB more in memory, measured). Required
 *   the usual way (`oclif manifest`, a test), the file runs that function at once: `this` at its
 *   top is `exports` in a CommonJS module, the global object in bin/run.js's script.
 */
function forCodeCache(file: string): () => Promise<void> {
  return async () => {
    const text = await readFile(file, "utf8");
    const escaped = /\\[^\x00-\x7f]/.exec(text);
    if (escaped) throw new Error(`forCodeCache: ${file} has an escaped non-ASCII character at ${escaped.index}; escape it by hand`);
    const ascii = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
    const head =
      '(function (run, self) { return typeof exports === "object" && exports === self ? run(exports, require, module, __filename, __dirname) : run; })(function (exports, require, module, __filename, __dirname) {';
    await writeFile(file, `${head}\n${ascii}\n}, this);\n`);
  };
}

/**
 * Where the build goes: dist/, or the folder REDUCK_BUILD_DIR names. The tests build into a folder
 * of their own that way (test/support/test-build.ts), so `npm run build` never changes files a
 * running suite is using, and a suite never rebuilds dist/.
 */
const out = process.env.REDUCK_BUILD_DIR || "dist";
/**
 * The type declarations (about 40 s of a build), unless REDUCK_BUILD_TYPES=0: the tests' build
 * leaves them out, as no test reads them there (test/package checks the ones `npm pack` builds).
 */
const dts = process.env.REDUCK_BUILD_TYPES !== "0";

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { name: string; version: string };
/** The package's name and version, built in (src/version.ts). */
const define = { __REDUCK_PACKAGE__: JSON.stringify({ name: pkg.name, version: pkg.version }) };

export default defineConfig([
  {
    // The library for `import`: its few `dependencies` stay external, installed beside us.
    // `reduck-client/report` (the pages) is an entry of its own, so the main one does not carry
    // it; the two share no state (the report's modules hold none), so neither imports the other
    // and no chunk is split off between them.
    entry: { index: "src/index.ts", report: "src/report/index.ts" },
    outDir: out,
    format: ["esm"],
    target: "node20",
    splitting: false,
    dts,
    // dist/cli/ and the CommonJS files are other builds', which run at the same time.
    clean: ["!cli/**", "!*.cjs*", "!*.d.cts"],
    sourcemap: true,
    define,
  },
  {
    // The library for `require`, on any Node 20. openapi-fetch's own CommonJS build exports
    // its client as `exports.default`, which Node's CommonJS interop (that esbuild follows for a
    // "type": "module" package) does not take as the default import: its ESM code is bundled in.
    entry: { index: "src/index.ts", report: "src/report/index.ts" },
    outDir: out,
    format: ["cjs"],
    target: "node20",
    dts,
    noExternal: ["openapi-fetch"],
    sourcemap: true,
    // import.meta.url (the package's own version) in CommonJS.
    shims: true,
    define,
  },
  {
    // The CLI and the agent tool: their third-party code (oclif, the MCP SDK, zod, ajv: all
    // devDependencies) is bundled here, so installing the library does not install them. Only
    // the library's `dependencies` stay external.
    //
    // One CommonJS file, so that bin/run.js can compile it with V8's code cache (Node 20 has
    // no compile cache for ES modules, and compiling the bundle was a third of `--version`,
    // measured). On Node 20 a function compiled with a code cache (`vm.Script` with `cachedData`)
    // cannot call `import()` (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING), so the bundle has none:
    // bundled code is inlined and run on first use, and what stays outside (mime-types, the
    // vendor files below) is loaded with `require`. oclif's explicit
    // discovery finds COMMANDS, the help class and the not-found hook in this same module.
    entry: { index: "src/cli/index.ts" },
    outDir: `${out}/cli`,
    // The vendor files are another build's, which runs at the same time.
    clean: ["!*-vendor.cjs"],
    format: ["cjs"],
    target: "node20",
    splitting: false,
    // Neither minified nor mapped: minifying saved no start-up time (measured), and an
    // unminified bundle keeps REDUCK_DEBUG's stack traces readable without 3 MB of maps.
    sourcemap: false,
    // import.meta.url (oclif's root, the package's own version) in CommonJS.
    shims: true,
    // oclif reads tsconfig with typescript only for uncompiled plugins; never here.
    external: ["typescript"],
    // openapi-fetch's URL builders are bundled too: resolving a bare import at start-up (its
    // package.json, its exports map, a separate module) cost more than its 15 KB. mime-types
    // stays outside: it is loaded only for an unusual file extension, and its database is large.
    noExternal: ["openapi-fetch"],
    esbuildPlugins: [oclifUnused, oclifPlainSort, oclifPlainWsl, lazyBuiltins, debugOnDemand, vendorFiles],
    // tsup's own plugin would take every `node:` import before lazyBuiltins sees it.
    removeNodeProtocol: false,
    onSuccess: forCodeCache(`${out}/cli/index.cjs`),
    define,
    esbuildOptions(options) {
      // `import()` becomes `require()` (see above). bin/run.js reads it as forCodeCache leaves it.
      options.supported = { ...options.supported, "dynamic-import": false };
    },
  },
  {
    // Third-party code only `reduck mcp` and `reduck run` use, in files of their own, so
    // every other command neither reads nor compiles it: the MCP SDK with zod (780 KB), ajv
    // (250 KB). The main bundle requires them by these names (vendorFiles).
    entry: { "mcp-vendor": "src/cli/vendor/mcp.ts", "ajv-vendor": "src/cli/vendor/ajv.ts" },
    outDir: `${out}/cli`,
    format: ["cjs"],
    target: "node20",
    splitting: false,
    sourcemap: false,
    // Compiled by bin/run.js with the code cache like the main bundle: no `import()` either,
    // and readied the same way (forCodeCache).
    esbuildOptions(options) {
      options.supported = { ...options.supported, "dynamic-import": false };
    },
    onSuccess: async () => {
      await forCodeCache(`${out}/cli/mcp-vendor.cjs`)();
      await forCodeCache(`${out}/cli/ajv-vendor.cjs`)();
    },
  },
]);
