/**
 * How run_script and read_run_results answer: a run's outcome (one script's, or each step's)
 * in the hosted tool's shape, results shortened to what one answer carries, a failure with
 * where to look next, or the handle of a run still going.
 */
import { isRunFailure, type BatchRunResponse, type PendingRun, type RunError, type RunStepOutcome } from "../../run/outcomes.js";
import { answer, failWith, type ToolResult } from "./answers.js";
import { boundJson, shownText } from "./bounded.js";
import { FULL_RESULT_CHARS, MESSAGE_CHARS, RESULT_CHARS } from "./limits.js";
import { count } from "../../core/words/count.js";

/** How an outcome is shown: results whole (`fullOutput`) or shortened, and the hold a handle's `next` names. */
export interface Shown {
  full: boolean;
  holdMs: number;
}

/** A run still going: its handle, and the one call that gets its outcome. */
export function handleAnswer(pending: PendingRun, holdMs: number): ToolResult {
  const id = pending.batchId ? { batchId: pending.batchId } : { runId: pending.runId! };
  const { retryAfterMs: _wait, ...handle } = pending;
  return answer({
    ...handle,
    next: `Still ${pending.status} at the service (nothing is lost, do not run it again). Call read_run_results with ${JSON.stringify(id)} to get the outcome; it waits up to ${Math.round(holdMs / 1000)} s and may hand back this handle again.`,
  });
}

/** Results shortened to what one answer carries, and the sentence that says so when anything was cut. */
function shownResults<T extends { result?: unknown }>(runs: T[], full: boolean): { runs: T[]; shortened?: string } {
  const total = full ? FULL_RESULT_CHARS : RESULT_CHARS;
  const each = Math.max(2_000, Math.floor(total / Math.max(1, runs.length)));
  let cut = false;
  const out = runs.map((run) => {
    if (!("result" in run)) return run;
    const bounded = boundJson(run.result, each);
    cut ||= bounded.cut;
    return { ...run, result: bounded.value };
  });
  if (!cut) return { runs: out };
  return {
    runs: out,
    shortened: full
      ? `A result was longer than ${count(each)} characters of JSON and was shortened even with fullOutput (long strings and lists cut where marked "…").`
      : `A result was longer than ${count(each)} characters of JSON and was shortened (long strings and lists cut where marked "…"): call read_run_results with its runId and fullOutput: true for the whole result.`,
  };
}

/** The sentence that says where to look when a run failed: its browser, or its trace. */
const traceHint = (runId: string | null | undefined, errorType?: string) =>
  errorType === "browser_unavailable"
    ? 'list_devices shows your paired browsers and their ids; browser: "cloud" runs on a hosted one.'
    : runId
      ? `read_run_trace with { "runId": "${runId}" } shows the steps it took and a screenshot of the page where it stopped.`
      : undefined;

/** The service's text about a failure, bounded. */
const failureFields = (f: { error?: string; errorType?: string; externalMessage?: string }) => ({
  ...(f.error !== undefined ? { error: shownText(f.error, MESSAGE_CHARS) } : {}),
  ...(f.errorType ? { errorType: shownText(f.errorType, 200) } : {}),
  ...(f.externalMessage ? { externalMessage: shownText(f.externalMessage, MESSAGE_CHARS) } : {}),
});

/**
 * How the runs ended, from the library's outcomes (one per script, a single script's failure
 * included), in the hosted tool's shape; one script's batch of one as that script.
 */
export function outcomeAnswer(outcomes: RunStepOutcome[], ended: { data?: unknown; error?: RunError }, single: boolean, shown: Shown): ToolResult {
  const batch = isBatch(ended.data) ? (({ runs: _, ...fields }) => fields)(ended.data) : undefined;
  const batchId = batch?.batchId ?? ended.error?.batchId;
  const only = outcomes[0];
  if (single && outcomes.length === 1 && only) {
    if (only.status === "completed") return completedAnswer(only.runId ?? undefined, only.result, shown);
    const next = traceHint(only.runId, only.errorType);
    return answer({ status: "failed", runId: only.runId, ...failureFields(only), ...(batchId ? { batchId } : {}), ...(next ? { next } : {}) }, true);
  }
  const { runs, shortened } = shownResults(
    outcomes.map((run) => ({ ...run, ...failureFields(run) })),
    shown.full,
  );
  const failed = runs.find((r) => r.status === "failed" && r.runId);
  const next = failed ? traceHint(failed.runId, failed.errorType) : undefined;
  return answer({ ...batch, runs, ...(shortened ? { shortened } : {}), ...(next ? { next } : {}) });
}

const isBatch = (data: unknown): data is BatchRunResponse => typeof data === "object" && data !== null && "runs" in data;

function completedAnswer(runId: string | undefined, result: unknown, shown: Shown): ToolResult {
  const { runs, shortened } = shownResults([{ result }], shown.full);
  return answer({ status: "completed", runId, result: runs[0]!.result, ...(shortened ? { shortened } : {}) });
}

/** A run that was recorded and failed answers in the same shape as one that completed. */
export function runErrorAnswer(error: RunError): ToolResult {
  if (isRunFailure(error)) {
    const next = traceHint(error.runId, error.errorType);
    return answer(
      {
        status: "failed",
        runId: error.runId,
        ...failureFields(error),
        ...(error.batchId ? { batchId: error.batchId } : {}),
        ...(next ? { next } : {}),
      },
      true,
    );
  }
  return failWith(error);
}
