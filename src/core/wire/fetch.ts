/**
 * A fetch over the one exchange (exchange.ts, on node:http), for the requests that are not
 * catalogue calls or runs: the CLI's OAuth requests (given to oauth4webapi as its `customFetch`)
 * and `--out` downloads. They then take the same proxy, certificate authorities, redirect rule
 * and credential rule as the client, instead of Node's fetch, which knows neither HTTPS_PROXY nor
 * a `ca` option.
 *
 * Only what those callers use: a URL (string or URL object), `method`, `headers`, a body that is
 * a string, URLSearchParams or bytes, `signal`, and `redirect` (`follow`, `manual`, `error`). The
 * answer is a standard Response whose body streams from the socket.
 */
import { AttemptAborted, AttemptGuard } from "./abort.js";
import { AnswerTooLarge, declaredLength } from "./answer-limit.js";
import { exchange, type Exchanged, type Route } from "./exchange.js";
import type { Connections } from "./http.js";
import { leadsOn, RedirectRefused } from "./redirects.js";
import { NULL_BODY } from "./transport.js";

/** As fetch: more redirects than this is a failure. */
const MAX_REDIRECTS = 20;
/** The methods fetch writes in upper case whatever case they were given in (not PATCH). */
const NORMALISED_METHODS = new Set(["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"]);

export interface ConnectionFetchOptions {
  /**
   * The most of one answer's body that may arrive (bytes): past it, reading fails (a larger
   * Content-Length fails at once). Default: no limit, for downloads streamed to disk.
   */
  maxAnswerBytes?: number;
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
 * const fetch = connectionFetch(new Connections({ proxy: proxyFromEnv() }), { maxAnswerBytes: MAX_ANSWER_BYTES });
 * const response = await fetch("https://example.com/token", { method: "POST", body: form });
 */
export function connectionFetch(connections: Connections, { maxAnswerBytes = Infinity }: ConnectionFetchOptions = {}): typeof fetch {
  const route: Route = { connections };
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
    const mode = init.redirect ?? "follow";

    // The caller's signal ends the request and, later, its body, with the signal's own reason.
    const guard = new AttemptGuard(0);
    const onAbort = () => guard.abort({ kind: "failed", error: signal!.reason });
    signal?.addEventListener("abort", onAbort, { once: true });
    let answer: Exchanged;
    try {
      answer = await exchange(route, { method, url: new URL(input).href, headers, ...(body ? { body } : {}) }, guard, {
        redirects: mode === "follow" ? MAX_REDIRECTS : 0,
      });
      if (mode !== "manual" && leadsOn(answer.status, answer.headers.location, answer.url)) {
        answer.finish();
        const why = mode === "error" ? "and redirects were refused" : `after ${MAX_REDIRECTS} redirects`;
        throw new TypeError("fetch failed", { cause: new RedirectRefused(`${answer.url} redirected to ${answer.headers.location}, ${why}`, answer.status) });
      }
      const declared = declaredLength(answer.headers["content-length"]);
      const bodiless = NULL_BODY.has(answer.status) || method === "HEAD";
      if (!bodiless && declared !== undefined && declared > maxAnswerBytes) {
        answer.finish();
        throw new TypeError("fetch failed", { cause: new AnswerTooLarge(maxAnswerBytes, declared) });
      }
    } catch (err) {
      signal?.removeEventListener("abort", onAbort);
      throw asFetchError(err);
    }
    return toResponse(answer, method, maxAnswerBytes, () => signal?.removeEventListener("abort", onAbort));
  };
}

/** What the exchange threw, as fetch throws it. */
function asFetchError(err: unknown): unknown {
  // The caller's abort: its own reason, as fetch rejects with it.
  if (err instanceof AttemptAborted && err.cause.kind === "failed") return err.cause.error;
  // A TypeError without a cause is a request fetch would refuse to make (a header Node refuses,
  // a credential over plain http): so it stays.
  if (err instanceof TypeError) return err.cause !== undefined ? err : new TypeError(err.message);
  return new TypeError("fetch failed", { cause: err });
}

/** The body as bytes, and the Content-Type fetch gives it when the caller gave none. */
function bodyOf(body: RequestInit["body"], headers: Record<string, string>): Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") {
    headers["content-type"] ??= "text/plain;charset=UTF-8";
    return Buffer.from(body);
  }
  if (body instanceof URLSearchParams) {
    headers["content-type"] ??= "application/x-www-form-urlencoded;charset=UTF-8";
    return Buffer.from(body.toString());
  }
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError("connectionFetch sends a string, URLSearchParams or bytes as a body, not a stream, Blob or FormData");
}

/** The answer as a Response whose body streams (cut off past `limit`); `done` once it is over. */
function toResponse(answer: Exchanged, method: string, limit: number, done: () => void): Response {
  const empty = NULL_BODY.has(answer.status) || method === "HEAD";
  let body: ReadableStream<Uint8Array> | null = null;
  if (empty) {
    answer.finish();
    done();
  } else {
    body = answer.stream(done);
    if (Number.isFinite(limit)) body = body.pipeThrough(counted(limit));
  }
  let response: Response;
  try {
    response = new Response(body, { status: answer.status, statusText: answer.statusText, headers: answer.rawHeaders() });
  } catch (err) {
    // A status outside 200-599 or a reason phrase fetch would not accept either.
    void body?.cancel().catch(() => undefined);
    done();
    throw new TypeError("fetch failed", { cause: err });
  }
  Object.defineProperties(response, { url: { value: answer.url }, redirected: { value: answer.redirected } });
  return response;
}

/** Passes bytes on until more than `limit` have come, then fails the stream. */
function counted(limit: number): TransformStream<Uint8Array, Uint8Array> {
  let size = 0;
  return new TransformStream({
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size > limit) controller.error(new TypeError("fetch failed", { cause: new AnswerTooLarge(limit) }));
      else controller.enqueue(chunk);
    },
  });
}
