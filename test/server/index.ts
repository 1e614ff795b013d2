/// <reference types="node" preserve="true" />
/**
 * `@reduck-client/sandbox`: the sandbox's one public entry. The testing API
 * (`startSandbox`: in this process on a free port, with `runs()` and `next()`; `sandboxHandlers`
 * for MSW), a seeded store (`createStore`), MSW handlers over it (`createHandlers`), the loopback
 * HTTP adapter (`startHttpServer`), and the sandbox as a process of its own
 * (`startSandboxProcess`, what `npm run sandbox` runs). Code outside this folder (the root's tests, `examples/`, `bench/`,
 * `scripts/`) imports the sandbox from here only, by its package name; vitest files may also take
 * its setup file (`@reduck-client/sandbox/test-setup`) and in-process harness (`.../testing`),
 * subpaths of their own because they register vitest hooks. test/layering/imports.test.ts checks it.
 * What this repository's own tests and benchmarks need beyond it (the attack harness, pieces of the
 * request handling) is in `internal.ts` (`@reduck-client/sandbox/internal`), which promises nothing.
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
import { sharedBrowserHost as sharedBrowser } from "./runtime/browser/host.js";
import type { SandboxBrowser } from "./runtime/browser/shared.js";

export { createStore, SandboxStore, isFinished, DEFAULT_RUN_TIMEOUT_MS } from "./store/store.js";
import { SandboxStore } from "./store/store.js";
/** @deprecated The sandbox's store is `SandboxStore`; this older name stays for code written before it. */
export const ReferenceStore = SandboxStore;
/** @deprecated The sandbox's store is `SandboxStore`; this older name stays for code written before it. */
export type ReferenceStore = SandboxStore;
export type { AddRunInput, AddScriptInput, AddVersionInput, DemoCredentials, RecordRunInput, StoreOptions } from "./store/store.js";
export { SEED_IDS } from "./store/seed.js";
export { createHandlers } from "./api/routing.js";
export { startHttpServer } from "./http/http.js";
export type { HttpServerOptions, RunningHttpServer } from "./http/http.js";
export type { FileDescriptor, ReceivedFile } from "./store/records.js";
export { DEFAULT_WAIT_SECONDS } from "./api/run/handler.js";
export type { RunBatch, RunEnvelope } from "./api/run/batches.js";
export type { ErrorType } from "./api/run/failures.js";
export type { LoggedRequest } from "./store/store.js";
export { REQUEST_LOG_PATH } from "./api/request-log.js";
export { SANDBOX_HANDLE, SANDBOX_HOST } from "./store/sandbox-scripts.js";
export { startSandboxProcess, spawnSandbox } from "./process/sandbox-process.js";
export { startSandbox, sandboxHandlers, receivedRuns, nextRuns } from "./testing/start-sandbox.js";
export type { StartSandboxOptions, RunningSandbox, ReceivedRun, RunShape } from "./testing/start-sandbox.js";
export { seedUserScripts, ScriptsFolderError } from "./store/user-scripts.js";
export { SiteError } from "./runtime/browser/web/sites.js";
export { parseSandboxArgs } from "./process/sandbox-options.js";
export type { SandboxOptions } from "./process/sandbox-options.js";
export { loadCatalogue } from "./store/catalogue.js";
export type { CatalogueEntry } from "./store/catalogue.js";
export type { SandboxBrowser, Traffic } from "./runtime/browser/shared.js";

/**
 * The real browser every store of this process shares: one warm Chromium, launched at the first
 * run that touches a page. Typed by what a test may do with it, so that these declarations name
 * no type of the optional playwright-core.
 *
 * @example
 * ```ts
 * sharedBrowserHost().allowLoopbackPort(myServerPort);
 * ```
 */
export const sharedBrowserHost: () => SandboxBrowser = sharedBrowser;
