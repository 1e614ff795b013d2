/**
 * What `reduck run` and `reduck runs wait` print, shared so the two say the same things the same
 * way: the outcomes (stdout: results; stderr: run ids and failures; or one JSON document), the
 * one-line status while a run is polled (on a terminal only), and a pending run's handle.
 */
import { isPendingRun, type BatchRunResponse, type PendingRun, type RunStepOutcome } from "../../run/outcomes.js";
import type { RunResult } from "../../run/run-types.js";
import { inCliWords } from "../shell/cli-words.js";
import { fromReduckError } from "../shell/errors.js";
import { ExitCode } from "../shell/exit-codes.js";
import { isIdOf } from "../../core/id-shapes.js";
import { terminalLine, writeText } from "../shell/terminal-text.js";

/**
 * A step's outcome as the CLI reports it: the library's outcome as it is, with the service's
 * sentences in its failure given the CLI's way out.
 */
export function wordOutcome(outcome: RunStepOutcome): RunStepOutcome {
  return {
    ...outcome,
    ...(outcome.error !== undefined ? { error: inCliWords(outcome.error) } : {}),
    ...(outcome.externalMessage !== undefined ? { externalMessage: inCliWords(outcome.externalMessage) } : {}),
  };
}

/** The outcomes to print, in the CLI's words, and a batch's own fields. */
export interface EndedRuns {
  outcomes: RunStepOutcome[];
  batch?: { batchId?: string; status: string; totalSteps: number };
}

/** What runScript's result asks the CLI to print: the handle of a run still going, or how the runs ended. */
export type RunReport = { pending: PendingRun } | EndedRuns;

/**
 * runScript's result as what to print: a pending run's handle (`--no-wait`), or how the runs ended.
 *
 * @example
 * const report = reportOf(await runScript({ client, scripts }));
 * if ("pending" in report) printPending(printer, report.pending);
 * else printOutcomes(printer, report.outcomes, report.batch, labels);
 */
export function reportOf(result: RunResult<unknown>): RunReport {
  if (result.data !== undefined && isPendingRun(result.data)) return { pending: result.data };
  return endedOf(result);
}

/**
 * How the runs of a result ended: the library's outcomes in the CLI's words; an error that left
 * no outcome (the network, a refusal before any run, a wait that stopped) is the command's error.
 *
 * @example
 * const { outcomes, batch } = endedOf(await waitForRun({ client, batchId }));
 */
export function endedOf(result: RunResult<unknown>): EndedRuns {
  if (!result.outcomes) throw fromReduckError(result.error!);
  const outcomes = result.outcomes.map(wordOutcome);
  const data = result.data as BatchRunResponse | undefined;
  if (!data || !("runs" in data)) return { outcomes };
  const { runs: _, ...batch } = data;
  return { outcomes, batch };
}

export interface Printer {
  json: boolean;
  note(message: string): void;
  printJson(value: unknown): void;
}

/**
 * Prints the outcomes and sets the exit code (1 when any failed). `labels` name the steps in
 * lines about several; `failures` are the command's own (a download that could not be saved).
 */
export function printOutcomes(
  out: Printer,
  outcomes: RunStepOutcome[],
  batch: { batchId?: string; status: string; totalSteps: number } | undefined,
  labels: string[],
  failures: string[] = [],
): void {
  const failed = outcomes.some((o) => o.status !== "completed") || failures.length > 0;
  if (failed) process.exitCode = ExitCode.FAILED;
  if (out.json) {
    out.printJson(batch ? { ...batch, runs: outcomes } : outcomes[0]);
    for (const f of failures) writeText(process.stderr, `Error: ${f}\n`);
    return;
  }
  const several = outcomes.length > 1;
  for (const [i, o] of outcomes.entries()) {
    const label = several ? `${labels[i] ?? `step ${i + 1}`}: ` : "";
    // People read the service's own words for a failure when it gave them, on the failure's one line.
    const why = o.status === "completed" ? "" : terminalLine(o.externalMessage ?? o.error ?? o.status);
    if (o.status === "completed") out.note(`${label}run ${o.runId}`);
    else if (o.status === "skipped") writeText(process.stderr, `${label}skipped: ${why}\n`);
    else {
      writeText(process.stderr, `${several ? label : "Error: "}${o.runId ? `run ${o.runId} failed` : "failed"}: ${why}\n`);
      const look = traceHint(o);
      if (look) writeText(process.stderr, `${look}\n`);
    }
  }
  for (const f of failures) writeText(process.stderr, `Error: ${f}\n`);
  if (batch) out.printJson(outcomes.map((o) => (o.status === "completed" ? o.result : null)));
  else if (outcomes[0]!.status === "completed") out.printJson(outcomes[0]!.result);
}

/** Failures the service records before any step, so with no trace to look at. */
const NO_TRACE = new Set(["invalid_input", "browser_unavailable", "not_run"]);

/**
 * For a run that failed on its way (a step, the site, a timeout), the command that shows what it
 * did; undefined when there is nothing to see.
 *
 * @example
 * traceHint({ status: "failed", runId: "86b0…", errorType: "site_error" }); // "  see what it did: reduck runs trace 86b0… --open"
 */
export function traceHint(o: RunStepOutcome): string | undefined {
  if (o.status !== "failed" || !isIdOf("run id", o.runId) || (o.errorType && NO_TRACE.has(o.errorType))) return undefined;
  return `  see what it did: reduck runs trace ${o.runId} --open`;
}

/** A run still going (`--no-wait`): its handle, and how to wait for it. Exit 0. */
export function printPending(out: Printer, pending: PendingRun): void {
  const id = pending.batchId ?? pending.runId!;
  if (out.json) return out.printJson(pending);
  // An id is shown as text (sanitised); a command to copy is offered only for an id it can take.
  const how = isIdOf("batch id", id)
    ? `Wait for its outcome with:\n  reduck runs wait ${id}`
    : `Its id, ${JSON.stringify(id)}, is not a UUID, so it cannot be waited on.`;
  writeText(process.stderr, `The run is ${pending.status} at the service. ${how}\n`);
  // stdout is the id alone, so `id=$(reduck run --no-wait ...)` works.
  writeText(process.stdout, `${id}\n`);
}
