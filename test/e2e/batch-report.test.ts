/**
 * A batch's report, end to end: `reduck batch --report FILE` writes it when the batch ends (with
 * failing and invalid rows), `reduck batch report RESULTS.jsonl` makes it from any results file (a
 * running batch's too), `--open` hands it to $BROWSER. The built CLI against the sandbox over
 * loopback HTTP; the page is read as text here (batch-report.slow.test.ts opens it in Chromium).
 */
import { existsSync } from "node:fs";
import { chmod, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import { runCli } from "../support/cli.js";
import { waitFor } from "../support/wait.js";
import { env, folder, journal, store, useBatchSandbox } from "./batch-sandbox.js";

useBatchSandbox();

/** Eight rows: two fail on the site (the same error, with their row's name in it), one is invalid. */
async function rows(dir: string): Promise<string> {
  const input = path.join(dir, "people.jsonl");
  const lines = ["r1", "r2", "boom", "r4", "boom", "r6", "r7"].map((name, i) => JSON.stringify({ name, n: i + 1 }));
  lines.push(JSON.stringify({ name: "bad", n: -1 }));
  await writeFile(input, `${lines.join("\n")}\n`);
  return input;
}

/** A batch of `rows` slow rows with a report, sent SIGINT once its first row has completed. */
async function interruptedBatch(name: string, prefix: string, rows: number) {
  const dir = await folder();
  const input = path.join(dir, `${name}.jsonl`);
  await writeFile(input, `${Array.from({ length: rows }, (_, i) => JSON.stringify({ name: `${prefix}${i}` })).join("\n")}\n`);
  const out = path.join(dir, `${name}.results.jsonl`);
  const report = path.join(dir, `${name}.html`);
  const r = await runCli(["batch", "--script", "rows.example/slow", "--input", input, "--concurrency", "2", "--report", report], {
    env,
    onStart: (child) => {
      void waitFor("a first row to complete", async () => existsSync(out) && (await readFile(out, "utf8")).includes('"completed"')).then(() =>
        child.kill("SIGINT"),
      );
    },
  });
  return { r, out, report };
}

describe("reduck batch --report FILE", () => {
  test("writes the report when the batch ends: counts, the failures by error with their rows, every row by number and run id", async () => {
    const dir = await folder();
    const input = await rows(dir);
    const report = path.join(dir, "report.html");
    const r = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--skip-invalid", "--report", report], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Report: ${report}\n`);
    const html = await readFile(report, "utf8");
    expect(html).toContain("Batch report: @demo/rows.example/echo");
    expect(html).toContain("<b>8</b>rows");
    expect(html).toContain("<b>5</b>completed");
    expect(html).toContain("<b>2</b>failed");
    expect(html).toContain("<b>1</b>invalid");
    expect(html).toMatch(/<h3>#\d &middot; 2 rows &middot; <span class="status bad">failed<\/span> <code>site_error<\/code><\/h3>/);
    expect(html).toContain('Rows: <span class="mono">3, 5</span>');
    expect(html).toContain("n must be at least 0");
    for (const line of (await journal(path.join(dir, "people.results.jsonl"))).filter((l) => l.runId)) {
      expect(html).toMatch(new RegExp(`row ${line.row} +${line.status} +${line.runId}`));
    }
    expect(html).toMatch(/row 8 +invalid +-  error #\d/);
    // The error said once: the service's words hold its `error` whole, so they alone.
    const failed = (await journal(path.join(dir, "people.results.jsonl"))).filter((l) => l.status === "failed");
    expect(failed.map((l) => l.error)).toEqual(Array(2).fill("@demo/rows.example/echo failed on the site: the site said no"));
    expect(html).toContain("<pre>@demo/rows.example/echo failed on the site: the site said no</pre>");
  });

  test("--json adds where the report is to the summary", async () => {
    const dir = await folder();
    const input = path.join(dir, "two.jsonl");
    await writeFile(input, '{"name": "j1"}\n{"name": "j2"}\n');
    const report = path.join(dir, "two.html");
    const r = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--report", report, "--json"], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ total: 2, completed: 2, report });
    expect((await stat(report)).size).toBeGreaterThan(1000);
  });

  test("Ctrl-C: the report is still written, with the rows that ran", async () => {
    const { r, out, report } = await interruptedBatch("stopped", "stop", 30);
    expect(r.code).toBe(130);
    expect(r.stderr).toContain(`Report: ${report}\n`);
    const ended = (await journal(out)).filter((l) => l.status === "completed").length;
    expect(ended).toBeLessThan(30);
    expect(await readFile(report, "utf8")).toContain(`<b>${ended}</b>completed`);
  });

  test("stopped by SIGINT: the page and `batch report --json` say stopped after N of M rows, K never sent, with the --resume command; once resumed, finished", async () => {
    const { r, out, report } = await interruptedBatch("forty", "forty", 40);
    expect(r.code).toBe(130);
    const command = /To continue where it stopped: (.+)\n/.exec(r.stderr)?.[1];
    expect(command).toContain("--resume");
    const lines = await journal(out);
    expect(lines.filter((l) => l.status === "started")).toEqual([expect.objectContaining({ rows: 40 })]);
    expect(lines.at(-1)).toMatchObject({ status: "stopped", why: expect.stringContaining("interrupted (Ctrl-C)"), resume: command });
    const ended = lines.filter((l) => l.status === "completed").length;
    expect(ended).toBeGreaterThan(0);
    expect(ended).toBeLessThan(40);
    const words = `stopped after ${ended} of 40 rows, ${40 - ended} never sent`;

    const html = await readFile(report, "utf8");
    expect(html).toMatch(/<title>[^<]* · 40 rows · stopped<\/title>/);
    expect(html).toContain(`<div class="callout stopped" id="stopped"><b>S${words.slice(1)}.</b>`);
    expect(html).toContain(`To carry on: <code>${command!.replace(/'/g, "&#39;")}</code>`);
    expect(html).toContain("<b>40</b>rows");
    expect(html).toContain(`<b>${40 - ended}</b>never sent`);
    expect(html).not.toContain("No row failed.");
    // Not in green: the stopped callout has a colour of its own.
    expect(html).toMatch(/\.callout\.stopped\{border-left-color:var\(--warn\)/);

    // The counts alone, without a page: exit 0.
    const json = await runCli(["batch", "report", out, "--json"], { env });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      state: "stopped",
      summary: words,
      inputRows: 40,
      neverSent: 40 - ended,
      rows: { total: ended, completed: ended },
      stops: [{ source: "forty.results.jsonl", why: expect.stringContaining("interrupted"), resume: command }],
    });

    // Carried on to the end: the same file's report says finished.
    const resumed = await runCli(
      command!
        .split(" ")
        .slice(1)
        .map((w) => w.replace(/^'(.*)'$/, "$1")),
      { env },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = await runCli(["batch", "report", out, "--json"], { env });
    expect(JSON.parse(after.stdout)).toMatchObject({ state: "finished", summary: "finished: all 40 rows ended", inputRows: 40, neverSent: 0 });
    expect(await readFile(report, "utf8")).not.toContain("callout stopped");
  });

  test("--report naming a folder is refused before anything is sent (exit 2)", async () => {
    const dir = await folder();
    const input = path.join(dir, "never.jsonl");
    await writeFile(input, '{"name": "never-sent"}\n');
    const runs = store.runs.size;
    const r = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--report", dir], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--report ${dir}: ${dir} is a folder: give a file's name`);
    expect(store.runs.size).toBe(runs);
  });
});

describe("reduck batch report RESULTS.jsonl", () => {
  test("makes the report from a finished batch's results file and prints its path; --json adds the counts", async () => {
    const dir = await folder();
    const input = await rows(dir);
    await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--skip-invalid"], { env });
    const report = path.join(dir, "later.html");
    const r = await runCli(["batch", "report", path.join(dir, "people.results.jsonl"), "--html", report], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${report}\n`);
    expect(await readFile(report, "utf8")).toContain('Rows: <span class="mono">3, 5</span>');
    const json = await runCli(["batch", "report", path.join(dir, "people.results.jsonl"), "--html", report, "--json"], { env });
    expect(JSON.parse(json.stdout)).toEqual({
      path: report,
      rows: { total: 8, completed: 5, failed: 2, invalid: 1, unknown: 0, sending: 0, accepted: 0, unsent: 0 },
      state: "finished",
      summary: "finished: all 8 rows ended",
      inputRows: 8,
      neverSent: 0,
    });
    // --json alone: the same counts, no page, exit 0.
    const counts = await runCli(["batch", "report", path.join(dir, "people.results.jsonl"), "--json"], { env });
    expect(counts.code, counts.stderr).toBe(0);
    const { path: _, ...rest } = JSON.parse(json.stdout);
    expect(JSON.parse(counts.stdout)).toEqual(rest);
  });

  test("a running batch's file (rows in flight, a last line half written) makes a report that says what is unfinished", async () => {
    const dir = await folder();
    const results = path.join(dir, "running.results.jsonl");
    const at = new Date().toISOString();
    await writeFile(
      results,
      [
        JSON.stringify({ status: "batch", script: "@demo/rows.example/echo", versionId: "v1", shared: {} }),
        JSON.stringify({ row: 1, key: "a", status: "sending", at }),
        JSON.stringify({ row: 2, key: "b", status: "sending", at }),
        JSON.stringify({ row: 1, key: "a", status: "completed", runId: "00000000-0000-4000-8000-000000000001", result: {}, at }),
        '{"row": 2, "key": "b", "status": "acc',
      ].join("\n"),
    );
    const report = path.join(dir, "running.html");
    const r = await runCli(["batch", "report", results, "--html", report], { env });
    expect(r.code, r.stderr).toBe(0);
    const html = await readFile(report, "utf8");
    expect(html).toContain("<b>1</b>in flight");
    expect(html).toContain("1 row was not finished when this report was made");
    expect(html).toContain("line 5 is not JSON (a line still being written");
  });

  test("--open writes a temporary report and hands its file:// URL to $BROWSER", async () => {
    const dir = await folder();
    const results = path.join(dir, "some.results.jsonl");
    await writeFile(results, `${JSON.stringify({ row: 1, key: "a", status: "failed", runId: null, error: "no" })}\n`);
    const log = path.join(dir, "given.txt");
    const browser = path.join(dir, "browser.sh");
    await writeFile(browser, `#!/bin/sh\nprintf '%s\\n' "$@" > ${JSON.stringify(log)}\n`);
    await chmod(browser, 0o755);
    const r = await runCli(["batch", "report", results, "--open"], { env: { ...env, BROWSER: browser } });
    expect(r.code, r.stderr).toBe(0);
    const file = r.stdout.trim();
    try {
      expect(path.basename(file)).toBe("batch-report.html");
      expect((await readFile(log, "utf8")).trim()).toBe(pathToFileURL(file).href);
    } finally {
      await rm(path.dirname(file), { recursive: true, force: true });
    }
  });

  test("bad input: no such file, a folder, nowhere to put the report, a report over the results or the input (exit 2)", async () => {
    const dir = await folder();
    const missing = await runCli(["batch", "report", path.join(dir, "nope.jsonl"), "--html", path.join(dir, "x.html")], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("nope.jsonl: no such file");
    const notFile = await runCli(["batch", "report", dir, "--html", path.join(dir, "x.html")], { env });
    expect(notFile.code).toBe(2);
    const results = path.join(dir, "r.jsonl");
    await writeFile(results, "");
    const nowhere = await runCli(["batch", "report", results], { env });
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toContain("say where the report goes: --html FILE, or --open");
    // A report never replaces the results it is made from, nor a batch's input or journal.
    const line = `${JSON.stringify({ row: 1, key: "a", status: "completed", runId: "r" })}\n`;
    await writeFile(results, line);
    const over = await runCli(["batch", "report", results, "--html", results], { env });
    expect(over.code).toBe(2);
    expect(over.stderr).toContain(`--html ${results} is the results file: the page would replace it`);
    expect(await readFile(results, "utf8")).toBe(line);
    const input = path.join(dir, "in.jsonl");
    await writeFile(input, '{"name": "kept"}\n');
    const overInput = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--report", input], { env });
    expect(overInput.code).toBe(2);
    expect(overInput.stderr).toContain("is the input: the page would replace it");
    const overJournal = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--report", path.join(dir, "in.results.jsonl")], { env });
    expect(overJournal.code).toBe(2);
    expect(overJournal.stderr).toContain("is the results file: the page would replace it");
  });
});

describe("batch is a command and a topic", () => {
  test("`reduck batch --help` is the batch's own help, and lists `batch report`; `reduck batch report --help` is the report's", async () => {
    const batch = await runCli(["batch", "--help"], { env });
    expect(batch.code).toBe(0);
    expect(batch.stdout).toContain("$ reduck batch --script ADDRESS --input FILE");
    expect(batch.stdout).toMatch(/COMMANDS\n {2}batch report {2}Make a batch's report/);
    const report = await runCli(["batch", "report", "--help"], { env });
    expect(report.code).toBe(0);
    expect(report.stdout).toContain("$ reduck batch report RESULTS... [--json]");
    expect(report.stdout).toContain("--html=FILE  Write the report");
  });

  test("`reduck batch --script ...` is still the batch, whatever its first argument", async () => {
    const dir = await folder();
    const input = path.join(dir, "report.jsonl");
    await writeFile(input, '{"name": "report"}\n');
    const r = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--json"], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ total: 1, completed: 1 });
  });
});
