/**
 * What a run's answer means: the wire's forms read into outcomes, and the outcomes into the
 * caller's result. A run's answer goes one way (docs/architecture.md has the words):
 *
 *   answer (the wire's body) -> readAnswer -> Ended (one outcome per script; after polling if it
 *   was not final: poll.ts) -> endedResult -> RunResult { data, error, outcomes }
 *
 * The wire's forms:
 *
 * - `{result, runId}` for one `script` (the documented answer);
 * - an array of per-run envelopes, one per script, in order (`scripts`);
 * - a batch `{batchId, status, runs, retryAfterMs?}`: final when `completed`/`failed`, else a handle to poll;
 * - one run's envelope `{status: "queued"|"running", runId, retryAfterMs?}` (our reading of a
 *   single `script` that outlives `waitForSeconds`, which the service does not publish).
 *
 * These types are written by hand, not taken from the generated schema: they are the library's
 * promise to its callers, whatever the description of the wire says this week.
 */
import type { ReduckError, ReduckErrorCode, ReduckRunFailedError } from "../core/errors.js";
import { isObject } from "../core/json.js";

/**
 * A run's or batch's state on the wire.
 *
 * @example
 * ```ts
 * const still = (s: RunStatus) => s === "queued" || s === "running";
 * ```
 */
export type RunStatus = "queued" | "running" | "completed" | "failed";

/**
 * One script's outcome, normalised from whatever envelope the wire carried.
 *
 * @example
 * ```ts
 * for (const step of batch.runs) console.log(step.status === "completed" ? step.result : `${step.errorType}: ${step.externalMessage ?? step.error}`);
 * ```
 */
export interface RunStepOutcome<R = unknown> {
  /** `skipped`: a sequential chain stopped at an earlier failure, so this step never ran. */
  status: "completed" | "failed" | "skipped";
  /** The step's run; null when it never ran (or the service named none). */
  runId: string | null;
  /** What the script returned (possibly `null`): present exactly when `completed`. */
  result?: R;
  /** Why the step failed or was skipped. */
  error?: string;
  /** The service's class of failure (`timeout`, `site_error`...), when it gave one. */
  errorType?: string;
  /** The service's message for people, when it gave one. */
  externalMessage?: string;
  /** The library's code for a failure it recognised (`no_outcome`, `unknown_argument`: see ReduckErrorCode). */
  code?: ReduckErrorCode;
  /** With `unknown_argument`: the argument the script does not take. */
  parameter?: string;
  /** With `unknown_argument`: the argument it most likely meant. */
  suggestion?: string;
}

/**
 * The answer to a run of one `script`.
 *
 * @example
 * ```ts
 * const { data } = await runScript({ client, script });
 * if (data) console.log(data.runId, data.result);
 * ```
 */
export interface RunResponse<R = unknown> {
  /** Whatever the script returned: its own JSON, shaped by its output schema (`null` is a result); typed for a registered script (ReduckScripts). */
  result: R;
  runId: string;
}

/**
 * The answer to a run of several `scripts`: one outcome per script, in the order given.
 *
 * @example
 * ```ts
 * const { data } = await runScript({ client, scripts });
 * if (data?.status === "failed") console.error(data.runs.filter((r) => r.status !== "completed"));
 * ```
 */
export interface BatchRunResponse<R extends readonly unknown[] = unknown[]> {
  /** The service's batch id; absent when it gave none (a plain 200 array of envelopes). */
  batchId?: string;
  /** `failed` when any step failed or was skipped. */
  status: "completed" | "failed";
  totalSteps: number;
  /** One per script, in the order given; never re-paired by index from a different count. */
  runs: unknown[] extends R ? RunStepOutcome[] : { [I in keyof R]: RunStepOutcome<R[I]> };
}

/**
 * What `wait: false` returns when the first answer was not final: the handle to wait on.
 *
 * @example
 * ```ts
 * const { data } = await runScript({ client, scripts, wait: false });
 * if (data && isPendingRun(data)) await waitForRun({ client, batchId: data.batchId! });
 * ```
 */
