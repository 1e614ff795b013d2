// The sandbox's own tests, run from this folder (`npx vitest run`). The root's `npm test` runs
// these files too, under the root's config, which has the same setup.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // jsdom corrupts File inside FormData; the sandbox and its client run on Node.
    environment: "node",
    include: ["**/*.test.ts"],
    exclude: ["**/node_modules/**"],
    setupFiles: ["./testing/test-setup.ts"],
    testTimeout: 20_000,
  },
});
