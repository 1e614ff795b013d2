/**
 * What carries every catalogue call: a per-attempt timeout that covers the whole answer, the
 * caller's abort, retries of what a retry can help, and redirects. Over node:http (see http.ts),
 * or the caller's own fetch. Failures leave it as `TransportFailure`s carrying their error value.
 */
import { AttemptGuard, sleep } from "./abort.js";
import { describeFailure, type Failure, type ReduckError } from "./errors.js";
import { readBody, responseOf, type Connections } from "./http.js";

/** A request as a call builds it: small, so every attempt sends the same bytes. */
export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** A whole answer: status, headers and body, read under the attempt's timer. */
export interface Answer {
  status: number;
  statusText: string;
  /** The URL that answered (after redirects). */
  url: string;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Uint8Array;
}

/** The caller's signal comes separately so it never rides on a Request (nodejs/undici#4068). */
export type Transport = (request: OutgoingRequest, signal?: AbortSignal) => Promise<Answer>;

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
  /** The caller's own fetch (looked up on every call); otherwise node:http over `connections`. */
  fetch?: typeof fetch;
  connections: Connections;
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
const MAX_REDIRECTS = 5;
/** Statuses with no body, which `new Response(body)` refuses one for. */
export const NULL_BODY = new Set([101, 204, 205, 304]);

/** One attempt's exchange, without retries or timers: status, headers and a body to read. */
type Exchange = (
  request: OutgoingRequest,
  signal: AbortSignal,
) => Promise<{ status: number; statusText: string; url?: string; headers: Record<string, string>; read(): Promise<Uint8Array> }>;

export function createTransport(options: TransportOptions): Transport {
  const exchange: Exchange = options.fetch ? viaFetch(options.fetch) : viaNode(options.connections);

  return async function transport(request: OutgoingRequest, callerSignal?: AbortSignal): Promise<Answer> {
    const safe = IDEMPOTENT.has(request.method);
    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < options.maxRetries;
      let answer: Answer;
      try {
        answer = await sendOnce(exchange, request, options.timeoutMs, callerSignal);
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

      const status = answer.status;
      const retryableStatus = status === 429 || (safe && (status === 408 || status >= 500));
      if (!canRetry || !retryableStatus) return answer;
      const retryAfter = retryAfterMs(answer.headers);
      if (retryAfter !== undefined && retryAfter > MAX_RETRY_AFTER_MS) return answer;
      const delayMs = retryAfter ?? backoff(attempt);
      options.onRetry?.({ attempt: attempt + 1, delayMs, reason: `HTTP ${status}`, method: request.method, url: request.url });
      await wait(delayMs, callerSignal, request.url);
    }
  };
}

/**
 * One attempt, redirects included: the answer read whole under the attempt's own timer, so a
 * server that sends headers and then stalls times out too, and a connection cut mid-answer can
 * be retried.
 */
async function sendOnce(exchange: Exchange, first: OutgoingRequest, timeoutMs: number, callerSignal?: AbortSignal): Promise<Answer> {
  const guard = new AttemptGuard(timeoutMs, callerSignal);
  let request = first;
  let phase: "request" | "body" = "request";
  try {
    for (let redirects = 0; ; redirects++) {
      phase = "request";
      const response = await guard.race(exchange(request, guard.signal));
      phase = "body";
      // Read even when the status has no body: over node:http, an answer never read keeps its
      // connection busy (and the process alive) until the server closes it, seconds later.
      const read = await guard.race(response.read());
      const body = NULL_BODY.has(response.status) ? new Uint8Array(0) : read;
      const next = response.headers.location && redirects < MAX_REDIRECTS ? redirected(request, response.status, response.headers.location) : undefined;
      if (!next) return { status: response.status, statusText: response.statusText, url: response.url || request.url, headers: response.headers, body };
      request = next;
    }
  } catch (err) {
    throw new TransportFailure(describeFailure(err, request.url, phase));
  } finally {
    guard.dispose();
  }
}

/**
 * Where a redirect leads, as fetch follows it: 303 (and 301/302 after a POST) becomes a GET
 * without a body. The credential goes only to the same origin.
 */
export function redirected<R extends { method: string; url: string; headers: Record<string, string>; body?: unknown }>(
  request: R,
  status: number,
  location: string,
): R | undefined {
  if (![301, 302, 303, 307, 308].includes(status)) return undefined;
  const url = new URL(location, request.url);
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  const headers = { ...request.headers };
  if (url.origin !== new URL(request.url).origin) {
    for (const name of Object.keys(headers)) if (/^(authorization|x-api-key|cookie)$/i.test(name)) delete headers[name];
  }
  const toGet = status === 303 ? request.method !== "HEAD" : (status === 301 || status === 302) && request.method === "POST";
  if (!toGet) return { ...request, url: url.href, headers };
  for (const name of Object.keys(headers)) if (/^content-/i.test(name)) delete headers[name];
  return { ...request, method: "GET", url: url.href, headers, body: undefined };
}

function viaNode(connections: Connections): Exchange {
  return async (request, signal) => {
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    const headers = body ? { ...request.headers, "Content-Length": String(body.byteLength) } : request.headers;
    const { request: outgoing } = connections.open(request.url, request.method, headers, true);
    const abort = () => outgoing.destroy(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    const answered = responseOf(outgoing);
    outgoing.end(body);
    const response = await answered;
    return {
      status: response.statusCode ?? 0,
      statusText: response.statusMessage ?? "",
      headers: flatHeaders(response.headers),
      read: () => readBody(outgoing, response).finally(() => signal.removeEventListener("abort", abort)),
    };
  };
}

function viaFetch(custom: typeof fetch): Exchange {
  return async (request, signal) => {
    // Only standard RequestInit options: a caller's fetch may refuse anything else. It follows
    // redirects itself, as it always did.
    const response = await custom(request.url, { method: request.method, headers: request.headers, body: request.body, signal, redirect: "follow" });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    const read = async () => new Uint8Array(await response.arrayBuffer());
    return { status: response.status, statusText: response.statusText, url: response.url, headers, read };
  };
}

/** node:http's headers as one string each. */
export function flatHeaders(headers: import("node:http").IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  return out;
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
export function retryAfterMs(headers: Record<string, string>): number | undefined {
  const ms = Number.parseFloat(headers["retry-after-ms"] ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers["retry-after"];
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  if (Number.isFinite(date)) return Math.max(0, date - Date.now());
  return undefined;
}
