/**
 * What the CLI's bundle changes in oclif (@oclif/core, and plugin-autocomplete's `debug`) to start
 * faster: two edits of its source text, three packages it requires for features this CLI never
 * uses left out, and `debug` loaded only under DEBUG. Each saves a few ms of every start (measured; see
 * docs/performance.md). Each names exactly what it changes, so that test/build/oclif-patches.test.ts
 * can read the installed oclif and fail when an upgrade moves it; the edits also stop the build.
 */
import type { Plugin } from "esbuild";
import { readFile } from "node:fs/promises";

/** An edit of one file of a package: `find`, which must appear exactly once, becomes `replace`. */
export interface SourcePatch {
  name: string;
  package: string;
  /** The file, from the package's folder, with `/`. */
  file: string;
  find: string;
  replace: string;
}

/**
 * oclif sorts the commands of its manifest with `localeCompare` at every start, and the first
 * `localeCompare` of a process loads ICU's collation data: about 5 ms (measured). Command ids
 * here are lower-case words, digits, `-` and `:`, which sort the same by code unit.
 */
export const PLAIN_SORT: SourcePatch = {
  name: "oclif-plain-sort",
  package: "@oclif/core",
  file: "lib/config/plugin.js",
  find: ".sort((a, b) => a.id.localeCompare(b.id))",
  replace: ".sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))",
};

/**
 * oclif finds the platform (`wsl` or Node's) at every start through `wsl-utils`, which loads
 * `child_process` and a PowerShell helper just to re-export `is-wsl`'s answer: `is-wsl` is
 * asked directly. oclif does not depend on it, but finds the copy `wsl-utils` uses (test/build
 * checks that it is the same file).
 */
export const PLAIN_WSL: SourcePatch = {
  name: "oclif-plain-wsl",
  package: "@oclif/core",
  file: "lib/util/os.js",
  find: "return (await import('wsl-utils')).isWsl ?",
  replace: "return (await import('is-wsl')).default ?",
};

/**
 * oclif's Node-version warning, which oclif runs as it loads, can never speak in the bundle: it
 * requires its package.json by a path made from `__dirname`, a file that is not there, and semver,
 * which the bundle leaves out (its stand-in would throw); it catches both. It is not called: it
 * cost a failed require and a thrown error, about 1% of a catalogue command's instructions
 * (measured), and esbuild then drops it with its requires, semver's among them.
 */
export const NO_VERSION_WARNING: SourcePatch = {
  name: "oclif-no-version-warning",
  package: "@oclif/core",
  file: "lib/index.js",
  find: "checkCWD();\ncheckNodeVersion();\n",
  replace: "checkCWD();\n",
};

/**
 * A command's `run` is handed the configuration oclif loaded, and loads it again (`Config.load`
 * given a Config: meant for a plugin built with another oclif, which would not read this one's
 * fields). From the same oclif the copy is the same configuration made twice (2-4M instructions
 * of a catalogue command, measured), so it is used as it is; the start without oclif's load
 * (src/cli/shell/known-command.ts) relies on that.
 */
export const SAME_CONFIG: SourcePatch = {
  name: "oclif-same-config",
  package: "@oclif/core",
  file: "lib/config/config.js",
  find: "        if (isConfig(opts)) {\n",
  replace: "        if (isConfig(opts) && opts._base === BASE) {\n            return opts;\n        }\n        else if (isConfig(opts)) {\n",
};

/** `source` (the text of `patch`'s file, read from `where`) with the patch made; throws when the text to replace is not there exactly once. */
export function applyPatch(patch: SourcePatch, source: string, where: string): string {
  const at = source.indexOf(patch.find);
  if (at < 0 || source.indexOf(patch.find, at + 1) >= 0) {
    throw new Error(`${patch.name}: ${where} no longer says ${patch.find} (once); check the patch against this version of ${patch.package}`);
  }
  return source.slice(0, at) + patch.replace + source.slice(at + patch.find.length);
}

/** A path pattern of `file` of `pkg` wherever it is installed. */
function fileFilter(pkg: string, file: string): RegExp {
  return new RegExp(`${[...pkg.split("/"), ...file.split("/")].map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[\\\\/]")}$`);
}

