/**
 * A results file read into a report: each row's last state (a row sent again is in flight again),
 * failures grouped by their error whatever ids and numbers they carry, durations from the
 * `sending` line to the outcome, a running batch's file and a torn last line read without fuss.
 */
import { describe, expect, test } from "vitest";
import { renderBatchReportHtml } from "../../src/report/batch-page.js";
import { batchStatus } from "../../src/report/batch-status.js";
import { BatchTally } from "../../src/report/batch-tally.js";

const at = (s: number) => new Date(Date.UTC(2026, 2, 2, 14, 0, s)).toISOString();
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

/** A results file as `reduck batch` writes it. */
function journal(): string[] {
  const lines: unknown[] = [{ status: "batch", script: "reduck/mail.google.com/send_email", versionId: "v3", shared: { subject: "Hi" } }];
  for (let row = 1; row <= 10; row++) lines.push({ row, key: `k${row}`, status: "sending", at: at(row) });
  for (let row = 1; row <= 6; row++) lines.push({ row, key: `k${row}`, status: "completed", runId: uuid(row), result: { n: row }, at: at(row + row) });
  lines.push({ row: 7, key: "k7", status: "failed", runId: uuid(7), error: `run ${uuid(7)} timed out after 30 s`, errorType: "timeout", at: at(40) });
  lines.push({ row: 8, key: "k8", status: "failed", runId: uuid(8), error: `run ${uuid(8)} timed out after 31 s`, errorType: "timeout", at: at(41) });
  lines.push({
    row: 9,
    key: "k9",
    status: "failed",
    runId: uuid(9),
    error: "<img src=x onerror=alert(1)> the button is gone",
    errorType: "site_error",
    at: at(42),
  });
  // Row 10 is still in flight; row 11 was refused for now (429); row 3 was sent again (--retry-failed style).
  lines.push({ row: 10, key: "k10", status: "accepted", runId: uuid(10) });
  lines.push({ row: 11, key: "k11", status: "sending", at: at(50) }, { row: 11, key: "k11", status: "unsent" });
  lines.push({ row: 3, key: "k3", status: "sending", at: at(60) });
  lines.push({ row: 12, key: "k12", status: "invalid", runId: null, error: "to must be an email address" });
  return lines.map((l) => JSON.stringify(l));
}