export interface PendingRun {
  status: "queued" | "running";
  batchId?: string;
  runId?: string;
  /** Per script, in order, as far as the service said. */
  runIds?: (string | null)[];
  /** How long the service asked to wait before looking again. */
  retryAfterMs?: number;
}

/**
 * Given to `onStatus` at the first answer that is not final, and after each poll.
 *
 * @example
 * ```ts
 * await runScript({ client, scripts, onStatus: (u) => journal.save(u.batchId, u.runIds) });
 * ```
 */
export interface RunStatusUpdate {
  status: RunStatus;
  batchId?: string;
  /** A single `script` run, once known. */
  runId?: string;
  /** Per script, in order, as far as known. */
  runIds: (string | null)[];
  total: number;
  completed: number;
  failed: number;
  /** Since the run was sent (or the wait began). */
  elapsedMs: number;
}

/**
 * The error of runScript and waitForRun: a ReduckError, whose `runId` and `batchId` name the run
 * it is about when one is known. (The same type as ReduckError; the name says where it comes from.)
 *
 * @example
 * ```ts
 * const { error } = await runScript({ client, script });
 * if (error?.kind === "run_failed") console.error(`run ${error.runId}: ${error.externalMessage ?? error.error}`);
 * ```
 */
export type RunError = ReduckError;

/**
 * True when `data` is a pending run's handle (what `wait: false` may return).
 *
 * @example
 * ```ts
 * const { data } = await runScript({ client, script, wait: false });
 * if (data && isPendingRun(data)) console.log(`still ${data.status}: ${data.batchId ?? data.runId}`);
 * ```
 */
export function isPendingRun(data: unknown): data is PendingRun {
  const status = (data as { status?: unknown } | null)?.status;
  // A finished answer never says queued or running: a run's has no status, a batch's is final.
  return typeof data === "object" && data !== null && (status === "queued" || status === "running");
}

/**
 * Whether an error is the run's own failure (the service recorded the run and it failed), as
 * opposed to a failure to make or wait on it: the first is an outcome to report, the second an
 * error (the run may still be going). The same as `error.kind === "run_failed"`.
 *
 * @example
 * ```ts
 * const { error } = await runScript({ client, script });
 * if (error && isRunFailure(error)) report({ status: "failed", runId: error.runId, error: error.error });
 * ```
 */
export function isRunFailure(error: RunError): error is ReduckRunFailedError {
  return error.kind === "run_failed";
}

/** An envelope as the wire may carry it; every field optional. */
interface Envelope {
  status?: unknown;
  runId?: unknown;
  result?: unknown;
  error?: unknown;
  errorType?: unknown;
  externalMessage?: unknown;
  retryAfterMs?: unknown;
}

/** How a request's scripts ended: one outcome per script as the service gave them (not yet counted against the scripts sent). */
export interface Ended {
  batchId?: string;
  runs: RunStepOutcome[];
  /** The service called the batch `failed`. */
  wireFailed: boolean;
}

/** What one answer (or one poll of a batch) says. */
export type ReadAnswer =
  | ({ kind: "ended" } & Ended)
  | { kind: "pending-batch"; batchId: string; status: "queued" | "running"; runs: unknown[]; retryAfterMs?: number }
  | { kind: "pending-run"; runId: string; status: "queued" | "running"; retryAfterMs?: number }
  | { kind: "unreadable"; why: string };

const str = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);
const PENDING = new Set(["queued", "running"]);
const TERMINAL = new Set(["completed", "failed"]);

