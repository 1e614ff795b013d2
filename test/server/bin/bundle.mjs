// The sandbox's command as one file of plain JavaScript: its TypeScript sources bundled by esbuild
// on first start into .built/<key>/sandbox.mjs (git-ignored, not packed), and again whenever a
// source changes (the key is a hash of every source and of esbuild's version). Node starts the
// bundle in about two thirds of the time it takes to load the ~130 modules one by one through
// tsx's loader, which transforms and resolves each in a thread of its own (measured on 2 cores:
// 455-680 ms against 694-877 ms to the first answered request).
//
// Each module keeps its own `import.meta.url` (written into its text as the source file's URL),
// so the files it reads beside itself (the catalogue, the service description, the script
// runtime's sources) are found where they are. Dependencies stay outside, resolved from
// node_modules as before. Many sandboxes may start at once: each builds into a file of its own and
// renames it into place; a file is never written after it has its name.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BUILT = path.join(ROOT, ".built");
const ENTRY = path.join(ROOT, "process", "sandbox.ts");
/** Bundles of older sources are removed once this old (a sandbox started before the change may still use its own). */
const STALE_MS = 24 * 60 * 60 * 1000;

/** The TypeScript sources the bundle is made of (tests, dependencies and built output aside). */
function sources(folder) {
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.name !== "node_modules" && !entry.name.startsWith("."))
    .flatMap((entry) => {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) return sources(full);
      return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [full] : [];
    })
    .sort();
}

/**
 * The file URL of the bundled command, built now when the sources changed since the last build;
 * undefined when it cannot be (esbuild missing, a folder that cannot be written): the command then
 * runs its sources through tsx's loader.
 *
 * @example
 * const bundle = sandboxBundle();
 * if (bundle) await import(bundle);
 */
export async function sandboxBundle() {
  try {
    const { build, version } = await import("esbuild");
    const hash = createHash("sha256")
      .update(`esbuild ${version}\n`)
      .update(readFileSync(fileURLToPath(import.meta.url)));
    for (const file of sources(ROOT))
      hash
        .update(`${path.relative(ROOT, file)}\n`)
        .update(readFileSync(file))
        .update("\n");
    const key = hash.digest("hex").slice(0, 16);
    const file = path.join(BUILT, key, "sandbox.mjs");
    try {
      statSync(file);
      return pathToFileURL(file).href;
    } catch {
      // Not built yet for these sources.
    }
    mkdirSync(path.dirname(file), { recursive: true });
    const scratch = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
    try {
      await build({
        entryPoints: [ENTRY],
        outfile: scratch,
        bundle: true,
        format: "esm",
        platform: "node",
        target: "node20",
        packages: "external",
        legalComments: "none",
        logLevel: "silent",
        // CommonJS code inside the bundle (none today) would find `require` here.
        banner: { js: 'import { createRequire as __sandboxRequire } from "node:module"; const require = __sandboxRequire(import.meta.url);' },
        plugins: [
          {
            name: "own-import-meta-url",
            setup(bundler) {
              bundler.onLoad({ filter: /\.ts$/ }, (args) => ({
                contents: readFileSync(args.path, "utf8").replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href)),
                loader: "ts",
              }));
            },
          },
        ],
      });
      renameSync(scratch, file);
    } finally {
      rmSync(scratch, { force: true });
    }
    pruneStale(key);
    return pathToFileURL(file).href;
  } catch {
    return undefined;
  }
}

/**
 * Removes the bundles of other sources (and abandoned scratch files) older than STALE_MS. Twin of
 * runtime/isolation/build.ts's pruneStale: this file runs in plain Node before any TypeScript loads.
 */
function pruneStale(current) {
  for (const name of readdirSync(BUILT)) {
    if (name === current) continue;
    const full = path.join(BUILT, name);
    try {
      if (Date.now() - statSync(full).mtimeMs > STALE_MS) rmSync(full, { recursive: true, force: true });
    } catch {
      // Gone already (another sandbox pruned it): left as it is.
    }
  }
}
