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
 */
import { isObject } from "../core/json.js";
import type { BatchRunResponse, RunError, RunResponse, RunStatus, RunStatusUpdate, RunStepOutcome } from "./outcomes.js";

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

/**
 * Reads a 2xx answer's parsed body. Its ids are kept as the service gave them: each is checked
 * where it becomes part of a URL (a poll, a trace: core/path-ids.ts), a file name or a journal line.
 */
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
 * says `errorType: "not_run"`, as the sandbox does).
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
  const error = failureOf(outcome, batchId);
  // A script refused before any run was made has no outcome, as a refused request has none.
  return { data: undefined, error, outcomes: error.kind === "run_failed" ? runs : undefined };
}

/**
 * A single run's failed outcome as its error: `run_failed` naming the run, with the service's
 * `errorType` and `externalMessage` and any code the library gave the outcome. A failure the
 * service named no run for is its refusal of the script before any run was made (an unknown
 * script or version): `run_refused`, with the service's words.
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
  return { kind: "invalid_request", ...fields, code: outcome.code ?? "run_refused", error: message };
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
