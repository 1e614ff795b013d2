#!/usr/bin/env node
/**
 * The CLI entry. Start-up is most of what a short command costs, so (measured, see
 * docs/performance.md, "The CLI's start"):
 *
 * - `reduck --version` is answered here, without loading the CLI at all: it needs only
 *   package.json. The line is oclif's own (`name/version platform-arch node-vX`); on WSL, where
 *   oclif says `wsl` instead of `linux`, oclif answers as before.
 * - `reduck <command> --help` into a pipe or a file (an agent reading help, a script) prints the
 *   text oclif wrote for it at build time (dist/cli/help.json), unless something here would make
 *   oclif write another (a terminal's width or colours, OCLIF_COLUMNS, DEBUG...): then oclif
 *   answers as before.
 * - The CLI is one CommonJS bundle (dist/cli/index.cjs), whose commands' modules run only when
 *   the command runs, compiled with V8's code cache, kept in the user's cache folder (as are the
 *   vendor files it requires): Node 20 has no compile cache for ES modules, and compiling the
 *   bundle was about a third of a short command's time.
 */
// CommonJS (bin/package.json), which starts a little faster than an ES module (measured).
"use strict";
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const root = path.dirname(__dirname);
const argv = process.argv.slice(2);
/** The buffer readWhole reads into, while one file is loaded. */
let scratch;

if (!((argv[0] === "--version" || argv[0] === "-v") && printVersion()) && !printHelpText()) {
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
  // Written straight to fd 1: making process.stdout (a stream over a pipe or a tty) costs more
  // than the rest of this answer (measured).
  writeAll(`${name}/${version} ${process.platform}-${arch} node-${process.version}\n`);
  return true;
}

/** Writes text to stdout whole, without making process.stdout; a reader gone (EPIPE) is no error. */
function writeAll(text) {
  const bytes = Buffer.from(text);
  let done = 0;
  try {
    while (done < bytes.length) done += fs.writeSync(1, bytes, done);
  } catch (err) {
    if (err.code === "EPIPE") return;
    if (err.code !== "EAGAIN") throw err;
    // A non-blocking pipe that is full: the rest through the stream, which waits for it.
    process.stdout.on("error", (error) => {
      if (error.code !== "EPIPE") throw error;
    });
    process.stdout.write(bytes.subarray(done));
  }
}

/**
 * Prints the help text oclif would print for `reduck <words> --help` (or `-h`), made at build time
 * by the CLI itself (scripts/help-texts.mjs: stdout a pipe, nothing else set), and says so; or says
 * it cannot, and prints nothing. It cannot when anything oclif reads would change the text.
 */
function printHelpText() {
  const last = argv[argv.length - 1];
  const words = argv.slice(0, -1);
  if ((last !== "--help" && last !== "-h") || words.some((w) => w.startsWith("-"))) return false;
  const env = process.env;
  // oclif's width (OCLIF_COLUMNS), its debug lines and settings, the early-access commands shown
  // (src/cli/shell/help.ts); colour, which ansis 3 (oclif's) turns on for these variables even
  // into a pipe; a user's theme.
  const changers = ["OCLIF_COLUMNS", "DEBUG", "REDUCK_DEBUG", "FORCE_COLOR", "COLORTERM", "TF_BUILD", "CI", "PM2_HOME", "NEXT_RUNTIME"];
  if (env.REDUCK_EXPERIMENTAL === "1" || changers.some((name) => name in env) || Object.keys(env).some((name) => name.startsWith("TEAMCI"))) return false;
  if (require("node:tty").isatty(1) || themeFiles().some((file) => fs.existsSync(file))) return false;
  let text;
  try {
    const texts = JSON.parse(fs.readFileSync(path.join(root, "dist", "cli", "help.json"), "utf8"));
    text = Object.hasOwn(texts, words.join(":")) ? texts[words.join(":")] : undefined;
  } catch {}
  if (typeof text !== "string") return false;
  // A reader that stops early (`| head`) is no error, as oclif has it.
  process.stdout.on("error", (err) => {
    if (err.code !== "EPIPE") throw err;
  });
  process.stdout.write(text);
  return true;
}

