// The sandbox's request log: every request it receives, by method and path, so a test can prove
// that POST /run went out once while the client polled (GET /batches/…, GET /api/runs/…). Read it
// in-process as `store.requestLog`, or over HTTP at GET /__sandbox/requests (no credential, no
// headers or bodies recorded: nothing secret is in it).
import { http, HttpResponse, type RequestHandler } from "msw";
import type { ReferenceStore } from "./store.js";

/** Where the log is read over HTTP. Not an API path: the service has nothing like it. */
export const REQUEST_LOG_PATH = "/__sandbox/requests";

/**
 * Appends one request to the store's log.
 *
 * @example
 * logRequest(store, request); // store.requestLog.at(-1) -> { method: "POST", path: "/run", at: "…" }
 */
export function logRequest(store: ReferenceStore, request: Request): void {
  const url = new URL(request.url);
  store.requestLog.push({ method: request.method, path: url.pathname + url.search, at: new Date().toISOString() });
}

/**
 * Two handlers: the first logs every request and lets it through (POST /run is logged by its own
 * handler, which both doors reach); the second answers GET /__sandbox/requests with the log.
 *
 * @example
 * const handlers = [...requestLogHandlers(store, isRunPath), ...others];
 */
export function requestLogHandlers(store: ReferenceStore, isRunPath: (pathname: string) => boolean): RequestHandler[] {
  return [
    http.all("*", ({ request }) => {
      const { pathname } = new URL(request.url);
      if (pathname === REQUEST_LOG_PATH || (request.method === "POST" && isRunPath(pathname))) return undefined;
      logRequest(store, request);
      return undefined;
    }),
    http.get(`*${REQUEST_LOG_PATH}`, () => HttpResponse.json({ requests: store.requestLog })),
  ];
}