/**
 * What oclif runs as it loads but uses only for a terminal, a help text or an error, each left
 * to its first use (measured together: see docs/performance.md, "The CLI's start"):
 *
 * - its spinner, only drawn on a terminal, whose module holds cli-spinners' 48 KB table of frames;
 * - ejs, which renders help templates and the update commands' S3 keys;
 * - ansis and supports-color, oclif's colours, which look at the terminal and the environment
 *   as they load: asked when oclif first colours (or strips) a text;
 * - the width of stderr, read for wrapping an error: reading it at load made `process.stderr`,
 *   a stream a command that writes nothing there never needs (the spinner's choice asks the
 *   terminal directly, as Node does when it makes that stream, and its writers take stderr's
 *   `write` when they first write, not when oclif loads).
 */
export const LAZY_LOADS: readonly SourcePatch[] = [
  ...["lib/ux/theme.js", "lib/help/index.js", "lib/help/formatter.js", "lib/help/command.js", "lib/help/root.js"].map((file) =>
    lazyDefault(`oclif-lazy-ansis-${file.slice(4, -3).replace("/", "-")}`, file, "ansis_1", "ansis"),
  ),
  lazyNamed("oclif-lazy-supports-color", "lib/ux/theme.js", "supports_color_1", "./supports-color"),
  lazyDefault("oclif-lazy-spinner", "lib/ux/index.js", "spinner_1", "./action/spinner"),
  {
    name: "oclif-spinner-choice",
    package: "@oclif/core",
    file: "lib/ux/index.js",
    find: "const ACTION_TYPE = (Boolean(process.stderr.isTTY) &&",
    replace: 'const ACTION_TYPE = (require("node:tty").isatty(2) &&',
  },
  {
    name: "oclif-action-writers-on-use",
    package: "@oclif/core",
    file: "lib/ux/action/base.js",
    find: "    stdmockOrigs = {\n        stderr: process.stderr.write,\n        stdout: process.stdout.write,\n    };\n",
    replace:
      "    _stdmockOrigs;\n    get stdmockOrigs() { return (this._stdmockOrigs ??= { stderr: process.stderr.write, stdout: process.stdout.write }); }\n    set stdmockOrigs(value) { this._stdmockOrigs = value; }\n",
  },
  lazyDefault("oclif-lazy-ejs-help", "lib/help/util.js", "ejs_1", "ejs"),
  lazyDefault("oclif-lazy-ejs-config", "lib/config/config.js", "ejs_1", "ejs"),
  {
    name: "oclif-lazy-stderr-width",
    package: "@oclif/core",
    file: "lib/screen.js",
    find: "exports.errtermwidth = columns || termwidth(process.stderr);",
    replace:
      'let errtermwidth;\nObject.defineProperty(exports, "errtermwidth", { enumerable: true, get: () => (errtermwidth ??= columns || termwidth(process.stderr)) });',
  },
];

/** `const <name> = __importDefault(require("<id>"));` of oclif's `file`, made to require `id` when `<name>.default` is first read. */
export function lazyDefault(patchName: string, file: string, name: string, id: string): SourcePatch {
  const req = `__importDefault(require(${JSON.stringify(id)}))`;
  return {
    name: patchName,
    package: "@oclif/core",
    file,
    find: `const ${name} = ${req};`,
    replace: `const ${name} = { get default() { return ${req}.default; } };`,
  };
}

/** `const <name> = require("<id>");` of oclif's `file`, made to require `id` when a property of `<name>` is first read. */
export function lazyNamed(patchName: string, file: string, name: string, id: string): SourcePatch {
  const req = `require(${JSON.stringify(id)})`;
  return {
    name: patchName,
    package: "@oclif/core",
    file,
    find: `const ${name} = ${req};`,
    replace: `const ${name} = new Proxy({}, { get: (_, key) => ${req}[key] });`,
  };
}