/** Where oclif may find a user's theme (its config folder's theme.json), every place it could look. */
function themeFiles() {
  const env = process.env;
  const folders = [
    env.REDUCK_CONFIG_DIR,
    env.XDG_CONFIG_HOME && path.join(env.XDG_CONFIG_HOME, "reduck"),
    env.LOCALAPPDATA && path.join(env.LOCALAPPDATA, "reduck"),
  ];
  folders.push(path.join(env.HOME || os.homedir(), ".config", "reduck"));
  return folders.filter(Boolean).map((folder) => path.join(folder, "theme.json"));
}

/** Any sign of WSL that oclif's check (the is-wsl package) looks at (the same signs as src/cli/shell/known-command.ts's maybeWsl, inside the bundle). */
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
 * module from require's cache. The files of dist/cli the bundle requires (the vendor files: ajv
 * for a run, the MCP SDK for `reduck mcp`) go through the code cache too, each with a cache of
 * its own.
 */
function loadCli() {
  const Module = require("node:module");
  const vm = require("node:vm");
  const dir = builtCli();
  const caches = codeCaches(dir);
  // The bundle's cache is kept per command: each holds the functions its command compiled.
  const command = commandOf(dir);

  /** Runs dist/cli/`name`. */
  const run = (name) => {
    const file = path.join(dir, name);
    // Our built files are ASCII and already wrapped as Node would wrap them (build/code-cache.ts,
    // forCodeCache): read as latin1 (one-byte text, no UTF-8 decoding), compiled as they are.
    const text = readWhole(file).toString("latin1");
    // Read once the text is copied out, into the same pages (readWhole).
    const cache = caches?.find(file, name, name === "index.cjs" ? command : undefined);
    const script = new vm.Script(text, { filename: file, cachedData: cache?.data });
    // The rest of the process (a 50 MB upload, say) need not keep it.
    scratch = undefined;
    const module = new Module(file, undefined);
    module.filename = file;
    module.paths = paths;
    Module._cache[file] = module;
    try {
      // The file's value is its wrapping function.
      script.runInThisContext()(module.exports, ours, module, file, dir);
    } catch (err) {
      delete Module._cache[file];
      throw err;
    }
    module.loaded = true;
    // Written once the command has run, so the cache holds the functions it compiled as well.
    if (cache && (!cache.data || script.cachedDataRejected)) caches.saveAtExit(cache, script);
    return module.exports;
  };

  // One require for every built file, as they are all in `dir`: Node's, except for the CLI's own
  // files beside them (`./name.cjs`).
  const plain = Module.createRequire(path.join(dir, "index.cjs"));
  const paths = Module._nodeModulePaths(dir);
  const ours = Object.assign((id) => {
    if (!(id.startsWith("./") && id.endsWith(".cjs") && !id.includes("/", 2))) return plain(id);
    const name = id.slice(2);
    return Module._cache[path.join(dir, name)]?.exports ?? run(name);
  }, plain);

  return run("index.cjs");
}

/**
 * The bytes of `file`, in one buffer that every call reuses until it is let go (so valid until the
 * next call): a built file's text, then its code cache, the one used before the other is read.
 * A page of memory is slow to touch the first time on some machines (a virtual machine whose
 * host takes back freed memory: about 13 us a page, measured), and a buffer of its own for each
 * file cost a short command about 2 ms there.
 */
