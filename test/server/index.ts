/**
 * `@reduck-client/sandbox`: the reference server's one public entry. The testing API
 * (`startSandbox`: in this process on a free port, with `runs()` and `next()`; `sandboxHandlers`
 * for MSW), a seeded store (`createStore`), MSW handlers over it (`createHandlers`), the loopback
 * HTTP adapter (`startHttpServer`), and the sandbox as a process of its own
 * (`startSandboxProcess`, what `npm run sandbox` runs). Code outside this folder (the root's tests, `examples/`, `bench/`,
 * `scripts/`) imports the sandbox from here only, by its package name; vitest files may also take
 * its setup file (`@reduck-client/sandbox/test-setup`) and in-process harness (`.../testing`),
 * subpaths of their own because they register vitest hooks. test/layering/imports.test.ts checks it.
 *
 * @example
 * ```ts
 * import { setupServer } from "msw/node";
 * import { createHandlers, createStore } from "@reduck-client/sandbox";
 *
 * const store = createStore({ browser: "simulated" });
 * setupServer(...createHandlers(store)).listen();
 * ```
 */
export { createStore, ReferenceStore, isFinished, PLACEHOLDER_CONTENT, DEFAULT_RUN_TIMEOUT_MS } from "./store/store.js";
export type {
  AddRunInput,
  AddScriptInput,
  AddVersionInput,
  DemoCredentials,
  RecordRunInput,
  StoreOptions,
} from "./store/store.js";
export { SEED_IDS } from "./store/seed.js";
export { createHandlers, ANONYMOUS_OPERATIONS } from "./api/handlers.js";
export { startHttpServer } from "./server/http.js";
export type { HttpServerOptions, RunningHttpServer } from "./server/http.js";
export { authenticate, NOT_AUTHENTICATED, trustAuthorizationServer, withChallenge } from "./api/auth.js";
export type { Caller } from "./api/auth.js";
export { ApiError } from "./api/errors.js";
export { validateResponse, validateRequestPart } from "./contract/openapi.js";
export { API_AUDIENCE, MCP_AUDIENCE, ALL_SCOPES } from "./store/records.js";
export type { FileDescriptor, ReceivedFile } from "./store/records.js";
export { answerRun, runHandler, MANAGED_BROWSER } from "./api/run/handler.js";
export { DEFAULT_WAIT_SECONDS } from "./api/run/handler.js";
export type { RunBatch, RunEnvelope } from "./api/run/batches.js";
export type { ErrorType } from "./api/run/failures.js";
export type { LoggedRequest } from "./store/store.js";
export { REQUEST_LOG_PATH } from "./api/request-log.js";
export { SANDBOX_HANDLE, SANDBOX_HOST } from "./store/sandbox-scripts.js";
export { startSandboxProcess, spawnSandbox, freePort, TSX_NODE_ARGS, SANDBOX_ENTRY } from "./server/sandbox-process.js";
export { startSandbox, sandboxHandlers, receivedRuns, nextRuns } from "./testing/start-sandbox.js";
export type { StartSandboxOptions, RunningSandbox, ReceivedRun, RunShape } from "./testing/start-sandbox.js";
export { seedUserScripts, ScriptsFolderError } from "./store/user-scripts.js";
export { parseSandboxArgs } from "./server/sandbox-options.js";
export type { SandboxOptions } from "./server/sandbox-options.js";
export { loadCatalogue } from "./store/catalogue.js";
export type { CatalogueEntry } from "./store/catalogue.js";
export { directRoutesOf, withDirectRoute } from "./api/direct-routes.js";
export type { DirectRoute } from "./api/direct-routes.js";
export { readMultipartBody } from "./api/run/body.js";
export type { ReceivedPart } from "./api/run/body.js";
export { readNamedFile } from "./api/run/files.js";
export { keepScreenshots } from "./runtime/screenshots.js";
export { sharedBrowserHost } from "./runtime/browser/index.js";
export { invoicePdf } from "./runtime/browser/web/atlassian.js";
export { scratchFolder } from "./store/scratch.js";
export { EARLY_ACCESS_WORDS, APPS_FEATURE, DEFAULT_UPLOAD_EXPIRY_SECONDS, MAX_RELEASE_FILES, MAX_RELEASE_FILE_BYTES } from "./store/apps.js";
export { NO_EARLY_ACCESS } from "./api/handlers/app-access.js";
export { UPLOAD_PATH, RELEASE_FILES_PATH, APP_PATH } from "./api/handlers/app-uploads.js";
export { treeRssBytes } from "./runtime/browser/processes.js";
export { MiB, peakTreeRss, startAttackedSandbox } from "./testing/sandbox-under-attack.js";
export type { AttackedSandbox } from "./testing/sandbox-under-attack.js";
