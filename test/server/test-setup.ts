// Every test file ends by closing the sandbox browser its stores shared, if one was started, and by
// removing its stores' temporary folders, so no Chromium and no file outlives the test file (a setup
// file of vitest.config.ts; a test process may be ended without running its exit handlers).
import { afterAll } from "vitest";
import { closeSharedBrowserHost } from "./browser/shared.js";
import { removeScratchFolders } from "./scratch.js";

afterAll(async () => {
  await closeSharedBrowserHost();
  removeScratchFolders();
});
