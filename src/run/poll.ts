/**
 * The polls behind a wait: a batch (`GET {runBaseUrl}/batches/{id}`) or one run's record
 * (`getRun`) read until it ends. Polls are reads, so one that meets a network error or a 5xx is
 * tried again with backoff; the run itself is never sent again. wait.ts is the public door.
 */
import type { ReduckClient } from "../core/client.js";
import { answerResponse, withLazyResponse } from "../core/wire/answer.js";
import { AttemptAborted, sleep } from "../core/wire/abort.js";
import { clientSecrets, sendWithCredential } from "../core/client-requests.js";
import { describeFailure, httpError, type ReduckError } from "../core/errors.js";
import { redactError } from "../core/redact.js";
import { backoff, TransportFailure, type Answer } from "../core/wire/transport.js";
import { pathIdProblem } from "../core/path-ids.js";
import { getRun } from "../generated/operations.js";
import type { RunError, RunStatusUpdate, RunStepOutcome } from "./outcomes.js";
import { batchUpdate, readAnswer, stepOutcome, type Ended } from "./read-answer.js";
import type { RunResult } from "./run-types.js";

/** The wait between polls when the service names none. */
export const DEFAULT_POLL_MS = 2_000;
/** Polls in a row that may fail (network, 5xx) before the wait gives up. */
export const MAX_POLL_FAILURES = 5;

/** Where a wait stands: shared by every poll of one wait. */
export interface PollContext {
  client: ReduckClient;
  signal?: AbortSignal;
  onStatus?: (update: RunStatusUpdate) => void;
  headers?: Record<string, string>;
  startedAt: number;
  /** `Date.now()` past which the wait stops; none: wait to the end. */
  deadlineAt?: number;
}

/** A result whose `response` is made only when read (see core/answer.ts). */
export function runResult<T>(
  result: { data: T; error: undefined; outcomes?: RunStepOutcome[] } | { data: undefined; error: RunError; outcomes?: RunStepOutcome[] },
  lastResponse: () => Response | undefined,
): RunResult<T> {
  return withLazyResponse({ ...result, outcomes: result.outcomes }, lastResponse) as RunResult<T>;
}

export const fail = (error: RunError, lastResponse: () => Response | undefined = () => undefined) => runResult<never>({ data: undefined, error }, lastResponse);

/** How a wait ended: the scripts' outcomes, or why it stopped; and the last answer, as a Response when read. */
export type Waited = ({ ended: Ended; error?: undefined } | { ended?: undefined; error: RunError }) & { lastResponse: () => Response | undefined };

/** The run a wait is about: a batch or one run. */
type WaitTarget = { batchId: string; runId?: undefined } | { runId: string; batchId?: undefined };

/** How to wait on the run again, for messages. */
function againHint(id: WaitTarget): string {
  const arg = id.batchId ? `batchId: "${id.batchId}"` : `runId: "${id.runId}"`;
  return `it goes on at the service: wait for it again with waitForRun({ client, ${arg} })`;
}

function named(id: WaitTarget): string {
  return id.batchId ? `batch ${id.batchId}` : `run ${id.runId}`;
}

/**
 * A wait that stopped while the run goes on (`run_continues`): what stopped it, with the last
 * poll's failure if there was one, and how to wait again.
 */
function continues<E extends RunError>(error: E, id: WaitTarget, lastFailure?: ReduckError): E {
  const why = lastFailure ? ` (the last poll failed: ${lastFailure.error})` : "";
  return { ...error, code: "run_continues", error: `${error.error}${why}; ${againHint(id)}`, ...id };
}

/**
 * Sleeps before the next poll: the service's `retryAfterMs`, cut short by the deadline.
 * Returns the error to give back when the wait must stop (aborted, or past the deadline).
 */
async function pause(ctx: PollContext, ms: number, id: WaitTarget, lastStatus: string, lastFailure?: ReduckError): Promise<RunError | undefined> {
  const left = ctx.deadlineAt === undefined ? Infinity : ctx.deadlineAt - Date.now();
  if (left <= 0) return deadlinePassed(ctx, id, lastStatus, lastFailure);
  try {
    await sleep(Math.min(ms, left), ctx.signal);
  } catch (err) {
    if (err instanceof AttemptAborted) return stopped(id, lastFailure);
    throw err;
  }
  if (ctx.deadlineAt !== undefined && Date.now() >= ctx.deadlineAt) return deadlinePassed(ctx, id, lastStatus, lastFailure);
  return undefined;
}

function deadlinePassed(ctx: PollContext, id: WaitTarget, lastStatus: string, lastFailure?: ReduckError): RunError {
  const seconds = Math.round((Date.now() - ctx.startedAt) / 1000);
  return continues({ kind: "timeout", error: `${named(id)} is still ${lastStatus} after ${seconds} s` }, id, lastFailure);
}

