import path from "node:path";
import { defineConfig } from "vitest/config";
import { testBuildFolder } from "./test/support/test-build.js";

// The build the tests run: the sources as they are now, built by the first globalSetup below into a
// folder of its own (test/support/test-build.ts; test/support/cli.ts's BUILD_ROOT), never dist/.
const build = testBuildFolder();
process.env.REDUCK_TEST_BUILD = build;

export default defineConfig({
  resolve: {
    // The package's own name (the sandbox's import of the client, as a user's program has it) is
    // that build's library, not dist/.
    alias: [{ find: /^reduck-client$/, replacement: path.join(build, "dist", "index.js") }],
  },
  test: {
    // jsdom corrupts File inside FormData; the library targets Node.
    environment: "node",
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/support/sandbox-cleanup.ts"],
    // The build above; then a temporary folder of the run's own, checked for leftover `reduck-*`
    // folders at the end.
    globalSetup: ["test/support/test-build.ts", "test/support/temporary-folders.ts"],
    testTimeout: 20_000,
  },
});
