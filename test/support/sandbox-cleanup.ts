// Every test file ends as the sandbox's own tests do (its shared browser closed, its scratch folders
// removed: the sandbox's endOfTestFile), and also removes the folders of test/support/files.ts, so
// no Chromium and no file outlives the test file (a setup file of vitest.config.ts, which vitest
// runs anew for every test file; a test process may be ended without running its exit handlers).
// The cleaning is called from here rather than registered by an imported module: test files share
// their process's modules, so an imported module's hook would serve the first file only.
import { afterAll } from "vitest";
import { endOfTestFile } from "@reduck-client/sandbox/testing";
import { removeTemporaryFolders } from "./files.js";

afterAll(async () => {
  await endOfTestFile();
  removeTemporaryFolders();
});
