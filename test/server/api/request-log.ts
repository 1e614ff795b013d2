// The sandbox's request log: every API request it answers, by method and path, so a test can prove
// that POST /run went out once while the client polled (GET /batches/…, GET /api/runs/…). Read it
// in-process as `store.requestLog`, or over HTTP at GET /__sandbox/requests (no credential, no
// headers or bodies recorded: nothing secret is in it).
import { http, HttpResponse, type RequestHandler } from "msw";
import type { SandboxStore } from "../store/store.js";

/** Requests kept in the log. */
export const MAX_LOGGED = 10_000;

/** Where the log is read over HTTP. Not an API path: the service has nothing like it. */
export const REQUEST_LOG_PATH = "/__sandbox/requests";

/**
 * Appends one request to the store's log.
 *
 * @example
 * logRequest(store, request); // store.requestLog.at(-1) -> { method: "POST", path: "/run", at: "…" }
 */
export function logRequest(store: SandboxStore, request: Request): void {
  const url = new URL(request.url);
  store.requestLog.push({ method: request.method, path: url.pathname + url.search, at: new Date().toISOString() });
  // Bounded: a sandbox left running (a benchmark's thousands of calls) keeps only the latest.
  if (store.requestLog.length > MAX_LOGGED) store.requestLog.splice(0, store.requestLog.length - MAX_LOGGED);
}

/**
 * GET /__sandbox/requests: the log so far, `{ requests: [{ method, path, at }] }`. (Requests are
 * logged where they are answered: every API operation in routing.ts, POST /run in its handler,
 * which both doors reach. A catch-all msw handler would make msw pass unknown requests through
 * to the network instead of reporting them.)
 *
 * @example
 * const handlers = [requestLogHandler(store), ...others];
 */
export function requestLogHandler(store: SandboxStore): RequestHandler {
  return http.get(`*${REQUEST_LOG_PATH}`, () => HttpResponse.json({ requests: store.requestLog }));
}
