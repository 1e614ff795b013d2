/**
 * The scheduler of a batch's rows: reads the next rows while there is room in flight, sends them
 * in groups, waits out a pause the service asked for, and ends once every row is read and every
 * job has ended (or the batch is stopped).
 */
import { sleep } from "../core/wire/abort.js";
import type { BatchLoop } from "./batch-loop.js";
import { adoptRow, waitForRow } from "./existing-runs.js";
import type { PreparedRow } from "./prepare.js";
import { planRow } from "./resume.js";
import type { RowValues } from "./rows.js";
import { sendRows } from "./send-rows.js";

/** Runs until there is nothing more to send or wait for; wakes the consumer whenever it ends. */
export async function scheduleRows(loop: BatchLoop): Promise<void> {
  const { counts, running, soft } = loop;
  const nextToSend = rowPicker(loop);
  try {
    for (;;) {
      if (soft.aborted) break;
      const pause = loop.pace.pauseLeft();
      if (pause > 0) {
        loop.progress();
        await sleep(pause, soft).catch(() => undefined);
        continue;
      }
      const room = loop.pace.allowed - counts.inFlight;
      if (room <= 0) {
        await loop.wake.changed();
        continue;
      }
      const group: PreparedRow[] = [];
      while (group.length < Math.min(loop.groupSize, room)) {
        const row = await nextToSend();
        if (!row) break;
        group.push(row);
      }
      if (group.length) {
        loop.track(sendRows(loop, group), group.length);
        continue;
      }
      if (running.size === 0 && loop.source.done && !loop.again.length) break;
      if (running.size) await Promise.race([loop.wake.changed(), ...running]);
    }
    await Promise.all(running);
  } finally {
    loop.wake.notify();
  }
}

/** The next row to send; rows that need no request (done earlier, invalid, to wait on) are dealt with on the way. */
function rowPicker(loop: BatchLoop): () => Promise<PreparedRow | undefined> {
  const { counts, options, source } = loop;
  let rowsRead = 0;
  return async () => {
    if (loop.again.length) return loop.again.shift();
    while (!source.done && !loop.soft.aborted) {
      let next: IteratorResult<RowValues>;
      try {
        next = await source.next();
      } catch (err) {
        loop.fail(`the rows could not be read: ${(err as Error).message}`, "rows_unreadable");
        loop.stopNow.abort();
        return undefined;
      }
      if (next.done) return undefined;
      const check = await loop.preparer.prepare(next.value);
      // Another shard's row: another machine sends it.
      if (!check) continue;
      // A total known ahead stays; rows beyond it (a count that fell short) still count.
      rowsRead++;
      if (rowsRead > counts.total) counts.total = rowsRead;
      const plan = planRow(loop.contents.states.get(check.key), check.ok, options);
      if (plan.kind === "earlier") {
        counts[plan.status]++;
        counts.earlier++;
        loop.progress();
        continue;
      }
      if (!check.ok) {
        await loop.emit({ row: check.row, key: check.key, status: "invalid", runId: null, error: check.problems.join("; ") });
        continue;
      }
      const row = check.prepared;
      if (plan.kind === "wait") loop.track(waitForRow(loop, row, plan.target), 1);
      else if (plan.kind === "adopt") loop.track(adoptRow(loop, row, plan.sendingAt, false, "it was being sent when the batch stopped"), 1);
      else return row;
    }
    return undefined;
  };
}
