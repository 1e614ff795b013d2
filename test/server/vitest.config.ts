// The sandbox's own tests, run from this folder (`npx vitest run`, `npm test` here): the
// repository's suite settings (../../vitest.config.ts) over this folder's test files only. Its
// first global setup builds reduck-client from the repository's sources into a folder of its own
// (never dist/, which a fresh clone does not have), and `reduck-client`, which client-checks/
// imports, resolves to that build, as it does for the root's `npm test`.
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import { suite } from "../../vitest.config.js";

const settings = suite("fast");

export default defineConfig({
  ...settings,
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    ...settings.test,
    // Both kinds: `npm test` here leaves out the slow ones (--exclude), `npm run test:slow` takes only them.
    include: ["test/server/**/*.test.ts"],
    exclude: [...configDefaults.exclude],
  },
});
