// The reference server's public surface for tests: a seeded store, msw handlers over it, and the
// loopback HTTP adapter.
export { createStore, ReferenceStore, isFinished, PLACEHOLDER_CONTENT, DEFAULT_RUN_TIMEOUT_MS } from "./store.js";
export type {
  AddRunInput,
  AddScriptInput,
  AddVersionInput,
  DemoCredentials,
  RecordRunInput,
  StoreOptions,
} from "./store.js";
export { SEED_IDS } from "./seed.js";
export { createHandlers, ANONYMOUS_OPERATIONS } from "./handlers.js";
export { startHttpServer } from "./http.js";
export type { HttpServerOptions, RunningHttpServer } from "./http.js";
export { authenticate, NOT_AUTHENTICATED, trustAuthorizationServer, withChallenge } from "./auth.js";
export type { Caller } from "./auth.js";
export { ApiError } from "./errors.js";
export { validateResponse, validateRequestPart } from "./openapi.js";
export { API_AUDIENCE, MCP_AUDIENCE, ALL_SCOPES } from "./records.js";
export type { FileDescriptor, ReceivedFile } from "./records.js";
export { answerRun, runHandler, MANAGED_BROWSER } from "./run/handler.js";
export { DEFAULT_WAIT_SECONDS } from "./run/handler.js";
export type { RunBatch, RunEnvelope } from "./run/batches.js";
export type { ErrorType } from "./run/failures.js";
export type { LoggedRequest } from "./store.js";
export { REQUEST_LOG_PATH } from "./request-log.js";
export { SANDBOX_HANDLE, SANDBOX_HOST } from "./sandbox-scripts.js";
