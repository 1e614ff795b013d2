import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // jsdom corrupts File inside FormData; the library targets Node.
    environment: "node",
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/support/sandbox-cleanup.ts"],
    // A temporary folder of the run's own, checked for leftover `reduck-*` folders at the end.
    globalSetup: ["test/support/temporary-folders.ts"],
    testTimeout: 20_000,
  },
});
