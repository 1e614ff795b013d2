// Every test file ends by closing the sandbox browser its stores shared, if one was started, and by
// removing its stores' temporary folders and those of test/support/files.ts, so no Chromium and no file outlives the test file (a setup
// file of vitest.config.ts; a test process may be ended without running its exit handlers).
import { afterAll } from "vitest";
import { closeSharedBrowserHost } from "../server/browser/shared.js";
import { removeScratchFolders } from "../server/scratch.js";
import { removeTemporaryFolders } from "./files.js";

afterAll(async () => {
  await closeSharedBrowserHost();
  removeScratchFolders();
  removeTemporaryFolders();
});