describe("BatchTally", () => {
  test("each row's last state; counts by status", () => {
    const tally = new BatchTally();
    for (const line of journal()) tally.addLine(line);
    expect(tally.counts()).toEqual({ total: 12, completed: 5, failed: 3, invalid: 1, unknown: 0, sending: 1, accepted: 1, unsent: 1 });
    expect(tally.header).toEqual({ script: "reduck/mail.google.com/send_email", versionId: "v3", shared: { subject: "Hi" } });
    const rows = tally.rows();
    expect(rows.map((r) => r.row)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(rows.find((r) => r.row === 3)).toMatchObject({ state: "sending", runId: undefined, durationMs: undefined });
    expect(rows.find((r) => r.row === 10)).toMatchObject({ state: "accepted", runId: uuid(10) });
  });

  test("durations: from the row's sending line to its outcome's `at`", () => {
    const tally = new BatchTally();
    for (const line of journal()) tally.addLine(line);
    expect(tally.rows().find((r) => r.row === 5)!.durationMs).toBe(5_000);
    expect(tally.rows().find((r) => r.row === 7)!.durationMs).toBe(33_000);
    expect(tally.rows().find((r) => r.row === 12)!.durationMs).toBeUndefined();
  });

  test("errors that differ only in ids and numbers are one group, which says its messages vary", () => {
    const tally = new BatchTally();
    for (const line of journal()) tally.addLine(line);
    const groups = tally.rows().filter((r) => r.group !== undefined);
    expect(groups.find((r) => r.row === 7)!.group).toBe(groups.find((r) => r.row === 8)!.group);
    expect(groups.find((r) => r.row === 9)!.group).not.toBe(groups.find((r) => r.row === 7)!.group);
    expect(tally.groups[groups.find((r) => r.row === 7)!.group!]).toEqual({
      status: "failed",
      errorType: "timeout",
      example: `run ${uuid(7)} timed out after 30 s`,
      varies: true,
    });
  });

  test("a torn last line and lines that are no journal lines are counted and named, never fatal", () => {
    const tally = new BatchTally();
    for (const line of [...journal(), "not json", '{"hello": 1}', '{"row": 13, "key": "k13", "stat']) tally.addLine(line);
    expect(tally.ignored).toBe(3);
    expect(tally.warnings).toEqual([
      expect.stringMatching(/^line 26 is not JSON/),
      "line 27 is not a journal line",
      expect.stringMatching(/^line 28 is not JSON \(a line still being written/),
    ]);
    expect(tally.counts().total).toBe(12);
  });

  test("runMany's outcomes as values, without keys: each row by its number", () => {
    const tally = new BatchTally();
    tally.add({ row: 1, status: "completed", runId: "r1" });
    tally.add({ row: 2, status: "failed", runId: "r2", error: "boom" });
    expect(tally.counts()).toMatchObject({ total: 2, completed: 1, failed: 1 });
  });
});

describe("renderBatchReportHtml", () => {
  const html = renderBatchReportHtml(journal().join("\n"), { source: "people.results.jsonl", generatedAt: new Date(Date.UTC(2026, 2, 2)) });

  test("counts by status, and what was still running", () => {
    expect(html).toContain("<b>12</b>rows");
    expect(html).toContain("<b>5</b>completed");
    expect(html).toContain("<b>3</b>failed");
    expect(html).toContain("<b>2</b>in flight");
    expect(html).toContain("3 rows were not finished when this report was made");
  });

  test("failures grouped by error, the most common first, with their rows and runs; hostile text stays text", () => {
    const first = html.indexOf('id="error-1"');
    const second = html.indexOf('id="error-2"');
    expect(first).toBeGreaterThan(0);
    expect(html.slice(first, second)).toContain("2 rows");
    expect(html.slice(first, second)).toContain('Rows: <span class="mono">7&ndash;8</span>');
    expect(html.slice(first, second)).toContain(uuid(7));
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt; the button is gone");
    expect(html).not.toContain("<img");
  });

  test("every row, by number and run id, with its state and error group", () => {
    expect(html).toMatch(new RegExp(`row 7 +failed +${uuid(7)}  33\\.0 s  error #1`));
    expect(html).toMatch(/row 12 +invalid +-  error #\d/);
    expect(html).toMatch(/row 11 +waiting +-/);
  });

  test("the duration histogram counts the rows that ended", () => {
    expect(html).toMatch(/From a row's request going out to its outcome.*for 8 rows/);
    expect(html).toContain("<dt>longest</dt><dd>33.0 s</dd>");
  });

  test("an empty file is a report that says so", () => {
    const empty = renderBatchReportHtml("");
    expect(empty).toContain("The results file holds no row yet.");
    expect(empty).toContain("<b>0</b>rows");
  });
});

describe("a report's page: title, order of failures, errors said once", () => {
  test("the <title> is text with a real middle dot, never a literal entity", () => {
    const html = renderBatchReportHtml(journal().join("\n"));
    expect(html).toContain("<title>Batch report: reduck/mail.google.com/send_email · 12 rows</title>");
    expect(html).not.toContain("&amp;middot;");
  });

  test("failures of one row each are listed in row order, whatever order the file met them", () => {
    const lines = [5, 2, 9].map((row) =>
      JSON.stringify({ row, key: `k${row}`, status: "failed", runId: null, error: `the ${"?abcdefghi"[row]} button is gone` }),
    );
    const html = renderBatchReportHtml(lines.join("\n"));
    const order = [...html.matchAll(/Rows: <span class="mono">(\d+)<\/span>/g)].map((m) => Number(m[1]));
    expect(order).toEqual([2, 5, 9]);
  });

  test("an older journal's error said twice (`Error: X (… failed on the site: X)`) is shown once", () => {
    const line = { row: 1, key: "k1", status: "failed", runId: null, error: "Error: Out of stock (reduck/x.com/y failed on the site: Out of stock)" };
    const html = renderBatchReportHtml(JSON.stringify(line));
    expect(html).toContain("<pre>reduck/x.com/y failed on the site: Out of stock</pre>");
    const different = renderBatchReportHtml(JSON.stringify({ ...line, error: "timeout (The page took too long)" }));
    expect(different).toContain("<pre>timeout (The page took too long)</pre>");
  });
});

describe("a stopped batch, told from a finished one", () => {
  const header = { status: "batch", script: "reduck/mail.google.com/send_email", versionId: "v3", shared: {} };
  const done = (row: number) => ({ row, key: `k${row}`, status: "completed", runId: uuid(row), result: {}, at: at(row) });
  const stopped = {
    status: "stopped",
    at: at(30),
    why: "interrupted (Ctrl-C): no more rows were sent",
    resume: "reduck batch --script x --input p.csv --resume",
  };

  test("stopped after N of M rows, K never sent, with the command that carries on; no green 'No row failed.'", () => {
    const tally = new BatchTally();
    for (const line of [header, { status: "started", at: at(0), rows: 40 }, done(1), done(2), done(3), done(4), stopped]) tally.add(line);
    expect(batchStatus(tally)).toMatchObject({
      state: "stopped",
      inputRows: 40,
      ended: 4,
      neverSent: 36,
      summary: "stopped after 4 of 40 rows, 36 never sent",
    });
    const html = renderBatchReportHtml(tally);
    expect(html).toContain('<div class="callout stopped" id="stopped"><b>Stopped after 4 of 40 rows, 36 never sent.</b>');
    expect(html).toContain("To carry on: <code>reduck batch --script x --input p.csv --resume</code>");
    expect(html).toContain("<b>40</b>rows");
    expect(html).toContain("<b>36</b>never sent");
    expect(html).toContain("No row failed of those that ended.");
    expect(html).toContain("· 40 rows · stopped</title>");
  });

  test("a later start (a resume) clears the stop; finished once every row ended", () => {
    const tally = new BatchTally();
    const rows = Array.from({ length: 4 }, (_, i) => done(i + 1));
    for (const line of [header, { status: "started", at: at(0), rows: 4 }, rows[0], stopped, { status: "started", at: at(40), rows: 4 }, ...rows.slice(1)])
      tally.add(line);
    expect(batchStatus(tally)).toMatchObject({ state: "finished", stops: [], summary: "finished: all 4 rows ended" });
    expect(renderBatchReportHtml(tally)).not.toContain("callout stopped");
  });

  test("a journal written before these lines still reads: finished or in flight, the input's size unknown", () => {
    const tally = new BatchTally();
    for (const line of journal()) tally.addLine(line);
    const status = batchStatus(tally);
    expect(status).toMatchObject({ state: "unfinished", ended: 9, inFlight: 2, stops: [] });
    expect(status.inputRows).toBeUndefined();
    const finished = new BatchTally();
    for (const line of [header, done(1), done(2)]) finished.add(line);
    expect(batchStatus(finished)).toMatchObject({ state: "finished", summary: "finished: all 2 rows ended" });
  });

  test("several results files (shards) make one tally: their rows once each, their input rows summed, a stop in one is the batch's", () => {
    const tally = new BatchTally();
    tally.startFile("a.results.jsonl");
    for (const line of [header, { status: "started", at: at(0), rows: 2, shard: "1/2" }, done(1), done(3)]) tally.add(line);
    tally.startFile("b.results.jsonl");
    for (const line of [header, { status: "started", at: at(0), rows: 3, shard: "2/2" }, done(2), stopped]) tally.add(line);
    // The first file again: its rows are not counted twice.
    tally.startFile("a.results.jsonl");
    for (const line of [header, { status: "started", at: at(0), rows: 2, shard: "1/2" }, done(1), done(3)]) tally.add(line);
    expect(tally.counts()).toMatchObject({ total: 3, completed: 3 });
    expect(batchStatus(tally)).toMatchObject({
      state: "stopped",
      inputRows: 7,
      stops: [{ source: "b.results.jsonl", why: stopped.why, resume: stopped.resume }],
    });
  });
});