/** The esbuild plugin that makes `patches`, several to a file where they share one. */
export function sourcePatches(name: string, patches: readonly SourcePatch[]): Plugin {
  const files = [...new Set(patches.map((p) => `${p.package}/${p.file}`))];
  return {
    name,
    setup(build) {
      for (const file of files) {
        const mine = patches.filter((p) => `${p.package}/${p.file}` === file);
        build.onLoad({ filter: fileFilter(mine[0]!.package, mine[0]!.file) }, async (args) => ({
          loader: "js",
          contents: mine.reduce((text, patch) => applyPatch(patch, text, args.path), await readFile(args.path, "utf8")),
        }));
      }
    },
  };
}

/** Every edit of oclif's files, in one plugin: esbuild takes only the first plugin's text for a file, so two edits of one file must be made together. */
export const oclifEdits = sourcePatches("oclif-edits", [PLAIN_SORT, PLAIN_WSL, NO_VERSION_WARNING, SAME_CONFIG, ...LAZY_LOADS]);

/**
 * Packages @oclif/core requires at start-up for features this CLI never uses, each from one file
 * and called in one function (`usedIn`), left out of the bundle: parsing and evaluating them cost
 * up to 10 ms per start (measured). Calling one throws.
 */
export const UNUSED_PACKAGES = [
  {
    // Finds command files by pattern, while this CLI lists its commands explicitly.
    package: "tinyglobby",
    requiredBy: "lib/config/plugin.js",
    usedIn: "getCommandIdsFromPattern",
  },
  {
    // Matches plugin names against wildcards in package.json's `oclif.plugins`, and this CLI
    // has no plugins (help and autocomplete are built in as commands).
    package: "minimatch",
    requiredBy: "lib/config/plugin-loader.js",
    usedIn: "findMatchingDependencies",
  },
] as const;

/** What an unused package becomes in the bundle: an object whose every property is a function that throws. */
export function unusedModule(name: string): string {
  return `module.exports = new Proxy({}, { get: (_, key) => key === "__esModule" ? undefined : () => { throw new Error(${JSON.stringify(`${name} is not part of reduck's build`)}); } });`;
}

export const oclifUnused: Plugin = {
  name: "oclif-unused",
  setup(build) {
    const names = UNUSED_PACKAGES.map((p) => p.package);
    build.onResolve({ filter: new RegExp(`^(${names.join("|")})$`) }, (args) =>
      /@oclif[\\/]core[\\/]/.test(args.importer) ? { path: args.path, namespace: "oclif-unused" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "oclif-unused" }, (args) => ({ loader: "js", contents: unusedModule(args.path) }));
  },
};

/**
 * The files whose `debug` debugOnDemand replaces: oclif's logger and plugin-autocomplete's
 * commands make their debug functions at start-up, and loading `debug` (with supports-color and
 * tty) cost 1.5 ms of every start (measured).
 */
export const DEBUG_IMPORTERS = /@oclif[\\/](core[\\/]lib[\\/]logger\.js|plugin-autocomplete[\\/]lib[\\/])/;

/**
 * What `debug` becomes for DEBUG_IMPORTERS: the real package under `DEBUG=...`, the only time
 * their debug output appears; without it, functions that print nothing, and `debug` is not loaded.
 */
export const DEBUG_ON_DEMAND = `const silent = (namespace) => Object.assign(() => {}, { enabled: false, namespace, extend: (sub, d = ":") => silent(namespace + d + sub) });
module.exports = process.env.DEBUG ? require("debug") : silent;`;

export const debugOnDemand: Plugin = {
  name: "debug-on-demand",
  setup(build) {
    build.onResolve({ filter: /^debug$/ }, (args) => (DEBUG_IMPORTERS.test(args.importer) ? { path: "debug", namespace: "debug-on-demand" } : undefined));
    // Resolved from the repository (where the build runs), as src/ resolves it: one `debug` in the
    // bundle, whose writer src/cli/shell/debug-secrets.ts wraps to keep secrets out of DEBUG output.
    build.onLoad({ filter: /.*/, namespace: "debug-on-demand" }, () => ({ loader: "js", resolveDir: process.cwd(), contents: DEBUG_ON_DEMAND }));
  },
};
