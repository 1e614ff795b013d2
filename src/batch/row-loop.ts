/**
 * The row loop behind runMany (run-many.ts), every row run once.
 *
 * Each row's request is preceded by a `sending` line in the journal (on disk before the request
 * goes out), and followed by its outcome. Resuming reads the journal: a completed row is never
 * sent again; a row the service gave an id for is waited on; a row that was being sent when the
 * process died is looked for among the script's runs and adopted when found, else marked
 * `unknown` (sent again only when asked). A 429 or 503 pauses and slows the whole batch; it
 * never fails a row.
 *
 * Here the loop starts, hands out its outcomes and ends. Its parts: batch-loop.ts (the state they
 * share, the journal writes), row-scheduler.ts (what is sent next, and when), send-rows.ts (a
 * group's request and its answer), existing-runs.ts (waiting on runs, adopting them),
 * slow-down.ts (429 and 503), row-source.ts (reading the rows), wake-up.ts (waiting for a change).
 */
import { withCallSettings } from "../core/client.js";
import { isClient } from "../core/call.js";
import { settingsOf, settingsProblem } from "../core/wire/call-settings.js";
import type { ReduckError } from "../core/errors.js";
import { BatchLoop } from "./batch-loop.js";
import type { RowOutcome } from "./journal.js";
import { scheduleRows } from "./row-scheduler.js";
import type { BatchCounts, RunManyOptions } from "./run-many-types.js";
import { startBatch } from "./start.js";

/**
 * The row loop of one batch: reads the rows, sends them `concurrency` at a time in groups,
 * journals each step, waits on or adopts what an earlier run left, slows down on 429 and 503,
 * and yields each row's outcome as it ends. Counts go into `counts` as they change; a reason the
 * batch stopped early goes into `state.error`.
 */
export async function* drive(given: RunManyOptions, counts: BatchCounts, state: { error?: ReduckError }): AsyncGenerator<RowOutcome> {
  // The call's own timeout and retries, for every request of the batch (startBatch refuses them when malformed).
  const usable = isClient(given?.client) && !settingsProblem(given, "runMany");
  const options = usable ? { ...given, client: withCallSettings(given.client, settingsOf(given)) } : given;
  // The stop signals come before the journal opens: nothing below may throw with a file held open.
  const stopNow = new AbortController();
  // (startBatch refuses a signal or stop that is not an AbortSignal.)
  const hard = options?.signal instanceof AbortSignal ? AbortSignal.any([options.signal, stopNow.signal]) : stopNow.signal;
  const soft = options?.stop instanceof AbortSignal ? AbortSignal.any([options.stop, hard]) : hard;
  const started = await startBatch(options, (message) => options.onWarning?.(message), counts.totalKnown ? counts.total : undefined);
  if ("error" in started) return void (state.error = started.error);
  const loop = new BatchLoop(options, counts, state, { stopNow, hard, soft }, started);
  const { pending, wake, journal } = loop;

  const schedule = scheduleRows(loop);
  let finished = false;
  void schedule.then(() => {
    finished = true;
    wake.notify();
  });

  try {
    for (;;) {
      while (pending.length) yield pending.shift()!;
      if (finished) break;
      await wake.changed();
    }
    while (pending.length) yield pending.shift()!;
  } finally {
    // A consumer that stops early stops the batch: nothing more is sent.
    if (!finished) stopNow.abort();
    await schedule.catch(() => undefined);
    const why = stoppedEarly(loop);
    if (why && journal) {
      const resume = options.resumeCommand ?? `runMany with \`resume: true\` and \`journal: ${JSON.stringify(options.journal)}\``;
      await journal.append([{ status: "stopped", at: new Date().toISOString(), why, resume }]).catch(() => undefined);
    }
    await journal?.close();
    await loop.source.close();
  }
}

/** Why the batch stopped before every row ended, or undefined when every row did (a report tells the two apart). */
function stoppedEarly({ state, soft, source, again, counts, options }: BatchLoop): string | undefined {
  if (state.error) return state.error.error;
  if (!soft.aborted || (source.done && !again.length && !counts.leftRunning)) return undefined;
  const reason = (signal: AbortSignal | undefined) => (signal?.aborted && typeof signal.reason === "string" ? signal.reason : undefined);
  if (options.signal?.aborted) return reason(options.signal) ?? "stopped at once: the rows in flight were not waited for";
  if (options.stop?.aborted) return reason(options.stop) ?? "stopped: no more rows were sent";
  return "the loop over its outcomes ended early";
}