/** A wait the service asked for, when it is a usable number of milliseconds. */
export function retryAfterOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Reads a 2xx answer's parsed body. */
export function readAnswer(body: unknown): ReadAnswer {
  if (Array.isArray(body)) return { kind: "ended", runs: body.map(stepOutcome), wireFailed: false };
  if (!isObject(body)) return { kind: "unreadable", why: "the answer is neither a run, a list of runs nor a batch" };
  const batchId = str(body.batchId);
  if (batchId !== undefined || Array.isArray(body.runs)) {
    const runs = Array.isArray(body.runs) ? body.runs : [];
    const status = body.status;
    if (typeof status === "string" && PENDING.has(status) && batchId) {
      return { kind: "pending-batch", batchId, status: status as "queued" | "running", runs, retryAfterMs: retryAfterOf(body.retryAfterMs) };
    }
    if (!Array.isArray(body.runs)) return { kind: "unreadable", why: `the batch ${batchId} came back with status ${JSON.stringify(status)} and no runs` };
    return { kind: "ended", ...(batchId ? { batchId } : {}), runs: runs.map(stepOutcome), wireFailed: status === "failed" };
  }
  const runId = str(body.runId);
  if (typeof body.status === "string" && PENDING.has(body.status) && !("result" in body) && body.error === undefined) {
    if (!runId) return { kind: "unreadable", why: `the service said the run is ${body.status} but gave no runId to wait on` };
    return { kind: "pending-run", runId, status: body.status as "queued" | "running", retryAfterMs: retryAfterOf(body.retryAfterMs) };
  }
  return { kind: "ended", runs: [stepOutcome(body)], wireFailed: false };
}

/**
 * One envelope as a step's outcome. A terminal run carries `result` or `error`; one with
 * neither is a failure naming the run (seen when the browser was signed out of the site),
 * never a success with an absent result. `null` is a real result.
 */
export function stepOutcome(raw: unknown): RunStepOutcome {
  const envelope: Envelope = isObject(raw) ? raw : {};
  const runId = str(envelope.runId) ?? null;
  const extras: Pick<RunStepOutcome, "errorType" | "externalMessage"> = {};
  if (str(envelope.errorType)) extras.errorType = envelope.errorType as string;
  if (str(envelope.externalMessage)) extras.externalMessage = envelope.externalMessage as string;
  const error = str(envelope.error) ?? extras.externalMessage;
  if (envelope.status === "skipped") return { status: "skipped", runId, error: error ?? "never ran: an earlier step of the chain failed", ...extras };
  if (error !== undefined || envelope.status === "failed") {
    return {
      status: "failed",
      runId,
      error: error ?? `run ${runId ?? "(no id)"} failed without saying why${runId ? `: read its trace (reduck runs trace ${runId})` : ""}`,
      ...extras,
    };
  }
  if (typeof envelope.status === "string" && PENDING.has(envelope.status)) {
    return { status: "failed", runId, error: `run ${runId ?? "(no id)"} was still ${envelope.status} when its batch ended` };
  }
  if (!isObject(raw) || !("result" in envelope)) {
    return {
      status: "failed",
      runId,
      error: runId
        ? `run ${runId} ended with neither a result nor an error: read its trace (reduck runs trace ${runId}); is the browser signed in to the site?`
        : "a run ended with neither a result nor an error, and the service named no run",
      ...extras,
      code: "no_outcome",
    };
  }
  return { status: "completed", runId, result: envelope.result };
}

/**
 * Steps a sequential chain never ran, as `skipped`. The service says only that "the rest report
 * that they never ran": such a step failed with no run of its own after an earlier failure (or
 * says `errorType: "not_run"`, as the reference server does).
 */
export function markSkipped(runs: RunStepOutcome[], sequential: boolean): RunStepOutcome[] {
  let failedBefore = false;
  return runs.map((r) => {
    const neverRan = r.status === "failed" && (r.errorType === "not_run" || (sequential && failedBefore && r.runId === null));
    if (r.status !== "completed") failedBefore = true;
    return neverRan ? { ...r, status: "skipped" } : r;
  });
}

export function countMismatch(asked: number, answered: number, batchId?: string): RunError {
  return {
    kind: "invalid_response",
    code: "outcome_count",
    error: `asked for ${asked} script${asked === 1 ? "" : "s"}, the service answered for ${answered}${batchId ? ` (batch ${batchId})` : ""}: the outcomes cannot be matched to the scripts, so none is reported`,
    ...(batchId ? { batchId } : {}),
  };
}

