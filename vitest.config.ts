import path from "node:path";
import { configDefaults, defineConfig, type ViteUserConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { testBuildFolder } from "./test/support/test-build.js";
import { WAITING_EARLY } from "./test/support/waiting-files.js";

/** Test files that must be slow (real npm installs, many child runs, seconds of real time): `npm run test:slow`. */
export const SLOW_TESTS = "test/**/*.slow.test.ts";

/**
 * Starts the files that mostly wait (test/support/waiting-files.ts) early, one about every tenth
 * place. Without a record of earlier runs (a fresh clone, as in CI) vitest starts the largest
 * files first, and these small ones came last, waiting alone at the end of the run while the cores
 * had nothing else to do. A tenth place apart, because the three test processes get through ten
 * files in 15-20 s, about as long as each of these waits: one waits while two keep both cores busy.
 */
class WaitingEarly extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const waits = (spec: TestSpecification) => WAITING_EARLY.includes(path.relative(spec.project.config.root, spec.moduleId).split(path.sep).join("/"));
    const rest = sorted.filter((spec) => !waits(spec));
    sorted.filter(waits).forEach((spec, i) => rest.splice(i * 10, 0, spec));
    return rest;
  }
}

/**
 * The suite's settings: `npm test` runs every test file but the slow ones (this file's config);
 * `npm run test:slow` runs those (vitest.slow.config.ts).
 */
export function suite(which: "fast" | "slow"): ViteUserConfig {
  // The build the tests run: the sources as they are now, built by the first globalSetup below into
  // a folder of its own (test/support/test-build.ts; test/support/cli.ts's BUILD_ROOT), never
  // dist/. The slow suite's has the type declarations too (the typed-snippet tests read them).
  const build = testBuildFolder({ types: which === "slow" });
  process.env.REDUCK_TEST_BUILD = build;
  return {
    resolve: {
      // The package's own name (the sandbox's import of the client, as a user's program has it) is
      // that build's library, not dist/.
      alias: [{ find: /^reduck-client$/, replacement: path.join(build, "dist", "index.js") }],
    },
    // The sandbox package's TypeScript entry (its exports' "module" condition), as on main before.
    ssr: { resolve: { conditions: ["module", "node", "development"] } },
    test: {
      // jsdom corrupts File inside FormData; the library targets Node.
      environment: "node",
      include: which === "fast" ? ["test/**/*.test.ts"] : [SLOW_TESTS],
      exclude: which === "fast" ? [...configDefaults.exclude, SLOW_TESTS] : configDefaults.exclude,
      setupFiles: ["test/support/sandbox-cleanup.ts"],
      // The build above; then a temporary folder of the run's own, checked for leftover `reduck-*`
      // folders at the end.
      globalSetup: ["test/support/test-build.ts", "test/support/temporary-folders.ts"],
      // Three test processes on any machine (vitest's default is one fewer than the cores: one, on
      // a 2-core machine): some tests mostly wait (on a child process, a sandbox's poll interval,
      // a backoff), and a third process fills those waits. On 2 cores the suite is otherwise bound
      // by CPU: three took 397 s where two took 410-428 s. The slow files run one at a time: they
      // measure memory and time, or load the machine on their own.
      maxWorkers: which === "fast" ? 3 : 1,
      sequence: { sequencer: WaitingEarly },
      // A test process runs its files one after another with the modules they import loaded once
      // (importing the sandbox and the client anew for each file was a fifth of the suite's
      // time). So no helper module registers hooks when imported (test/support/shared-modules.test.ts).
      isolate: false,
      // A guard against a test that hangs, not a measure of speed: long enough for a loaded machine
      // (another suite beside this one) to start a sandbox process or a browser several times.
      testTimeout: 60_000,
      hookTimeout: 60_000,
    },
  };
}

export default defineConfig(suite("fast"));
