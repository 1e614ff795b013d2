/**
 * The polls behind a wait: a batch (`GET {runBaseUrl}/batches/{id}`) or one run's record
 * (`getRun`) read until it ends. Polls are reads, so one that meets a network error or a 5xx is
 * tried again with backoff; the run itself is never sent again. wait.ts is the public door.
 */
import type { ReduckClient } from "../client.js";
import { clientInternals } from "../client.js";
import { answerResponse, withLazyResponse } from "../core/answer.js";
import { AttemptAborted, sleep } from "../core/abort.js";
import { mergeHeaders } from "../core/call.js";
import { describeFailure, httpError, type ReduckError } from "../core/errors.js";
import { redactError } from "../core/redact.js";
import { backoff, TransportFailure, type Answer } from "../core/transport.js";
import { getRun } from "../generated/operations.js";
import {
  batchResponse,
  batchUpdate,
  readAnswer,
  singleResult,
  type BatchRunResponse,
  type RunError,
  type RunResponse,
  type RunStatusUpdate,
  type RunStepOutcome,
} from "./outcomes.js";
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
  result: { data: T; error: undefined } | { data: undefined; error: RunError },
  lastResponse: () => Response | undefined,
): RunResult<T> {
  return withLazyResponse(result, lastResponse) as RunResult<T>;
}

export const fail = (error: RunError, lastResponse: () => Response | undefined = () => undefined) => runResult<never>({ data: undefined, error }, lastResponse);

/** How to wait on the run again, for messages. */
function againHint(id: { batchId?: string; runId?: string }): string {
  const arg = id.batchId ? `batchId: "${id.batchId}"` : `runId: "${id.runId}"`;
  return `wait for it again with waitForRun({ client, ${arg} }) or \`reduck runs wait ${id.batchId ?? id.runId}\``;
}

function named(id: { batchId?: string; runId?: string }): string {
  return id.batchId ? `batch ${id.batchId}` : `run ${id.runId}`;
}

/**
 * Sleeps before the next poll: the service's `retryAfterMs`, cut short by the deadline.
 * Returns the error to give back when the wait must stop (aborted, or past the deadline).
 */
async function pause(ctx: PollContext, ms: number, id: { batchId?: string; runId?: string }, lastStatus: string): Promise<RunError | undefined> {
  const left = ctx.deadlineAt === undefined ? Infinity : ctx.deadlineAt - Date.now();
  if (left <= 0) return deadlinePassed(ctx, id, lastStatus);
  try {
    await sleep(Math.min(ms, left), ctx.signal);
  } catch (err) {
    if (err instanceof AttemptAborted) return stopped(id);
    throw err;
  }
  if (ctx.deadlineAt !== undefined && Date.now() >= ctx.deadlineAt) return deadlinePassed(ctx, id, lastStatus);
  return undefined;
}

function deadlinePassed(ctx: PollContext, id: { batchId?: string; runId?: string }, lastStatus: string): RunError {
  const seconds = Math.round((Date.now() - ctx.startedAt) / 1000);
  return { kind: "timeout", error: `${named(id)} is still ${lastStatus} after ${seconds} s; it goes on at the service: ${againHint(id)}`, ...id };
}

function stopped(id: { batchId?: string; runId?: string }): RunError {
  return { kind: "aborted", error: `stopped waiting for ${named(id)}; it goes on at the service: ${againHint(id)}`, ...id };
}

/**
 * The wait before a poll (none for the first when there was no first answer), and whether the
 * wait must stop instead: aborted, or past the deadline, said with the last poll's failure if any.
 */
async function beforePoll(
  ctx: PollContext,
  waitMs: number,
  id: { batchId?: string; runId?: string },
  lastStatus: string,
  lastFailure: ReduckError | undefined,
): Promise<RunError | undefined> {
  if (waitMs > 0) {
    const stop = await pause(ctx, waitMs, id, lastStatus);
    if (stop) return lastFailure ? { ...stop, error: `${stop.error} (the last poll failed: ${lastFailure.error})` } : stop;
  }
  return ctx.signal?.aborted ? stopped(id) : undefined;
}

/** Whether a failed poll is worth repeating: no answer at all, or one that says "try later". */
const transientStatus = (status: number) => status >= 500 || status === 429 || status === 408;

/**
 * Polls a batch until it is `completed` or `failed`. `first` is the 202's body (its runs and
 * wait), or undefined to look at once. `expected` is the number of scripts sent, when known.
 */
