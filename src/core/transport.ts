/**
 * The `fetch` beneath every catalogue call: a per-attempt timeout that covers the whole answer,
 * the caller's abort, and retries of what a retry can help. openapi-fetch hands it a finished
 * `Request` (auth and the user agent already on it); failures leave it as `TransportFailure`s
 * carrying their error value.
 */
import { AttemptGuard, sleep } from "./abort.js";
import { describeFailure, type Failure, type ReduckError } from "./errors.js";

/** What openapi-fetch calls; the caller's signal comes separately so it never rides on a Request. */
export type Transport = (request: Request, signal?: AbortSignal) => Promise<Response>;

export interface RetryInfo {
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  /** "HTTP 429", "ECONNREFUSED", "timeout"... */
  reason: string;
  method: string;
  url: string;
}

export interface TransportOptions {
  /** A user-supplied fetch; otherwise `globalThis.fetch`, looked up on every call. */
  fetch?: typeof fetch;
  maxRetries: number;
  /** Per attempt, from sending to the last byte of the answer; 0 disables the timeout. */
  timeoutMs: number;
  onRetry?: (info: RetryInfo) => void;
}

/** A request that failed without an answer; `detail` is the error value to return. */
export class TransportFailure extends Error {
  override name = "TransportFailure";
  readonly detail: ReduckError;
  constructor(readonly failure: Failure) {
    super(failure.error.error);
    this.detail = failure.error;
  }
}

const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);
const MAX_RETRY_AFTER_MS = 60_000;
/** Statuses with no body, which `new Response(body)` refuses one for. */
const NULL_BODY = new Set([101, 204, 205, 304]);

/** Late-bound so MSW (which patches globalThis.fetch after import) and user fetches both work. */
export function resolveFetch(custom?: typeof fetch): typeof fetch {
  return custom ?? ((input, init) => globalThis.fetch(input, init));
}

export function createTransport(options: TransportOptions): Transport {
  const doFetch = resolveFetch(options.fetch);

  return async function transport(request: Request, callerSignal: AbortSignal | undefined = request.signal): Promise<Response> {
    const safe = IDEMPOTENT.has(request.method);
    // Catalogue bodies are small JSON: read once, sent as-is by every attempt. (No
    // Request.clone(): it buffers too, and its signal is lost after a GC.)
    const body = request.body ? await request.arrayBuffer() : undefined;
    const init: RequestInit = { method: request.method, headers: request.headers, body, redirect: request.redirect };
    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < options.maxRetries;
      let response: Response;
      try {
        response = await sendOnce(doFetch, request.url, init, options.timeoutMs, callerSignal);
      } catch (err) {
        const { failure } = err as TransportFailure;
        // A request that is not safe to repeat is repeated only when it cannot have arrived.
        if (!canRetry || !failure.transient || !(safe || failure.notSent)) throw err;
        const delayMs = backoff(attempt);
        const reason = failure.error.kind === "timeout" ? "timeout" : (failure.error.cause ?? failure.error.kind);
        options.onRetry?.({ attempt: attempt + 1, delayMs, reason, method: request.method, url: request.url });
        await wait(delayMs, callerSignal, request.url);
        continue;
      }

      const status = response.status;
      const retryableStatus = status === 429 || (safe && (status === 408 || status >= 500));
      if (!canRetry || !retryableStatus) return response;
      const retryAfter = retryAfterMs(response.headers);
      if (retryAfter !== undefined && retryAfter > MAX_RETRY_AFTER_MS) return response;
      const delayMs = retryAfter ?? backoff(attempt);
      options.onRetry?.({ attempt: attempt + 1, delayMs, reason: `HTTP ${status}`, method: request.method, url: request.url });
      await wait(delayMs, callerSignal, request.url);
    }
  };
}

/**
 * One attempt: the answer read whole under the attempt's own timer, so a server that sends
 * headers and then stalls times out too, and a connection cut mid-answer can be retried.
 */
async function sendOnce(doFetch: typeof fetch, url: string, init: RequestInit, timeoutMs: number, callerSignal?: AbortSignal): Promise<Response> {
  const guard = new AttemptGuard(timeoutMs, callerSignal);
  let phase: "request" | "body" = "request";
  try {
    const response = await guard.race(doFetch(url, { ...init, signal: guard.signal }));
    phase = "body";
    const bytes = NULL_BODY.has(response.status) ? null : await guard.race(response.arrayBuffer());
    const copy = new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
    // Error values name the URL that answered.
    Object.defineProperty(copy, "url", { value: response.url || url });
    return copy;
  } catch (err) {
    throw new TransportFailure(describeFailure(err, url, phase));
  } finally {
    guard.dispose();
  }
}

async function wait(ms: number, signal: AbortSignal | undefined, url: string): Promise<void> {
  try {
    await sleep(ms, signal);
  } catch (err) {
    throw new TransportFailure(describeFailure(err, url));
  }
}

/** Capped exponential backoff with jitter: about 0.5 s, 1 s, 2 s... never above 8 s. */
export function backoff(attempt: number): number {
  const base = Math.min(500 * 2 ** attempt, 8_000);
  return Math.round(base * (1 - Math.random() * 0.25));
}

/** `retry-after-ms`, or `Retry-After` as seconds or an HTTP date. */
export function retryAfterMs(headers: Headers): number | undefined {
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get("retry-after");
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  if (Number.isFinite(date)) return Math.max(0, date - Date.now());
  return undefined;
}