/** What runScript and waitForRun resolve to, before its `response` is attached. */
export type EndedResult =
  | { data: RunResponse | BatchRunResponse; error: undefined; outcomes: RunStepOutcome[] }
  | { data: undefined; error: RunError; outcomes: RunStepOutcome[] | undefined };

/**
 * The caller's result for a request whose scripts ended: one outcome per script (else an error,
 * never re-paired), as a `RunResponse` for one `script` (its failure a `run_failed` error) or a
 * `BatchRunResponse` for several. The outcomes are the same either way.
 *
 * @example
 * const result = endedResult({ runs: [stepOutcome({ result: 1, runId: "r1" })], wireFailed: false }, { single: true, expected: 1 });
 * // { data: { result: 1, runId: "r1" }, error: undefined, outcomes: [{ status: "completed", runId: "r1", result: 1 }] }
 */
export function endedResult(ended: Ended, shape: { single: boolean; expected?: number; sequential?: boolean }): EndedResult {
  const { batchId } = ended;
  if (shape.expected !== undefined && ended.runs.length !== shape.expected)
    return { data: undefined, error: countMismatch(shape.expected, ended.runs.length, batchId), outcomes: undefined };
  const runs = markSkipped(ended.runs, shape.sequential === true);
  if (!shape.single) {
    const failed = ended.wireFailed || runs.some((r) => r.status !== "completed");
    return {
      data: { ...(batchId ? { batchId } : {}), status: failed ? "failed" : "completed", totalSteps: runs.length, runs },
      error: undefined,
      outcomes: runs,
    };
  }
  const outcome = runs[0]!;
  if (outcome.status === "completed") return { data: { result: outcome.result, runId: outcome.runId ?? "" }, error: undefined, outcomes: runs };
  return { data: undefined, error: failureOf(outcome, batchId), outcomes: runs };
}

/**
 * A single run's failed outcome as its error: `run_failed` naming the run, with the service's
 * `errorType` and `externalMessage` and any code the library gave the outcome. A failure the
 * service named no run for is an answer that does not hold what a failure must.
 */
export function failureOf(outcome: RunStepOutcome, batchId?: string): RunError {
  const message = outcome.error ?? outcome.externalMessage ?? "the run failed";
  const fields = {
    ...(batchId ? { batchId } : {}),
    ...(outcome.errorType ? { errorType: outcome.errorType } : {}),
    ...(outcome.externalMessage ? { externalMessage: outcome.externalMessage } : {}),
    ...(outcome.code ? { code: outcome.code } : {}),
    ...(outcome.parameter ? { parameter: outcome.parameter } : {}),
    ...(outcome.suggestion ? { suggestion: outcome.suggestion } : {}),
  };
  // `error` is the service's `error`, as for a step and as in an HTTP refusal; `externalMessage` beside it.
  if (outcome.runId) return { kind: "run_failed", error: message, runId: outcome.runId, ...fields };
  return { kind: "invalid_response", ...fields, error: `the service said the run failed but named no run: ${message}` };
}

/** The status update for a batch's runs as far as known. */
export function batchUpdate(status: RunStatus, batchId: string, runs: unknown[], expected: number | undefined, startedAt: number): RunStatusUpdate {
  const envelopes = runs.map((r) => (isObject(r) ? r : {}));
  const done = envelopes.map((e) =>
    typeof e.status === "string" && TERMINAL.has(e.status) ? e.status : "result" in e ? "completed" : e.error !== undefined ? "failed" : undefined,
  );
  return {
    status,
    batchId,
    runIds: envelopes.map((e) => str(e.runId) ?? null),
    total: expected ?? runs.length,
    completed: done.filter((d) => d === "completed").length,
    failed: done.filter((d) => d === "failed").length,
    elapsedMs: Date.now() - startedAt,
  };
}
