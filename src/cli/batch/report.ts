/**
 * A batch's report from its results file, for `reduck batch --report` and `reduck batch report`.
 * The file is read line by line (never whole: a 100,000-row file with results can be hundreds of
 * MB), and may be a running batch's.
 */
import { createReadStream } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { renderBatchReportHtml } from "../../report/batch-page.js";
import { BatchTally } from "../../report/batch-tally.js";
import { writePage } from "../run/pages.js";

/**
 * Reads `results` and writes its report to `file`; resolves to the counts it found.
 *
 * @example
 * const counts = await writeBatchReport("people.results.jsonl", "/tmp/report.html");
 */
export async function writeBatchReport(results: string, file: string): Promise<ReturnType<BatchTally["counts"]>> {
  const tally = new BatchTally();
  const lines = createInterface({ input: createReadStream(results), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) tally.addLine(line);
  await writePage(file, renderBatchReportHtml(tally, { source: path.basename(results) }));
  return tally.counts();
}