function stopped(id: WaitTarget, lastFailure?: ReduckError): RunError {
  return continues({ kind: "aborted", error: `stopped waiting for ${named(id)}` }, id, lastFailure);
}

/** A poll that failed for good (or too often): the run goes on. */
function pollFailed(error: RunError, id: WaitTarget): RunError {
  return continues({ ...error, error: `polling ${named(id)}: ${error.error}` }, id);
}

/** The service knows no such batch or run: nothing to wait on (`run_not_found`). */
function notFound(error: RunError, id: WaitTarget, message: string): RunError {
  return { ...error, code: "run_not_found", error: message, ...id };
}

/**
 * The wait before a poll (none for the first when there was no first answer), and whether the
 * wait must stop instead: aborted, or past the deadline, said with the last poll's failure if any.
 */
async function beforePoll(
  ctx: PollContext,
  waitMs: number,
  id: WaitTarget,
  lastStatus: string,
  lastFailure: ReduckError | undefined,
): Promise<RunError | undefined> {
  if (waitMs > 0) {
    const stop = await pause(ctx, waitMs, id, lastStatus, lastFailure);
    if (stop) return stop;
  }
  return ctx.signal?.aborted ? stopped(id, lastFailure) : undefined;
}

/** Whether a failed poll is worth repeating: no answer at all, or one that says "try later". */
const transientStatus = (status: number) => status >= 500 || status === 429 || status === 408;

/**
 * Polls a batch until it is `completed` or `failed`: its outcomes as the service gave them (they
 * are counted against the scripts sent by endedResult). `first` is the 202's body (its runs and
 * wait), or undefined to look at once. `expected` is the number of scripts sent, when known.
 */
export async function waitForBatch(
  ctx: PollContext,
  batchId: string,
  first: { status: "queued" | "running"; runs: unknown[]; retryAfterMs?: number } | undefined,
  expected: number | undefined,
): Promise<Waited> {
  const id = { batchId };
  // The id becomes the URL's path: one of another shape (`..`) is never polled (core/path-ids.ts).
  const badId = pathIdProblem("batchId", batchId);
  if (badId) return { error: badId, lastResponse: () => undefined };
  const url = `${ctx.client.runBaseUrl}/batches/${encodeURIComponent(batchId)}`;
  let lastAnswer: Answer | undefined;
  const lastResponse = () => (lastAnswer ? answerResponse(lastAnswer) : undefined);
  const stop = (error: RunError): Waited => ({ error, lastResponse });
  let lastStatus = first?.status ?? "running";
  let waitMs = first ? (first.retryAfterMs ?? DEFAULT_POLL_MS) : 0;
  if (first) ctx.onStatus?.(batchUpdate(first.status, batchId, first.runs, expected, ctx.startedAt));
  let failures = 0;
  let lastFailure: ReduckError | undefined;

  for (;;) {
    const stopping = await beforePoll(ctx, waitMs, id, lastStatus, lastFailure);
    if (stopping) return stop(stopping);
    let answer: Answer;
    try {
      answer = await sendWithCredential(
        ctx.client,
        ctx.client.runBaseUrl,
        { method: "GET", url, headers: { Accept: "application/json" } },
        ctx.headers,
        ctx.signal,
      );
    } catch (err) {
      const failure = err instanceof TransportFailure ? err.failure : describeFailure(err, url);
      if (failure.error.kind === "aborted") return stop(stopped(id, lastFailure));
      if (!failure.transient || ++failures > MAX_POLL_FAILURES) return stop(pollFailed(failure.error, id));
      lastFailure = failure.error;
      waitMs = backoff(failures - 1);
      continue;
    }
    lastAnswer = answer;
    const text = new TextDecoder().decode(answer.body);
    if (answer.status === 404) {
      const message = `there is no batch ${batchId} at ${ctx.client.runBaseUrl}: check the id (it is the batchId of the run's first answer) and that runBaseUrl is the service the run was sent to`;
      return stop(notFound(redactError(httpError(answer, text), clientSecrets(ctx.client)), id, message));
    }
    if (answer.status < 200 || answer.status > 299) {
      const error = redactError(httpError(answer, text), clientSecrets(ctx.client));
      if (!transientStatus(answer.status) || ++failures > MAX_POLL_FAILURES) return stop(pollFailed(error, id));
      lastFailure = error;
      waitMs = backoff(failures - 1);
      continue;
    }
    failures = 0;
    lastFailure = undefined;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return stop({ kind: "invalid_response", status: answer.status, url, error: `polling ${named(id)}: the answer is not JSON`, batchId });
    }
    const read = readAnswer(body);
    // A batch's runs (or the runs alone): one run's own answer is no batch's.
    const runs = Array.isArray(body) ? body : (body as { runs?: unknown }).runs;
    if (read.kind === "ended" && Array.isArray(runs)) {
      const failed = read.wireFailed || read.runs.some((r) => r.status !== "completed");
      ctx.onStatus?.(batchUpdate(failed ? "failed" : "completed", batchId, runs, expected, ctx.startedAt));
      return { ended: { ...read, batchId: read.batchId ?? batchId }, lastResponse };
    }
    if (read.kind !== "pending-batch") {
      const why = read.kind === "unreadable" ? read.why : "the answer is not a batch";
      return stop({ kind: "invalid_response", status: answer.status, url, error: `polling ${named(id)}: ${why}`, batchId });
    }
    lastStatus = read.status;
    ctx.onStatus?.(batchUpdate(read.status, batchId, read.runs, expected, ctx.startedAt));
    waitMs = read.retryAfterMs ?? DEFAULT_POLL_MS;
  }
}

