/**
 * Rows whose run may already exist at the service: waited on when its id (or its place in a
 * service batch) is known, else looked for among the script's runs and adopted when found, so a
 * row that may have run is never sent again unasked. Both what resuming finds in the journal and
 * a send whose answer was lost end here.
 */
import type { BatchLoop } from "./batch-loop.js";
import type { RowOutcome } from "./journal.js";
import type { PreparedRow } from "./prepare.js";
import { waitForRunEnd, type RunEnd } from "./send.js";

/** A row's outcome, from how its run ended. */
export const outcomeOf = (row: PreparedRow, end: RunEnd): RowOutcome => ({
  row: row.row,
  key: row.key,
  status: end.status,
  runId: end.runId,
  ...(end.status === "completed" ? { result: end.result ?? null } : { error: end.error ?? end.status }),
  ...(end.errorType ? { errorType: end.errorType } : {}),
});

/** Waits for the row's run to end and hands out its outcome; a run still going when the batch stops is left running. */
export async function waitForRow(loop: BatchLoop, row: PreparedRow, target: string | { batchId: string; index: number }): Promise<void> {
  const end = await waitForRunEnd(loop.options.client, typeof target === "string" ? { runId: target } : target, loop.hard);
  if (end === "aborted") loop.counts.leftRunning++;
  else await loop.emit(outcomeOf(row, end));
}

/**
 * Looks for the row's run among the script's runs (`fresh`: a row just sent whose answer was lost;
 * else one an earlier process left `sending`): adopted and waited on when found. Else the row is
 * `unknown`, `why` saying how it came to be; an earlier process's row is sent again instead when
 * the resume retries unknown rows.
 */
export async function adoptRow(loop: BatchLoop, row: PreparedRow, sendingAt: number, fresh: boolean, why: string): Promise<void> {
  const found = await loop.adopter.lookup(row.args, sendingAt, fresh);
  if (loop.hard.aborted) return void loop.counts.leftRunning++;
  if (typeof found === "string" && found !== "unreadable") {
    await loop.write([{ row: row.row, key: row.key, status: "accepted", runId: found }]);
    return waitForRow(loop, row, found);
  }
  if (!fresh && found === undefined && loop.options.retryUnknown) {
    loop.again.push(row);
    return;
  }
  await loop.emit({
    row: row.row,
    key: row.key,
    status: "unknown",
    runId: null,
    error:
      found === "unreadable"
        ? `${why}, and the script's runs could not be read to find out whether it ran: resume later to look again`
        : `${why}, and no run with its arguments was found at the service: it may never have arrived (a resume that retries unknown rows sends it again)`,
  });
}
