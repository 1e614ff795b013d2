/**
 * How a run ended, as the library promises it to its callers: one outcome per script, the
 * answer to one `script` or to several, a pending run's handle, the updates of a wait. The wire's
 * forms are read into these by read-answer.ts.
 *
 * These types are written by hand, not taken from the generated schema: they are the library's
 * promise to its callers, whatever the description of the wire says this week.
 */
import type { ReduckError, ReduckErrorCode, ReduckRunFailedError } from "../core/errors.js";

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
