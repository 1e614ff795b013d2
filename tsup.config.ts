import { defineConfig } from "tsup";
import { readFileSync } from "node:fs";
import { packageFolders, vendorFiles } from "./build/bundle-imports.js";
import { forCodeCache } from "./build/code-cache.js";
import { lazyBuiltins } from "./build/lazy-builtins.js";
import { lazyPackages } from "./build/lazy-packages.js";
import { debugOnDemand, oclifEdits, oclifUnused } from "./build/oclif-patches.js";

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
const dts = process.env.REDUCK_BUILD_TYPES !== "0" && {
  // The declarations name Node's types (FileHandle, Buffer): they say so themselves, so a
  // project whose tsconfig lists no `types` (TypeScript 7's default, and `tsc --init`'s) or a
  // one-file `tsc` still finds them in @types/node, which the README tells TypeScript users to install.
  banner: '/// <reference types="node" />',
};

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
    // No maps: the library is not minified, so a stack trace already points at readable code,
    // and maps of both formats were 1.5 MB of the package's 8 MB budget.
    sourcemap: false,
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
    sourcemap: false,
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
    // vendor files below) is loaded with `require`. Each command's modules are still run only
    // when it runs (esbuild wraps what `import()` reaches in a function called on first use:
    // src/cli/commands.ts). Split into a file per command, the CLI started no faster (V8's code
    // cache already skips what a command never runs) and took 0.6 MB more on disk. oclif's explicit
    // discovery finds COMMANDS, the help class and the not-found hook in this same module.
    entry: { index: "src/cli/index.ts" },
    outDir: `${out}/cli`,
    // The vendor files are another build's, which runs at the same time.
    clean: ["!*-vendor.cjs"],
    format: ["cjs"],
    target: "node20",
    splitting: false,
    // Local names shortened and syntax made smaller, but one statement a line with the source
    // files named in comments, so a line of a REDUCK_DEBUG stack trace still says where it is:
    // a catalogue command ran 3% fewer instructions, and its code cache is 10% smaller (measured).
    // Whitespace stays: removing it saved nothing more. Names are not kept (esbuild's keepNames
    // wraps every function and class in a call that gave back more than half of that), so no
    // code here may depend on a function's or class's name. No maps (3 MB).
    minifyIdentifiers: true,
    minifySyntax: true,
    sourcemap: false,
    // import.meta.url (oclif's root, the package's own version) in CommonJS.
    shims: true,
    // oclif reads tsconfig with typescript only for uncompiled plugins; never here.
    external: ["typescript"],
    // openapi-fetch's URL builders are bundled too: resolving a bare import at start-up (its
    // package.json, its exports map, a separate module) cost more than its 15 KB. mime-types
    // stays outside: it is loaded only for an unusual file extension, and its database is large.
    noExternal: ["openapi-fetch"],
    // What the bundle changes in oclif to start faster (build/oclif-patches.ts), the built-ins
    // and packages loaded on first use (build/lazy-builtins.ts, build/lazy-packages.ts), and the vendor files it requires instead of
    // bundling them (build/bundle-imports.ts).
    esbuildPlugins: [oclifUnused, oclifEdits, debugOnDemand, lazyBuiltins, lazyPackages, vendorFiles],
    // tsup's own plugin would take every `node:` import before lazyBuiltins sees it.
    removeNodeProtocol: false,
    onSuccess: forCodeCache(`${out}/cli/index.cjs`),
    define,
    esbuildOptions(options) {
      // `import()` becomes `require()` (see above). bin/run.js reads it as forCodeCache leaves it.
      options.supported = { ...options.supported, "dynamic-import": false };
      // plugin-autocomplete's command files, which its `exports` leave out (src/cli/shell/plugins.ts).
      options.alias = { ...options.alias, ...packageFolders(["@oclif/plugin-autocomplete"], import.meta.url) };
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
