/**
 * What carries every catalogue call and poll: a per-attempt timeout that covers the whole
 * answer, the caller's abort, retries of what a retry can help, redirects, and a bounded body.
 * Each attempt is one exchange (exchange.ts: node:http or the caller's own fetch). Failures leave
 * it as `TransportFailure`s carrying their error value.
 */
import { AttemptGuard, sleep } from "./abort.js";
import { AnswerTooLarge, MAX_ANSWER_BYTES } from "./answer-limit.js";
import type { ReduckError } from "../error-types.js";
import { describeFailure, tooLargeFailure, type Failure, type FailurePhase } from "./failures.js";
import { withSettings, type CallSettings, type CallSettingsOptions } from "./call-settings.js";
import { exchange, type Route } from "./exchange.js";

/** A request as a call builds it: small, so every attempt sends the same bytes. */
export interface CallRequest {
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

export type { RetryInfo, CallSettings } from "./call-settings.js";

/** The caller's signal comes separately so it never rides on a Request (nodejs/undici#4068). */
export type Transport = (request: CallRequest, signal?: AbortSignal, settings?: CallSettingsOptions) => Promise<Answer>;

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

export function createTransport(route: Route, defaults: CallSettings): Transport {
  return async function transport(request: CallRequest, callerSignal?: AbortSignal, overrides?: CallSettingsOptions): Promise<Answer> {
    const settings = withSettings(defaults, overrides);
    const safe = IDEMPOTENT.has(request.method);
    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < settings.maxRetries;
      let answer: Answer;
      try {
        answer = await sendOnce(route, request, settings.timeoutMs, callerSignal);
      } catch (err) {
        const { failure } = err as TransportFailure;
        // A request that is not safe to repeat is repeated only when it cannot have arrived.
        if (!canRetry || !failure.transient || !(safe || failure.notSent)) throw err;
        const delayMs = backoff(attempt);
        const reason = failure.error.kind === "timeout" ? "timeout" : (failure.error.cause ?? failure.error.kind);
        settings.onRetry?.({ attempt: attempt + 1, delayMs, reason, method: request.method, url: request.url });
        await wait(delayMs, callerSignal, request.url);
        continue;
      }

      const status = answer.status;
      const retryableStatus = status === 429 || (safe && (status === 408 || status >= 500));
      if (!canRetry || !retryableStatus) return answer;
      const retryAfter = retryAfterMs(answer.headers);
      if (retryAfter !== undefined && retryAfter > MAX_RETRY_AFTER_MS) return answer;
      const delayMs = retryAfter ?? backoff(attempt);
      settings.onRetry?.({ attempt: attempt + 1, delayMs, reason: `HTTP ${status}`, method: request.method, url: request.url });
      await wait(delayMs, callerSignal, request.url);
    }
  };
}

/**
 * One attempt, redirects included: the answer read whole (and at most MAX_ANSWER_BYTES) under the
 * attempt's own timer, so a server that sends its headers and then trickles times out too, and a
 * connection cut mid-answer can be retried.
 */
async function sendOnce(route: Route, request: CallRequest, timeoutMs: number, callerSignal?: AbortSignal): Promise<Answer> {
  const guard = new AttemptGuard(timeoutMs, callerSignal);
  let phase: FailurePhase = "request";
  let url = request.url;
  let status: number | undefined;
  let finish = () => undefined as void;
  try {
    const answer = await guard.race(exchange(route, request, guard, { redirects: MAX_REDIRECTS, reuse: true }));
    ({ url, status } = answer);
    finish = answer.finish;
    phase = "body";
    // Read even when the status has no body: over node:http, an answer never read keeps its
    // connection busy (and the process alive) until the server closes it, seconds later.
    // The Content-Length of an answer that has no body (to HEAD, a 204 or 304) is no size to refuse.
    const bodiless = request.method === "HEAD" || NULL_BODY.has(answer.status);
    const read = await guard.race(answer.read(bodiless ? Number.POSITIVE_INFINITY : MAX_ANSWER_BYTES));
    const body = NULL_BODY.has(answer.status) ? new Uint8Array(0) : read;
    return { status: answer.status, statusText: answer.statusText, url: answer.url, headers: answer.headers, body };
  } catch (err) {
    throw new TransportFailure(attemptFailure(err, url, phase, status));
  } finally {
    finish();
    guard.dispose();
  }
}

/** What an attempt's failure means, an answer over the size limit included (the server's doing: not repeated). */
export function attemptFailure(err: unknown, url: string, phase: FailurePhase, status?: number): Failure {
  return err instanceof AnswerTooLarge ? tooLargeFailure(err, url, status) : describeFailure(err, url, phase);
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
