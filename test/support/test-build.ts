// The build the tests run (a `globalSetup` of vitest.config.ts, before any test file starts).
//
// The CLI and the library are built from the sources as they are now into a folder of their own,
// `node_modules/.cache/reduck-test-build/<hash of the sources>/`, laid out as the installed package
// is (package.json, bin/, dist/, oclif.manifest.json, openapi.json). Test processes find it as
// REDUCK_TEST_BUILD (test/support/cli.ts reads it: BUILD_ROOT, BIN).
//
// - A build is written under another name and renamed into place once complete, and never changed
//   after: a test never sees half a build, and `npm run build` (which writes dist/) or another run
//   of the suite can never change the files a running suite uses.
// - Runs with the same sources share one build: the second run of the suite, `npm run test:slow`
//   after `npm test`, or a single test file run again, build nothing. A change to any source makes
//   a new build, so a test never runs an out-of-date CLI.
// - The type declarations (.d.ts), 40 s of a build on a loaded machine, are in the slow suite's build
//   only (a folder `<hash>-typed`): only its tests read them (test/support/typecheck.ts).
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** Where the builds are kept. */
export const BUILDS = path.join(ROOT, "node_modules", ".cache", "reduck-test-build");
/** The file a build's folder holds once it is complete. */
const COMPLETE = ".complete";
/** What goes into a build: every file of these folders, and these files. */
const SOURCE_FOLDERS = ["src", "bin", "build"];
const SOURCE_FILES = ["package.json", "package-lock.json", "tsup.config.ts", "tsconfig.json", "openapi.json", "scripts/manifest.mjs", "scripts/help-texts.mjs"];
/** Builds not used for this long are removed (a run touches the one it uses). */
const UNUSED_FOR_MS = 24 * 60 * 60 * 1000;

/** A hash of everything the build is made from: the build's name. */
export function sourceHash(root = ROOT): string {
  const hash = createHash("sha256");
  const files = [...SOURCE_FILES];
  for (const folder of SOURCE_FOLDERS) {
    for (const name of readdirSync(path.join(root, folder), { recursive: true, encoding: "utf8" })) {
      const file = path.join(folder, name);
      if (statSync(path.join(root, file)).isFile()) files.push(file);
    }
  }
  for (const file of files.sort()) {
    hash.update(`${file.split(path.sep).join("/")}\0`);
    hash.update(existsSync(path.join(root, file)) ? readFileSync(path.join(root, file)) : "(none)");
    hash.update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

const run = promisify(execFile);

/** Runs `node <args>` in `cwd`; a failure throws with everything it printed. */
async function node(args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  try {
    await run(process.execPath, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    const { stdout = "", stderr = "" } = err as { stdout?: string; stderr?: string };
    throw new Error(`the test build failed: node ${args.join(" ")} (in ${cwd}):\n${stdout}${stderr}`);
  }
}

/** Builds the package into `folder` (which must not exist yet). */
async function build(folder: string): Promise<void> {
  mkdirSync(folder, { recursive: true });
  for (const file of ["package.json", "openapi.json"]) cpSync(path.join(ROOT, file), path.join(folder, file));
  cpSync(path.join(ROOT, "bin"), path.join(folder, "bin"), { recursive: true });
  const require = createRequire(import.meta.url);
  const tsup = path.join(path.dirname(require.resolve("tsup/package.json")), "dist", "cli-default.js");
  const types = path
    .basename(folder)
    .replace(/\.partial-\d+$/, "")
    .endsWith("-typed");
  await node([tsup], ROOT, { ...process.env, REDUCK_BUILD_DIR: path.join(folder, "dist"), REDUCK_BUILD_TYPES: types ? "1" : "0" });
  // `oclif manifest` writes the manifest where it runs, from the package.json and build there.
  await node([path.join(ROOT, "scripts", "manifest.mjs")], folder);
}

/** Removes builds nobody has used for a day, and halves of builds whose run died. */
function prune(keep: string): void {
  const now = Date.now();
  for (const name of readdirSync(BUILDS)) {
    const folder = path.join(BUILDS, name);
    if (folder === keep) continue;
    try {
      const stamp = existsSync(path.join(folder, COMPLETE)) ? path.join(folder, COMPLETE) : folder;
      if (now - statSync(stamp).mtimeMs > UNUSED_FOR_MS) rmSync(folder, { recursive: true, force: true });
    } catch {
      // Removed by another run meanwhile.
    }
  }
}

/**
 * Where the build of the sources as they are now goes (vitest.config.ts reads it before anything
 * runs: it also serves the package's own name, `reduck-client`, from there).
 *
 * @example
 * testBuildFolder(); // .../node_modules/.cache/reduck-test-build/3fa9c0d21b7e4a55
 */
export function testBuildFolder({ types = false } = {}): string {
  return path.join(BUILDS, `${sourceHash()}${types ? "-typed" : ""}`);
}

/** Makes `folder` (testBuildFolder's) a complete build, unless it is one already. */
export async function testBuild(folder: string): Promise<string> {
  if (!existsSync(path.join(folder, COMPLETE))) {
    const partial = `${folder}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    try {
      await build(partial);
      mkdirSync(path.join(partial, COMPLETE));
      // Another run may have finished the same build first: then its folder is kept, and this one goes.
      try {
        renameSync(partial, folder);
      } catch (err) {
        if (!existsSync(path.join(folder, COMPLETE))) throw err;
      }
    } finally {
      rmSync(partial, { recursive: true, force: true });
    }
  }
  const now = new Date();
  utimesSync(path.join(folder, COMPLETE), now, now);
  prune(folder);
  return folder;
}

export default async function setup(): Promise<void> {
  // Named by vitest.config.ts; test processes are started after this runs and inherit it.
  process.env.REDUCK_TEST_BUILD = await testBuild(process.env.REDUCK_TEST_BUILD || testBuildFolder());
}