function readWhole(file) {
  const fd = fs.openSync(file, "r");
  try {
    const size = fs.fstatSync(fd).size;
    if (!scratch || scratch.length < size) scratch = Buffer.allocUnsafeSlow(size);
    let done = 0;
    while (done < size) {
      const n = fs.readSync(fd, scratch, done, size - done, done);
      if (n === 0) break; // cut short since fstat: V8 refuses a cache, a shorter text fails as it would
      done += n;
    }
    return scratch.subarray(0, done);
  } finally {
    fs.closeSync(fd);
  }
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
 * The code caches of this build on this Node: a folder of the user's cache folder named for
 * Node's version and index.cjs's size and time, so an upgrade of either never meets an old cache
 * (V8 also refuses a cache made by another V8 or with other flags, but it checks only the length
 * of the source). Each file's cache is named for the file and its own size and time.
 * `NODE_DISABLE_COMPILE_CACHE` (Node's own switch) turns it off; so does anything that goes wrong
 * with the cache, which only makes a start a little slower.
 */
function codeCaches(dir) {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  try {
    const stamp = (file) => {
      const { size, mtimeMs } = fs.statSync(file);
      return `${size}-${Math.trunc(mtimeMs)}`;
    };
    const base = cacheDir();
    const prefix = `${process.version}-${process.arch}-`;
    const folder = path.join(base, `${prefix}${stamp(path.join(dir, "index.cjs"))}`);
    let cleaned = false;
    const toSave = [];
    return {
      /** Saves `script`'s cache where `cache` says when the process exits (one listener for every file). */
      saveAtExit(cache, script) {
        if (toSave.push([cache, script]) === 1) process.once("exit", () => toSave.forEach(([c, s]) => this.save(c, s)));
      },
      /** `file`'s cache (for one command's start, with `command`). */
      find(file, name, command) {
        try {
          const where = path.join(folder, `${name}-${stamp(file)}${command ? `.${command}` : ""}.v8`);
          let data;
          try {
            data = readWhole(where);
          } catch {}
          return { where, data };
        } catch {
          return undefined;
        }
      },
      save({ where }, script) {
        try {
          const data = script.createCachedData();
          fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
          // Written whole under another name (made afresh: never through a link someone left
          // there), then renamed: a CLI starting meanwhile reads the old cache or the new one.
          const partial = `${where}.${process.pid}-${Math.random().toString(36).slice(2)}.partial`;
          fs.writeFileSync(partial, data, { mode: 0o600, flag: "wx" });
          try {
            fs.renameSync(partial, where);
          } catch (err) {
            fs.rmSync(partial, { force: true });
            throw err;
          }
          if (!cleaned) {
            cleaned = true;
            // The caches of earlier builds on the same Node, which nothing will read again.
            for (const name of fs.readdirSync(base)) {
              if (name.startsWith(prefix) && path.join(base, name) !== folder) fs.rmSync(path.join(base, name), { recursive: true, force: true });
            }
          }
        } catch {
          // Only a cache: a read-only home folder makes the next start a little slower, nothing else.
        }
      },
    };
  } catch {
    return undefined;
  }
}

/**
 * The command argv names, as a file name (`scripts-list`), or undefined for anything else (help, a
 * topic, a misspelt command): its id or one of its aliases in dist/cli/commands.json, the longest
 * that the words before the first flag spell. A V8 code cache holds the functions its process had
 * compiled when it was written, and the bundle's code is mostly its commands': a start whose
 * cache another command wrote compiles its own command's functions every time (measured: a run
 * started from a cache written by `scripts list` took 5% longer than from its own).
 */
function commandOf(dir) {
  try {
    const known = JSON.parse(fs.readFileSync(path.join(dir, "commands.json"), "utf8"));
    const words = [];
    for (const arg of argv) {
      if (arg.startsWith("-") || words.length === 3) break;
      words.push(...arg.split(":"));
    }
    for (let n = Math.min(words.length, 3); n > 0; n--) {
      const id = words.slice(0, n).join(":");
      const found = Object.hasOwn(known, id) ? id : Object.keys(known).find((key) => known[key].aliases.includes(id));
      if (found && /^[a-z][a-z0-9:-]*$/.test(found)) return found.replaceAll(":", "-");
    }
  } catch {}
  return undefined;
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
