/**
 * What `reduck run` and `reduck runs wait` print, shared so the two say the same things the same
 * way: the outcomes (stdout: results; stderr: run ids and failures; or one JSON document), the
 * one-line status while a run is polled (on a terminal only), and a pending run's handle.
 */
import { isRunFailure, type RunError, type RunStatusUpdate, type RunStepOutcome, type PendingRun } from "../../run/outcomes.js";
import { inCliWords } from "../shell/cli-words.js";
import { CliError, fromReduckError } from "../shell/errors.js";
import { ExitCode } from "../shell/exit-codes.js";
import { ID_SHAPES, isIdOf } from "../../core/id-shapes.js";
import { terminalLine, writeText } from "../shell/terminal-text.js";

/**
 * A step's outcome as the CLI reports it, as the hosted agent tool does: the library's
 * `RunStepOutcome`, its words in the CLI's, a completed run's id always a string.
 */
export function outcomeOfStep(r: RunStepOutcome): RunStepOutcome {
  if (r.status === "completed") return { status: "completed", runId: r.runId ?? "", result: r.result };
  return {
    status: r.status,
    runId: r.runId,
    error: inCliWords(r.error ?? r.status),
    ...(r.errorType ? { errorType: r.errorType } : {}),
    ...(r.externalMessage ? { externalMessage: inCliWords(r.externalMessage) } : {}),
  };
}

/**
 * A single run's error: an outcome to report when the service recorded the run, otherwise the
 * command's error (the network, a refusal before the run, a wait that could not go on).
 */
export function outcomeOfRunError(error: RunError): RunStepOutcome {
  if (!isRunFailure(error)) throw cliErrorOf(error);
  return {
    status: "failed",
    runId: error.runId,
    error: inCliWords(error.error),
    ...(error.errorType ? { errorType: error.errorType } : {}),
    ...(error.externalMessage ? { externalMessage: inCliWords(error.externalMessage) } : {}),
  };
}

/** The library's error in the CLI's words: a wait that stopped names the command that waits again. */
export function cliErrorOf(error: RunError): CliError {
  let message = error.error.replace(/wait for it again with waitForRun\(\{[^}]*\}\) or `([^`]+)`/, "wait for it again with `$1`");
  // A wait that failed (the network, a 5xx past the retries) left the run going: say how to resume.
  const id = error.batchId ?? error.runId;
  if (id && error.kind !== "run_failed" && error.status !== 404 && !message.includes("reduck runs wait")) {
    message += `; the run goes on at the service: wait for it again with \`reduck runs wait ${id}\``;
  }
  const cli = fromReduckError({ ...error, error: message });
  if (error.batchId) cli.detail.batchId = error.batchId;
  if (error.errorType) cli.detail.errorType = error.errorType;
  return cli;
}

/**
 * The run and batch ids an answer gave, checked against their documented shape before one is
 * printed (and copied into `reduck runs wait ID`): a malformed one fails the command (exit 1).
 */
function checkIds(ids: Array<{ kind: "run id" | "batch id"; value: string | null | undefined }>): void {
  for (const { kind, value } of ids) {
    if (value === null || value === undefined || value === "" || isIdOf(kind, value)) continue;
    const shown = value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}...` : JSON.stringify(value);
    throw new CliError(
      `the service's answer is not as documented: it names the run by a ${kind} ${shown} (expected ${ID_SHAPES[kind].shape})`,
      ExitCode.FAILED,
      {
        kind: "invalid_response",
      },
    );
  }
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
  checkIds([{ kind: "batch id", value: batch?.batchId }, ...outcomes.map((o) => ({ kind: "run id" as const, value: o.runId }))]);
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
  if (o.status !== "failed" || !o.runId || (o.errorType && NO_TRACE.has(o.errorType))) return undefined;
  return `  see what it did: reduck runs trace ${o.runId} --open`;
}

/** A run still going (`--no-wait`): its handle, and how to wait for it. Exit 0. */
export function printPending(out: Printer, pending: PendingRun): void {
  checkIds([{ kind: "batch id", value: pending.batchId }, ...[pending.runId, ...(pending.runIds ?? [])].map((value) => ({ kind: "run id" as const, value }))]);
  const id = pending.batchId ?? pending.runId!;
  if (out.json) return out.printJson(pending);
  writeText(process.stderr, `The run is ${pending.status} at the service. Wait for its outcome with:\n  reduck runs wait ${id}\n`);
  // stdout is the id alone, so `id=$(reduck run --no-wait ...)` works.
  writeText(process.stdout, `${id}\n`);
}

/** "1m12s", "8s". */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s` : `${s}s`;
}

const CLEAR_LINE = "\r\x1b[K";

/**
 * `running 3/5 · 1m12s` on stderr while a run is polled, redrawn each second, when stderr is a
 * terminal; nothing at all otherwise (pipes and logs stay clean).
 */
export function statusLine(stream: NodeJS.WriteStream) {
  const enabled = Boolean(stream.isTTY) && !process.env.CI;
  let last: RunStatusUpdate | undefined;
  let seenAt = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  const draw = () => {
    if (!last) return;
    const elapsed = last.elapsedMs + (Date.now() - seenAt);
    stream.write(`${CLEAR_LINE}${last.status} ${last.completed + last.failed}/${last.total} · ${formatElapsed(elapsed)}`);
  };
  return {
    update(u: RunStatusUpdate) {
      if (!enabled) return;
      last = u;
      seenAt = Date.now();
      draw();
      if (!timer) {
        timer = setInterval(draw, 1000);
        timer.unref();
      }
    },
    done() {
      if (timer) clearInterval(timer);
      timer = undefined;
      if (last && enabled) stream.write(CLEAR_LINE);
      last = undefined;
    },
  };
}
