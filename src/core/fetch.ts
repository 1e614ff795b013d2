/**
 * A fetch over our Connections, for the requests that are not catalogue calls or runs: the CLI's
 * OAuth requests (given to oauth4webapi as its `customFetch`) and `--out` downloads. They then
 * take the same proxy and certificate authorities as the client, instead of Node's fetch, which
 * knows neither HTTPS_PROXY nor a `ca` option.
 *
 * Only what those callers use: a URL (string or URL object), `method`, `headers`, a body that is
 * a string, URLSearchParams or bytes, `signal`, and `redirect` (`follow`, `manual`, `error`). The
 * answer is a standard Response whose body streams from the socket.
 */
import type http from "node:http";
import { Readable } from "node:stream";
import type { Connections } from "./http.js";
import { responseOf } from "./http.js";
import { NULL_BODY, redirected } from "./transport.js";

/** As fetch: more redirects than this is a failure. */
const MAX_REDIRECTS = 20;
/** The methods fetch writes in upper case whatever case they were given in (not PATCH). */
const NORMALISED_METHODS = new Set(["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"]);

interface Outgoing {
  method: string;
  url: string;
  /** Names in lower case. */
  headers: Record<string, string>;
  body?: Buffer;
}

/**
 * A fetch whose requests go through `connections`. Each request has a connection of its own (no
 * keep-alive): these requests are few, and a fresh connection is never one the server is just
 * closing, which matters since nothing here retries.
 *
 * Fails as fetch does: with the signal's reason when it aborts, else a `TypeError("fetch failed")`
 * whose `cause` is the system error, marked with the proxy it went through (see describeFailure).
 *
 * @example
 * const fetch = connectionFetch(new Connections({ proxy: proxyFromEnv() }));
 * const response = await fetch("https://example.com/report.pdf");
 */
export function connectionFetch(connections: Connections): typeof fetch {
  return async function fetchOverConnections(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
    if (typeof input !== "string" && !(input instanceof URL)) throw new TypeError("connectionFetch takes a URL (a string or a URL object), not a Request");
    const signal = init.signal ?? undefined;
    signal?.throwIfAborted();
    const upper = (init.method ?? "GET").toUpperCase();
    const method = NORMALISED_METHODS.has(upper) ? upper : (init.method ?? "GET");
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    headers.accept ??= "*/*";
    const body = bodyOf(init.body, headers);
    if (body && (method === "GET" || method === "HEAD")) throw new TypeError(`a ${method} request cannot have a body`);
    let request: Outgoing = { method, url: new URL(input).href, headers, ...(body ? { body } : {}) };

    for (let redirects = 0; ; redirects++) {
      const response = await exchange(connections, request, signal);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      const next = location && init.redirect !== "manual" ? redirected(request, status, location) : undefined;
      if (!next) return toResponse(response, request, redirects > 0);
      response.resume(); // not wanted: drained so the connection closes cleanly
      if (init.redirect === "error")
        throw new TypeError("fetch failed", { cause: new Error(`${request.url} redirected to ${next.url}, and redirects were refused`) });
      if (redirects >= MAX_REDIRECTS)
        throw new TypeError("fetch failed", { cause: new Error(`more than ${MAX_REDIRECTS} redirects, the last to ${next.url}`) });
      request = next;
    }
  };
}

/** The body as bytes, and the Content-Type fetch gives it when the caller gave none. */
function bodyOf(body: RequestInit["body"], headers: Record<string, string>): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") {
    headers["content-type"] ??= "text/plain;charset=UTF-8";
    return Buffer.from(body);
  }
  if (body instanceof URLSearchParams) {
    headers["content-type"] ??= "application/x-www-form-urlencoded;charset=UTF-8";
    return Buffer.from(body.toString());
  }
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError("connectionFetch sends a string, URLSearchParams or bytes as a body, not a stream, Blob or FormData");
}

/** Sends one request and waits for its response headers; the signal stays on it until the body is read. */
async function exchange(connections: Connections, request: Outgoing, signal: AbortSignal | undefined): Promise<http.IncomingMessage> {
  const headers = request.body ? { ...request.headers, "content-length": String(request.body.byteLength) } : request.headers;
  let outgoing: http.ClientRequest;
  try {
    ({ request: outgoing } = connections.open(request.url, request.method, headers, false));
  } catch (err) {
    // A header value Node refuses: a request fetch would refuse to make, so a TypeError without a cause.
    throw new TypeError((err as Error).message);
  }
  let response: http.IncomingMessage | undefined;
  const abort = () => {
    outgoing.destroy(signal!.reason);
    response?.destroy(signal!.reason);
  };
  signal?.addEventListener("abort", abort, { once: true });
  const answered = responseOf(outgoing);
  outgoing.end(request.body);
  try {
    response = await answered;
  } catch (err) {
    signal?.removeEventListener("abort", abort);
    if (signal?.aborted) throw signal.reason;
    throw new TypeError("fetch failed", { cause: err });
  }
  const answer = response;
  answer.once("close", () => signal?.removeEventListener("abort", abort));
  // A connection cut mid-answer, said as readBody says it (describeFailure has words for it).
  answer.once("aborted", () => answer.destroy(Object.assign(new Error("aborted"), { code: "ECONNRESET" })));
  // Kept after the answer: an error on the request then (a reset) reaches the body instead of crashing.
  outgoing.on("error", (err) => answer.destroy(err));
  return answer;
}

function toResponse(answer: http.IncomingMessage, request: Outgoing, redirected: boolean): Response {
  const headers = new Headers();
  const raw = answer.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const status = answer.statusCode ?? 0;
  const empty = NULL_BODY.has(status) || request.method === "HEAD";
  if (empty) answer.resume();
  let response: Response;
  try {
    response = new Response(empty ? null : (Readable.toWeb(answer) as ReadableStream<Uint8Array>), { status, statusText: answer.statusMessage ?? "", headers });
  } catch (err) {
    // A status outside 200-599 or a reason phrase fetch would not accept either.
    answer.destroy();
    throw new TypeError("fetch failed", { cause: err });
  }
  Object.defineProperties(response, { url: { value: request.url }, redirected: { value: redirected } });
  return response;
}
