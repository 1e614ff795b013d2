// The sandbox's real browser: a warm headless Chromium, a simulated web that never leaves
// the machine, and the builtins acting on a real Playwright page. See host.ts to start.
export { BrowserHost, isLoopback, sharedBrowserHost, type BrowserHostOptions, type Traffic } from "./host.js";
export { BrowserRun, type RunEnd, type RunOptions, type Screenshot } from "./run.js";
export type { Builtins, ChainStep, Delivery, DownloadOptions, DownloadResult } from "./builtins.js";
export type { FileContent, RunFile } from "./files.js";
export { answerWeb, SIMULATED_HOSTS } from "./web/index.js";
export { realPageHost, SURFACE } from "./bridge.js";
export { realSession } from "./session.js";
