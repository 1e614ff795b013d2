import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // jsdom corrupts File inside FormData; the library targets Node.
    environment: "node",
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/support/sandbox-cleanup.ts"],
    testTimeout: 20_000,
  },
});
