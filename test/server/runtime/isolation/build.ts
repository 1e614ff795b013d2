// Builds the script runtime (the process, its worker, and the code evaluated inside the body's
// context) from the TypeScript beside this file, on first use. The script process gets no loader
// (nothing of the server's environment reaches it), so it needs plain JavaScript; and the inside
// code must be one self-contained script text, since it is evaluated in a realm of its own.
//
// The output goes to .built/<key>/ (git-ignored), where the key is a hash of every source here and
// of esbuild's version: a changed source is a new folder, built once. Many servers (vitest workers,
// sandboxes) may start at once: each builds into a folder of its own and renames it into place;
// the first rename wins, the others find the folder there and drop theirs. A folder is never
// written after it has its name, so a process that sees it sees it whole.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync, version } from "esbuild";

const SOURCES = path.dirname(fileURLToPath(import.meta.url));
const BUILT = path.join(SOURCES, ".built");
/** The variable the inside bundle assigns its exports to: a local of the wrapper, never a global. */
const GLOBAL_NAME = "reduckInside";
/**
 * The TypeScript settings esbuild reads, given here so that the output depends on the hashed
 * sources only, not on a tsconfig.json above them. `alwaysStrict` makes the inside bundle strict:
 * each piece of it was strict as a function of its own before, a bundle of ES modules is not
 * marked strict unless told, and strict functions show no caller to climb.
 */
const TSCONFIG = { compilerOptions: { alwaysStrict: true, verbatimModuleSyntax: true } };
/** Folders of older sources are removed once this old (a server started before the change may still use its own). */
const STALE_MS = 24 * 60 * 60 * 1000;

let inside: string | undefined;
let page: string | undefined;
let processFile: string | undefined;

/**
 * The code of inside/ as one script text whose value is its exports (`{ inside, webGlobals }`):
 * evaluated in a `vm` context, every object it makes is that context's. Built in memory, once per
 * process.
 *
 * @example
 * const { webGlobals } = vm.runInContext(insideScript(), context);
 */
export function insideScript(): string {
  inside ??= realmScript(path.join(SOURCES, "inside", "index.ts"));
  return inside;
}

/**
 * The code of page/ (the simulated page: its document, window and answers) as one script text
 * whose value is its exports (`{ start }`), evaluated like insideScript() in a realm of its own.
 *
 * @example
 * const { start } = vm.runInContext(pageScript(), context);
 */
export function pageScript(): string {
  page ??= realmScript(path.join(SOURCES, "page", "index.ts"));
  return page;
}

/** The module `entry` and what it imports, as one script text whose value is its exports. */
function realmScript(entry: string): string {
  const built = buildSync({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "iife",
    globalName: GLOBAL_NAME,
    // Neutral: no module of Node's resolves, so an import of one fails the build here.
    platform: "neutral",
    target: "es2022",
    tsconfigRaw: TSCONFIG,
    legalComments: "none",
    logLevel: "silent",
  });
  const text = built.outputFiles[0]!.text;
  // Wrapped so the bundle's `var` stays a local of the wrapper, not a property of the context's globalThis.
  return `(() => {\n${text}\nreturn ${GLOBAL_NAME};\n})()`;
}

/** Every source file here (not the built output), by path relative to this folder. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith("."))
    .flatMap((entry) => {
      const full = path.join(folder, entry.name);
      return entry.isDirectory() ? sourceFiles(full) : [full];
    })
    .sort();
}

function sourceKey(): string {
  const hash = createHash("sha256").update(`esbuild ${version}\n`);
  for (const file of sourceFiles(SOURCES))
    hash
      .update(`${path.relative(SOURCES, file)}\n`)
      .update(readFileSync(file))
      .update("\n");
  return hash.digest("hex").slice(0, 16);
}

/**
 * The path of the built script process (script-process.ts as an ES module, its worker beside it
 * as CommonJS), built now if the sources changed since the last build.
 *
 * @example
 * spawn(process.execPath, [scriptProcessFile(), "128", "1048576"], { env: {} });
 */
export function scriptProcessFile(): string {
  if (processFile !== undefined) return processFile;
  const key = sourceKey();
  const folder = path.join(BUILT, key);
  const file = path.join(folder, "script-process.mjs");
  if (!existsSync(file)) {
    mkdirSync(BUILT, { recursive: true });
    const scratch = path.join(BUILT, `.tmp-${key}-${process.pid}-${Math.random().toString(36).slice(2)}`);
    try {
      const common = {
        bundle: true,
        outdir: scratch,
        platform: "node",
        target: "node20",
        tsconfigRaw: TSCONFIG,
        // acorn resolves from node_modules at run time, as any dependency does.
        packages: "external",
        legalComments: "none",
        logLevel: "silent",
      } as const;
      buildSync({ ...common, entryPoints: { "script-process": path.join(SOURCES, "script-process.ts") }, outExtension: { ".js": ".mjs" }, format: "esm" });
      // The worker starts once per run: as CommonJS it loads in about 7 ms less CPU than as an
      // ES module (Node's ES module loader, set up anew in every worker).
      buildSync({
        ...common,
        entryPoints: { "script-worker": path.join(SOURCES, "script-worker.ts") },
        outExtension: { ".js": ".cjs" },
        format: "cjs",
        define: { INSIDE_SCRIPT: JSON.stringify(insideScript()), PAGE_SCRIPT: JSON.stringify(pageScript()) },
      });
      try {
        renameSync(scratch, folder);
        pruneStale(key);
      } catch (error) {
        // Another server's build got there first: the same sources, so the same files.
        if (!existsSync(file)) throw error;
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  processFile = file;
  return file;
}

/**
 * Removes the builds of other sources (and abandoned scratch folders) older than STALE_MS. Twin of
 * bin/bundle.mjs's pruneStale, which runs in plain Node and so cannot import this file.
 */
function pruneStale(current: string): void {
  for (const name of readdirSync(BUILT)) {
    if (name === current) continue;
    const full = path.join(BUILT, name);
    try {
      if (Date.now() - statSync(full).mtimeMs > STALE_MS) rmSync(full, { recursive: true, force: true });
    } catch {
      // Gone already (another server pruned it), or not ours to remove: left as it is.
    }
  }
}
