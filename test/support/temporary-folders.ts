// The suite's check that it cleans up after itself (a `globalSetup` of vitest.config.ts).
//
// Before any test file starts, the run gets a temporary folder of its own and every test process,
// sandbox and CLI it spawns finds it as TMPDIR (os.tmpdir() reads TMPDIR at each call); the CLI's
// V8 code cache goes to a folder beside it (REDUCK_CACHE_DIR), never into the user's home. After the
// last file, any `reduck-*` folder still in there fails the run with its name. A folder of the run's
// own (rather than a before-and-after listing of the shared /tmp) keeps the check true when other
// runs, of this suite or anything else, use the same machine at the same time.
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** How the tests' temporary folders are named (`temporaryFolder("reduck-...")` of test/support/files.ts). */
export const TEST_FOLDER_PREFIX = "reduck-";

/** The `reduck-*` entries of `folder` (none when it is gone). */
export function leftovers(folder: string): string[] {
  try {
    return readdirSync(folder)
      .filter((name) => name.startsWith(TEST_FOLDER_PREFIX))
      .sort();
  } catch {
    return [];
  }
}

export default function setup(): () => void {
  const run = realpathSync(mkdtempSync(path.join(os.tmpdir(), "reduck-test-run-")));
  const tmp = path.join(run, "tmp");
  const cache = path.join(run, "cache");
  mkdirSync(tmp);
  const previous = { TMPDIR: process.env.TMPDIR, REDUCK_CACHE_DIR: process.env.REDUCK_CACHE_DIR };
  // Test processes are forked after this runs and inherit these.
  process.env.TMPDIR = tmp;
  process.env.REDUCK_CACHE_DIR = cache;

  return () => {
    const left = leftovers(tmp);
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(run, { recursive: true, force: true });
    if (left.length > 0) {
      // Said on stderr as well as thrown: vitest reports a teardown error but may still exit 0.
      const message = `the tests left ${left.length} temporary folder(s) behind (removed now; find the test that made each and remove it there):\n${left.map((name) => `  ${name}`).join("\n")}`;
      process.stderr.write(`\nTEMPORARY FOLDERS LEFT: ${message}\n`);
      process.exitCode = 1;
      throw new Error(message);
    }
  };
}
