// Every test file ends as the sandbox's own tests do (its shared browser closed, its scratch folders
// removed: test/server/test-setup.ts), and also removes the folders of test/support/files.ts, so no
// Chromium and no file outlives the test file (a setup file of vitest.config.ts; a test process may
// be ended without running its exit handlers).
import { afterAll } from "vitest";
import "@reduck-client/sandbox/test-setup";
import { removeTemporaryFolders } from "./files.js";

afterAll(() => {
  removeTemporaryFolders();
});
