/// <reference types="node" preserve="true" />
/**
 * `@reduck-client/sandbox/internal`: what this repository's own tests and benchmarks take from the
 * sandbox beyond its public entry (index.ts): the attack harness and memory probes, the helpers
 * of the OAuth and request-handling tests, fixtures of the simulated web. Not part of the
 * product: names here may change or go without notice.
 */
export { freePort } from "./process/sandbox-process.js";
export { directRoutesOf, withDirectRoute } from "./api/direct-routes.js";
export { trustAuthorizationServer } from "./api/auth.js";
export { ALL_SCOPES } from "./store/records.js";
export { EARLY_ACCESS_WORDS } from "./store/apps.js";
export { readMultipartBody } from "./api/run/body.js";
export type { ReceivedPart } from "./api/run/body.js";
export { readNamedFile } from "./api/run/files.js";
export { keepScreenshots } from "./runtime/screenshots.js";
export { invoicePdf } from "./runtime/browser/web/atlassian.js";
export { scratchFolder } from "./store/scratch.js";
export { treeRssBytes } from "./runtime/browser/processes.js";
export { MiB, peakTreeRss, startAttackedSandbox } from "./testing/sandbox-under-attack.js";
export type { AttackedSandbox } from "./testing/sandbox-under-attack.js";
// A plain Chromium for the root tests that open pages from disk (run and batch reports).
export { chromiumExecutable, chromiumSandboxWanted, loadPlaywright } from "./runtime/browser/chromium.js";