/** A run record's status (getRun) as the run answer's words. */
const RECORD_DONE: Record<string, "completed" | "failed"> = { success: "completed", error: "failed", cancelled: "failed" };

/**
 * The outcome a run record (getRun) holds once terminal: `success` with `result.result`; `error`
 * and `cancelled` with `result.error`. A record says no `errorType` or `externalMessage` (the
 * service's description of it has none), so an outcome read this way has none either.
 */
function recordOutcome(runId: string, status: "completed" | "failed", record: { status?: string; result?: unknown }): RunStepOutcome {
  const held = (record.result ?? {}) as Record<string, unknown>;
  if (status === "completed") return stepOutcome("result" in held ? { runId, result: held.result } : { runId });
  const error = typeof held.error === "string" ? held.error : record.status === "cancelled" ? `run ${runId} was cancelled` : undefined;
  return stepOutcome({ runId, status: "failed", error, errorType: held.errorType, externalMessage: held.externalMessage });
}

/** Polls one run's record (getRun) until it is terminal: its outcome. */
export async function waitForRunId(
  ctx: PollContext,
  runId: string,
  first: { status: "queued" | "running"; retryAfterMs?: number } | undefined,
): Promise<Waited> {
  const id = { runId };
  let lastResponse: () => Response | undefined = () => undefined;
  const stop = (error: RunError): Waited => ({ error, lastResponse });
  let lastStatus = first?.status ?? "running";
  // A run record says nothing of pacing: keep the pace the run's first answer asked for.
  const pace = first?.retryAfterMs ?? DEFAULT_POLL_MS;
  let waitMs = first ? pace : 0;
  const update = (status: RunStatusUpdate["status"], done: RunStepOutcome["status"] | undefined): RunStatusUpdate => ({
    status,
    runId,
    runIds: [runId],
    total: 1,
    completed: done === "completed" ? 1 : 0,
    failed: done === "failed" ? 1 : 0,
    elapsedMs: Date.now() - ctx.startedAt,
  });
  if (first) ctx.onStatus?.(update(first.status, undefined));
  let failures = 0;
  let lastFailure: ReduckError | undefined;

  for (;;) {
    const stopping = await beforePoll(ctx, waitMs, id, lastStatus, lastFailure);
    if (stopping) return stop(stopping);
    const polled = await getRun({ client: ctx.client, path: { runId }, signal: ctx.signal, headers: ctx.headers });
    lastResponse = () => polled.response;
    if (polled.error) {
      const error = polled.error;
      if (error.kind === "aborted") return stop(stopped(id, lastFailure));
      // An id getRun would not put into its URL: nothing was sent, and there is nothing to wait on.
      if (error.code === "invalid_id") return stop(error);
      if (error.status === 404)
        return stop(notFound(error, id, `there is no run ${runId} at ${ctx.client.baseUrl}: check the id (it is the runId of the run's first answer)`));
      const transient = error.status === undefined ? error.kind === "network" || error.kind === "timeout" : transientStatus(error.status);
      if (!transient || ++failures > MAX_POLL_FAILURES) return stop(pollFailed(error, id));
      lastFailure = error;
      waitMs = backoff(failures - 1);
      continue;
    }
    failures = 0;
    lastFailure = undefined;
    const record = polled.data as { status?: string; result?: unknown } | undefined;
    const done = record?.status ? RECORD_DONE[record.status] : undefined;
    if (done) {
      const outcome = recordOutcome(runId, done, record!);
      ctx.onStatus?.(update(outcome.status === "completed" ? "completed" : "failed", outcome.status));
      return { ended: { runs: [outcome], wireFailed: false }, lastResponse };
    }
    if (record?.status !== "queued" && record?.status !== "running") {
      return stop({
        kind: "invalid_response",
        error: `polling ${named(id)}: the record's status is ${JSON.stringify(record?.status)}, not one a run has`,
        runId,
      });
    }
    lastStatus = record.status;
    ctx.onStatus?.(update(record.status, undefined));
    waitMs = pace;
  }
}
