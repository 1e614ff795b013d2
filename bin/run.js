#!/usr/bin/env node
/**
 * The CLI entry. Start-up is most of what a short command costs, so (measured, see README's
 * Performance section):
 *
 * - `reduck --version` is answered here, without loading the CLI at all: it needs only
 *   package.json. The line is oclif's own (`name/version platform-arch node-vX`); on WSL, where
 *   oclif says `wsl` instead of `linux`, oclif answers as before.
 * - The CLI is one CommonJS bundle (dist/cli/index.cjs), compiled with V8's code cache, kept in
 *   the user's cache folder. Node 20 has no compile cache for ES modules, and compiling the
 *   bundle was about a third of a short command's time.
 */
// CommonJS (bin/package.json), which starts a little faster than an ES module (measured).
"use strict";
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const root = path.dirname(__dirname);
const argv = process.argv.slice(2);

if (!((argv[0] === "--version" || argv[0] === "-v") && printVersion())) {
  // Node 22.1+ keeps compiled code of what is loaded with require (the vendor files) too.
  require("node:module").enableCompileCache?.();
  // main() handles its own errors (oclif's handle), as before.
  loadCli().main(argv);
}

/** Prints oclif's version line and says so, or says it cannot (on WSL) and prints nothing. */
function printVersion() {
  if (process.platform === "linux" && onWsl()) return false;
  const { name, version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const arch = os.arch() === "ia32" ? "x86" : os.arch();
  console.log(`${name}/${version} ${process.platform}-${arch} node-${process.version}`);
  return true;
}

/** Any sign of WSL that oclif's check (the is-wsl package) looks at. */
function onWsl() {
  if (os.release().toLowerCase().includes("microsoft")) return true;
  try {
    if (fs.readFileSync("/proc/version", "utf8").toLowerCase().includes("microsoft")) return true;
  } catch {}
  return fs.existsSync("/proc/sys/fs/binfmt_misc/WSLInterop") || fs.existsSync("/run/WSL");
}

/**
 * Runs the CLI's bundle as the CommonJS module it is, compiled from the code cache when there
 * is one that fits. oclif then `require`s the same file to find the commands, and gets this
 * module from require's cache. The vendor files the bundle requires (ajv for a run, the MCP SDK
 * for `reduck mcp`) go through the code cache too: compiling ajv took about 5 ms of every run.
 */
function loadCli() {
  const Module = require("node:module");
  const vm = require("node:vm");
  const dir = builtCli();
  const vendorFiles = new Set(["./ajv-vendor.cjs", "./mcp-vendor.cjs"]);

  /** Runs dist/cli/`name` with `requireIn` as its require, its code cache named `cacheName`. */
  const run = (name, cacheName, requireIn) => {
    const file = path.join(dir, name);
    const cache = codeCache(file, cacheName);
    // Our built files are ASCII and already wrapped as Node would wrap them (build/code-cache.ts,
    // forCodeCache): read as latin1 (one-byte text, no UTF-8 decoding), compiled as they are.
    const script = new vm.Script(fs.readFileSync(file, "latin1"), { filename: file, cachedData: cache?.data });
    const module = new Module(file, undefined);
    module.filename = file;
    module.paths = Module._nodeModulePaths(dir);
    Module._cache[file] = module;
    try {
      // The file's value is its wrapping function.
      script.runInThisContext()(module.exports, requireIn(file), module, file, dir);
    } catch (err) {
      delete Module._cache[file];
      throw err;
    }
    module.loaded = true;
    // Written once the command has run, so the cache holds the functions it compiled as well.
    if (cache && (!cache.data || script.cachedDataRejected)) process.once("exit", () => saveCodeCache(cache, script));
    return module.exports;
  };

  /** The bundle's require: Node's, except for the vendor files. */
  const bundleRequire = (file) => {
    const plain = Module.createRequire(file);
    const vendored = (id) => {
      if (!vendorFiles.has(id)) return plain(id);
      const name = id.slice(2);
      return Module._cache[path.join(dir, name)]?.exports ?? run(name, name.replace(/\.cjs$/, ""), Module.createRequire);
    };
    return Object.assign(vendored, plain);
  };

  // `reduck run` keeps a cache of its own: a cache holds what its first command compiled, and a
  // run compiles much that other commands never call (measured: a run from a cache made by
  // `scripts list` took about 6% longer than from its own).
  const flavour = argv.find((a) => !a.startsWith("-")) === "run" ? "run" : "cli";
  return run("index.cjs", flavour, bundleRequire);
}

/**
 * dist/cli, resolved. Missing only in a clone that was never built (the package always ships
 * it): said in one line with the fix, not as a stack trace.
 */
function builtCli() {
  try {
    const dir = fs.realpathSync(path.join(root, "dist", "cli"));
    if (fs.existsSync(path.join(dir, "index.cjs"))) return dir;
  } catch (err) {
    if (err.code !== "ENOENT") throw err;
  }
  process.stderr.write(
    `Error: the reduck CLI is not built here (${path.join(root, "dist", "cli", "index.cjs")} is missing): run \`npm run build\` in ${root} first\n`,
  );
  process.exit(1);
}

/**
 * Where a file's code cache is, and its bytes if there are any. The name carries Node's version
 * and the file's size and time, so an upgrade of either never meets an old cache (V8 also
 * refuses a cache made by another V8 or with other flags). `NODE_DISABLE_COMPILE_CACHE`
 * (Node's own switch) turns it off.
 */
function codeCache(file, name) {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  try {
    const dir = cacheDir();
    const { size, mtimeMs } = fs.statSync(file);
    const prefix = `${name}-${process.version}-${process.arch}-`;
    const where = path.join(dir, `${prefix}${size}-${Math.trunc(mtimeMs)}.v8`);
    let data;
    try {
      data = fs.readFileSync(where);
    } catch {}
    return { dir, prefix, where, data };
  } catch {
    return undefined;
  }
}

function saveCodeCache({ dir, prefix, where }, script) {
  try {
    const data = script.createCachedData();
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Written whole under another name, then renamed: a CLI starting meanwhile never reads half.
    const partial = `${where}.${process.pid}.partial`;
    fs.writeFileSync(partial, data, { mode: 0o600 });
    fs.renameSync(partial, where);
    // The caches of earlier builds of the same Node, which nothing will read again.
    for (const name of fs.readdirSync(dir)) {
      if (name.startsWith(prefix) && name.endsWith(".v8") && path.join(dir, name) !== where) fs.rmSync(path.join(dir, name), { force: true });
    }
  } catch {
    // Only a cache: a read-only home folder makes the next start a little slower, nothing else.
  }
}

/** The user's cache folder for reduck: `REDUCK_CACHE_DIR`, else the platform's usual place. */
function cacheDir() {
  const env = process.env;
  if (env.REDUCK_CACHE_DIR) return env.REDUCK_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return path.join(env.XDG_CACHE_HOME, "reduck");
  if (process.platform === "win32") return path.join(env.LOCALAPPDATA || path.join(os.homedir(), "AppData", "Local"), "reduck", "Cache");
  if (process.platform === "darwin") return path.join(os.homedir(), "Library", "Caches", "reduck");
  return path.join(os.homedir(), ".cache", "reduck");
}