export async function waitForBatch(
  ctx: PollContext,
  batchId: string,
  first: { status: "queued" | "running"; runs: unknown[]; retryAfterMs?: number } | undefined,
  expected: number | undefined,
  sequential = false,
): Promise<RunResult<BatchRunResponse>> {
  const id = { batchId };
  const internal = clientInternals(ctx.client);
  const url = `${ctx.client.runBaseUrl}/batches/${encodeURIComponent(batchId)}`;
  let lastAnswer: Answer | undefined;
  const lastResponse = () => (lastAnswer ? answerResponse(lastAnswer) : undefined);
  let lastStatus = first?.status ?? "running";
  let waitMs = first ? (first.retryAfterMs ?? DEFAULT_POLL_MS) : 0;
  if (first) ctx.onStatus?.(batchUpdate(first.status, batchId, first.runs, expected, ctx.startedAt));
  let failures = 0;
  let lastFailure: ReduckError | undefined;

  for (;;) {
    const stop = await beforePoll(ctx, waitMs, id, lastStatus, lastFailure);
    if (stop) return fail(stop, lastResponse);
    let answer: Answer;
    try {
      const auth = await internal.authHeaders(ctx.client.runBaseUrl);
      const headers = mergeHeaders(internal.headers, ctx.headers, auth, { Accept: "application/json" });
      answer = await internal.transport({ method: "GET", url, headers }, ctx.signal);
    } catch (err) {
      const failure = err instanceof TransportFailure ? err.failure : describeFailure(err, url);
      if (failure.error.kind === "aborted") return fail(stopped(id), lastResponse);
      if (!failure.transient || ++failures > MAX_POLL_FAILURES)
        return fail({ ...failure.error, error: `polling ${named(id)}: ${failure.error.error}`, batchId }, lastResponse);
      lastFailure = failure.error;
      waitMs = backoff(failures - 1);
      continue;
    }
    lastAnswer = answer;
    const text = new TextDecoder().decode(answer.body);
    if (answer.status === 404) {
      return fail(
        {
          ...redactError(httpError(answer, text), internal.secrets()),
          error: `there is no batch ${batchId} at ${ctx.client.runBaseUrl}: check the id (it is the batchId of the run's first answer) and that runBaseUrl is the service the run was sent to`,
          batchId,
        },
        lastResponse,
      );
    }
    if (answer.status < 200 || answer.status > 299) {
      const error = redactError(httpError(answer, text), internal.secrets());
      if (!transientStatus(answer.status) || ++failures > MAX_POLL_FAILURES)
        return fail({ ...error, error: `polling ${named(id)}: ${error.error}`, batchId }, lastResponse);
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
      return fail({ kind: "invalid_response", status: answer.status, url, error: `polling ${named(id)}: the answer is not JSON`, batchId }, lastResponse);
    }
    const read = readAnswer(body);
    if (read.kind === "batch") {
      const out = batchResponse(read.batchId ?? batchId, read.runs, expected, read.wireFailed, sequential);
      if ("kind" in out) return fail(out, lastResponse);
      ctx.onStatus?.(batchUpdate(out.status, batchId, (body as { runs: unknown[] }).runs, expected, ctx.startedAt));
      return runResult({ data: out, error: undefined }, lastResponse);
    }
    if (read.kind !== "pending-batch") {
      return fail({ kind: "invalid_response", status: answer.status, url, error: `polling ${named(id)}: the answer is not a batch`, batchId }, lastResponse);
    }
    lastStatus = read.status;
    ctx.onStatus?.(batchUpdate(read.status, batchId, read.runs, expected, ctx.startedAt));
    waitMs = read.retryAfterMs ?? DEFAULT_POLL_MS;
  }
}

/** A run record's status (getRun) as the run answer's words. */
const RECORD_DONE: Record<string, "completed" | "failed"> = { success: "completed", error: "failed", cancelled: "failed" };

/**
 * Polls one run's record (getRun) until it is terminal: `success` gives `result.result`;
 * `error` and `cancelled` are a failure with `result.error` and the run id.
 */
export async function waitForRunId(
  ctx: PollContext,
  runId: string,
  first: { status: "queued" | "running"; retryAfterMs?: number } | undefined,
): Promise<RunResult<RunResponse>> {
  const id = { runId };
  let lastResponse: () => Response | undefined = () => undefined;
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
    const stop = await beforePoll(ctx, waitMs, id, lastStatus, lastFailure);
    if (stop) return fail(stop, lastResponse);
    const polled = await getRun({ client: ctx.client, path: { runId }, signal: ctx.signal, headers: ctx.headers });
    lastResponse = () => polled.response;
    if (polled.error) {
      const error = polled.error;
      if (error.kind === "aborted") return fail(stopped(id), lastResponse);
      if (error.status === 404)
        return fail(
          { ...error, error: `there is no run ${runId} at ${ctx.client.baseUrl}: check the id (it is the runId of the run's first answer)`, runId },
          lastResponse,
        );
      const transient = error.status === undefined ? error.kind === "network" || error.kind === "timeout" : transientStatus(error.status);
      if (!transient || ++failures > MAX_POLL_FAILURES) return fail({ ...error, error: `polling ${named(id)}: ${error.error}`, runId }, lastResponse);
      lastFailure = error;
      waitMs = backoff(failures - 1);
      continue;
    }
    failures = 0;
    lastFailure = undefined;
    const record = polled.data as { status?: string; result?: unknown } | undefined;
    const done = record?.status ? RECORD_DONE[record.status] : undefined;
    if (done) {
      const outcome = (record?.result ?? {}) as Record<string, unknown>;
      const envelope =
        done === "completed" && "result" in outcome
          ? { runId, result: outcome.result }
          : {
              runId,
              status: "failed",
              error: typeof outcome.error === "string" ? outcome.error : record!.status === "cancelled" ? `run ${runId} was cancelled` : undefined,
              errorType: outcome.errorType,
              externalMessage: outcome.externalMessage,
            };
      const read = readAnswer(done === "completed" && !("result" in outcome) ? { runId } : envelope);
      const step = read.kind === "single" ? read.outcome : ({ status: "failed", runId, error: `run ${runId} ended without an outcome` } as RunStepOutcome);
      ctx.onStatus?.(update(step.status === "completed" ? "completed" : "failed", step.status));
      return runResult(singleResult(step), lastResponse);
    }
    if (record?.status !== "queued" && record?.status !== "running") {
      return fail(
        { kind: "invalid_response", error: `polling ${named(id)}: the record's status is ${JSON.stringify(record?.status)}, not one a run has`, runId },
        lastResponse,
      );
    }
    lastStatus = record.status;
    ctx.onStatus?.(update(record.status, undefined));
    waitMs = pace;
  }
}
