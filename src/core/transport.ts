/**
 * The `fetch` beneath every catalogue call: a per-request timeout and retries of requests
 * that are safe to repeat. openapi-fetch hands it a finished `Request`; auth and the user
 * agent are already on it.
 */

export type FetchLike = (input: Request) => Promise<Response>;

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
  /** Per attempt; 0 disables the timeout. */
  timeoutMs: number;
  onRetry?: (info: RetryInfo) => void;
  /** For tests: how to wait between attempts. */
  sleep?: (ms: number) => Promise<void>;
}

/** A timeout is told apart from the caller's own abort by this marker. */
export class RequestTimeoutError extends Error {
  override name = "TimeoutError";
  constructor(readonly reduckTimeoutMs: number) {
    super(`no answer within ${reduckTimeoutMs} ms`);
  }
}

const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);
/** Failures where the request cannot have reached the server, so even a POST may be repeated. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);
const MAX_RETRY_AFTER_MS = 60_000;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Late-bound so MSW (which patches globalThis.fetch after import) and user fetches both work. */
export function resolveFetch(custom?: typeof fetch): typeof fetch {
  return custom ?? ((input, init) => globalThis.fetch(input, init));
}

export function createTransport(options: TransportOptions): FetchLike {
  const doFetch = resolveFetch(options.fetch);
  const sleep = options.sleep ?? realSleep;

  return async function transport(request: Request): Promise<Response> {
    const safe = IDEMPOTENT.has(request.method);
    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < options.maxRetries;
      // Keep the original intact for the next attempt; catalogue bodies are small JSON.
      const attemptRequest = canRetry ? request.clone() : request;
      let response: Response;
      try {
        response = await fetchWithTimeout(doFetch, attemptRequest, options.timeoutMs);
      } catch (err) {
        const reason = failureReason(err);
        const retryable = reason === "timeout" ? safe : safe || NOT_SENT_CODES.has(reason);
        if (!canRetry || !retryable || request.signal.aborted) throw err;
        const delayMs = backoff(attempt);
        options.onRetry?.({ attempt: attempt + 1, delayMs, reason, method: request.method, url: request.url });
        await sleep(delayMs);
        continue;
      }

      const status = response.status;
      const retryableStatus = status === 429 || (safe && (status === 408 || status >= 500));
      if (!canRetry || !retryableStatus) return response;
      const retryAfter = retryAfterMs(response.headers);
      if (retryAfter !== undefined && retryAfter > MAX_RETRY_AFTER_MS) return response;
      // Drain rather than cancel: cancel() on an MSW-mocked body never resolves.
      await response.arrayBuffer().catch(() => undefined);
      const delayMs = retryAfter ?? backoff(attempt);
      options.onRetry?.({ attempt: attempt + 1, delayMs, reason: `HTTP ${status}`, method: request.method, url: request.url });
      await sleep(delayMs);
    }
  };
}

async function fetchWithTimeout(doFetch: typeof fetch, request: Request, timeoutMs: number): Promise<Response> {
  if (!timeoutMs || !Number.isFinite(timeoutMs)) return doFetch(request);
  // One timer per attempt, combined with the caller's own signal.
  const timer = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([request.signal, timer]);
  try {
    return await doFetch(new Request(request, { signal }));
  } catch (err) {
    if (timer.aborted && !request.signal.aborted) throw new RequestTimeoutError(timeoutMs);
    throw err;
  }
}

function failureReason(err: unknown): string {
  if (err instanceof RequestTimeoutError) return "timeout";
  const e = err as { cause?: { code?: string }; code?: string; name?: string };
  return e?.cause?.code ?? e?.code ?? e?.name ?? "network";
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
