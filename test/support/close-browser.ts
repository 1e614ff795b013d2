// Every test file ends by closing the sandbox browser its stores shared, if one was started, so no
// Chromium outlives the file that used it (a setup file of vitest.config.ts).
import { afterAll } from "vitest";
import { closeSharedBrowserHost } from "../server/browser/shared.js";

afterAll(closeSharedBrowserHost);
