/**
 * One group of rows sent as one request: `sending` journaled before it goes out, `accepted` as
 * the service gives ids, and then what the answer means for the rows and for the batch (ended,
 * refused for now, lost, or fatal).
 */
import { sleep } from "../core/wire/abort.js";
import type { BatchLoop } from "./batch-loop.js";
import { adoptRow, outcomeOf } from "./existing-runs.js";
import type { PreparedRow } from "./prepare.js";
import { sendGroup } from "./send.js";

/** Sends the group and acts on the answer; rows refused for now go back to the front of the line. */
export async function sendRows(loop: BatchLoop, group: PreparedRow[]): Promise<void> {
  const { options, counts } = loop;
  const at = new Date();
  await loop.write(group.map((r) => ({ row: r.row, key: r.key, status: "sending", at: at.toISOString() })));
  let accepted: Promise<void> = Promise.resolve();
  let lastAccepted = "";
  const answer = await sendGroup({
    client: options.client,
    script: loop.script,
    rows: group,
    browser: options.browser,
    headers: options.headers,
    waitForSeconds: options.waitForSeconds,
    signal: loop.hard,
    onAccepted: ({ batchId, runIds }) => {
      // Told after every poll: journal only what is new.
      const known = JSON.stringify([batchId, runIds]);
      if (known === lastAccepted) return;
      lastAccepted = known;
      const lines = group.map((r, i) => ({
        row: r.row,
        key: r.key,
        status: "accepted" as const,
        ...(runIds[i] ? { runId: runIds[i]! } : {}),
        ...(batchId ? { batchId, index: i } : {}),
      }));
      accepted = accepted.then(() => loop.write(lines)).catch(() => undefined);
    },
  });
  await accepted;
  switch (answer.kind) {
    case "ended":
      loop.pace.answered();
      await loop.emit(...group.map((row, i) => outcomeOf(row, answer.ends[i]!)));
      return;
    case "throttled": {
      await loop.write(group.map((r) => ({ row: r.row, key: r.key, status: "unsent" })));
      const pause = loop.pace.throttled(answer.retryAfterMs);
      loop.again.unshift(...group);
      const allowed = loop.pace.allowed;
      loop.warn(`${answer.why}: slowing down (${allowed} row${allowed === 1 ? "" : "s"} in flight), next request in ${(pause / 1000).toFixed(1)} s`);
      return;
    }
    case "uncertain":
      // The request may have started runs: find them rather than send again.
      await sleep(500, loop.hard).catch(() => undefined);
      await Promise.all(group.map((row) => adoptRow(loop, row, at.getTime(), true, `no answer to rely on (${answer.why})`)));
      return;
    case "fatal":
      await loop.write(group.map((r) => ({ row: r.row, key: r.key, status: "unsent" }))).catch(() => undefined);
      loop.state.error ??= answer.error;
      loop.stopNow.abort();
      return;
    case "aborted":
      // Sent, and the batch stopped waiting before the service answered.
      counts.leftRunning += group.length;
      return;
  }
}
