/** Spawns the built CLI (bin/run.js) as a user would, and collects what it printed. */
import { spawn } from "node:child_process";
import path from "node:path";

/**
 * The package as the tests run it: a complete build of the sources as they are now, laid out as
 * the installed package is (package.json, bin/run.js, dist/, oclif.manifest.json), made before
 * the first test file by test/support/test-build.ts and never changed while tests run. Not the
 * repository's dist/, which `npm run build` rewrites at any time. Tests reach the build through
 * these names only.
 */
export const BUILD_ROOT = testBuildRoot();
/** The CLI's entry in the test build: `node BIN ...args` is `reduck ...args`. */
export const BIN = path.join(BUILD_ROOT, "bin", "run.js");

function testBuildRoot(): string {
  const root = process.env.REDUCK_TEST_BUILD;
  if (!root)
    throw new Error("REDUCK_TEST_BUILD is not set: run the tests with vitest.config.ts, whose globalSetup (test/support/test-build.ts) builds the CLI");
  return root;
}

/**
 * What every process a test spawns gets from the test's own environment, and nothing else from the
 * developer's shell: PATH, the run's temporary folder (TMPDIR, set by test/support/temporary-folders.ts
 * so a folder left behind is found), and where the CLI keeps its V8 code cache (REDUCK_CACHE_DIR, a
 * folder of the run's own; without one, the cache is off): a test never writes into the real home.
 *
 * @example
 * spawn(process.execPath, [BIN, "whoami"], { env: { ...baseEnv(), NO_COLOR: "1", REDUCK_API_KEY: key } });
 */
export function baseEnv(): Record<string, string> {
  const { PATH = "", TMPDIR, REDUCK_CACHE_DIR } = process.env;
  return { PATH, ...(TMPDIR ? { TMPDIR } : {}), ...(REDUCK_CACHE_DIR ? { REDUCK_CACHE_DIR } : { NODE_DISABLE_COMPILE_CACHE: "1" }) };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  {
    env = {},
    input,
    onStart,
    cwd,
    node = process.execPath,
  }: {
    env?: Record<string, string>;
    input?: string;
    onStart?: (child: ReturnType<typeof spawn>) => void;
    cwd?: string;
    /** The node binary to run the CLI on (default: the one running the tests). */
    node?: string;
  } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [BIN, ...args], {
      // A clean environment: nothing from the developer's own shell leaks in.
      env: { ...baseEnv(), NO_COLOR: "1", ...env },
      stdio: ["pipe", "pipe", "pipe"],
      cwd,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
    onStart?.(child);
  });
}
