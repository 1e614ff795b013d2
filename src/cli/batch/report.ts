/**
 * A batch's report from its results files, for `reduck batch --report` and `reduck batch report`.
 * Each file is read line by line (never whole: a 100,000-row file with results can be hundreds of
 * MB), and may be a running batch's. Several files (a batch's shards) make one report, each row
 * counted once.
 */
import { createReadStream } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { renderBatchReportHtml } from "../../report/batch-page.js";
import { batchStatus } from "../../report/batch-status.js";
import { BatchTally } from "../../report/batch-tally.js";
import { writePage } from "../run/pages.js";

/**
 * Reads results files, in order, into one tally.
 *
 * @example
 * const tally = await readBatchResults(["people.shard-1-of-2.results.jsonl", "people.shard-2-of-2.results.jsonl"]);
 */
export async function readBatchResults(results: readonly string[]): Promise<BatchTally> {
  const tally = new BatchTally();
  for (const file of results) {
    tally.startFile(path.basename(file));
    const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of lines) tally.addLine(line);
  }
  return tally;
}

/**
 * What `reduck batch report --json` prints of a tally: the rows by state, and whether the batch
 * finished or was stopped (`summary`: `stopped after 4 of 40 rows, 36 never sent`; `stops`: why,
 * and the command that carries on).
 */
export function batchReportJson(tally: BatchTally): Record<string, unknown> {
  const { state, summary, inputRows, neverSent, stops } = batchStatus(tally);
  return {
    rows: tally.counts(),
    state,
    summary,
    ...(inputRows !== undefined ? { inputRows } : {}),
    ...(neverSent !== undefined ? { neverSent } : {}),
    ...(stops.length ? { stops } : {}),
  };
}

/**
 * Reads `results` (one file or several) and writes their report to `file`; resolves to the tally.
 *
 * @example
 * const tally = await writeBatchReport("people.results.jsonl", "/tmp/report.html");
 */
export async function writeBatchReport(results: string | readonly string[], file: string): Promise<BatchTally> {
  const files = typeof results === "string" ? [results] : results;
  const tally = await readBatchResults(files);
  await writePage(file, renderBatchReportHtml(tally, { source: files.map((f) => path.basename(f)).join(", ") }));
  return tally;
}
