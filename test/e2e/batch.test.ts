/**
 * `reduck batch` as a user runs it: the built CLI against the reference server over
 * loopback HTTP, with real CSV and JSONL files. What ran is counted at the server through its
 * runs API, per row.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "../support/cli.js";
import { openTerminal } from "./terminal.js";
import { patterned, sha256 } from "../support/files.js";
import { waitFor } from "../support/wait.js";
import { env, folder, journal, runsPerName, store, useBatchSandbox } from "./batch-sandbox.js";

useBatchSandbox();

describe("rows from files", () => {
  test("a CSV with a BOM, CRLF, quoted cells, an embedded newline and a file column: one run per row, values and bytes intact", async () => {
    const dir = await folder();
    const photo = patterned(5000);
    await writeFile(path.join(dir, "ada.png"), photo);
    const csv = "\uFEFFname,n,note,file:photo\r\n" + 'Ada,1,"Hello, ""world""",ada.png\r\n' + 'Grace,2,"two\nlines",\r\n' + "Linus,3,,\r\n";
    const input = path.join(dir, "people.csv");
    await writeFile(input, csv);
    const r = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--json"], { env });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = path.join(dir, "people.results.jsonl");
    expect(JSON.parse(r.stdout)).toEqual({ total: 3, completed: 3, failed: 0, invalid: 0, unknown: 0, out });
    const results = (await journal(out)).filter((l) => l.status === "completed").sort((a, b) => a.row - b.row);
    expect(results.map((l) => l.result.args)).toEqual([
      { name: "Ada", n: 1, note: 'Hello, "world"' },
      { name: "Grace", n: 2, note: "two\nlines" },
      { name: "Linus", n: 3 },
    ]);
    expect(results[0]!.result.photo).toEqual({ name: "photo", size: photo.length });
    const received = store.runs.get(results[0]!.runId)!.files[0]!;
    expect(received.sha256).toBe(sha256(photo));
    expect([...(await runsPerName("echo")).entries()].filter(([name]) => ["Ada", "Grace", "Linus"].includes(name))).toEqual(
      expect.arrayContaining([
        ["Ada", 1],
        ["Grace", 1],
        ["Linus", 1],
      ]),
    );
  });

  test("JSONL rows with shared name=value; a row that also sets a shared value is refused before anything is sent", async () => {
    const dir = await folder();
    const input = path.join(dir, "rows.jsonl");
    await writeFile(input, ['{"name": "j1", "n": 4}', '{"name": "j2", "n": 5}', ""].join("\n"));
    const r = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "colour=green"], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`2 rows: 2 completed, 0 failed. Results: ${path.join(dir, "rows.results.jsonl")}\n`);
    const results = (await journal(path.join(dir, "rows.results.jsonl"))).filter((l) => l.status === "completed");
    expect(results.map((l) => l.result.args).sort((a, b) => a.n - b.n)).toEqual([
      { name: "j1", n: 4, colour: "green" },
      { name: "j2", n: 5, colour: "green" },
    ]);

    const clash = path.join(dir, "clash.jsonl");
    await writeFile(clash, '{"name": "c1"}\n{"name": "c2", "colour": "red"}\n');
    const refused = await runCli(["batch", "--script", "rows.example/echo", "--input", clash, "colour=green"], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("row 2: sets colour, which the command line already sets for every row");
    expect((await runsPerName("echo")).get("c1")).toBeUndefined();
  });

  test("--browser cloud runs every row on a hosted browser; --device with it is refused before anything is sent", async () => {
    const dir = await folder();
    const input = path.join(dir, "cloud.jsonl");
    await writeFile(input, '{"name": "cloud1"}\n{"name": "cloud2"}\n');
    const r = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--browser", "cloud", "--json"], { env });
    expect(r.code).toBe(0);
    const results = (await journal(path.join(dir, "cloud.results.jsonl"))).filter((l) => l.status === "completed");
    expect(results.map((l) => store.runs.get(l.runId)!.browser.type)).toEqual(["managed", "managed"]);

    const refused = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--browser", "cloud", "--device", "d1"], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--device names one of your own paired browsers, so it cannot go with --browser cloud");
  });

  test("pre-flight lists every problem with its row number (the first 20, then a count), exit 2, nothing sent; --dry-run counts the runs", async () => {
    const dir = await folder();
    const lines = ["name,n,colour"];
    for (let i = 1; i <= 30; i++) lines.push(i % 10 === 0 ? `ok${i},${i},red` : i === 3 ? "bad3,3,pink" : `bad${i},${i % 2 ? "x" : "-1"},blue`);
    const input = path.join(dir, "rows.csv");
    await writeFile(input, lines.join("\n"));
    const r = await runCli(["batch", "--script", "rows.example/echo", "--input", input], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("27 of 30 rows of rows.csv cannot run (nothing was sent):");
    expect(r.stderr).toContain('row 1: n must be a number (you gave "x")');
    expect(r.stderr).toContain("row 2: n must be at least 0 (you gave -1)");
    expect(r.stderr).toMatch(/row 3: .*colour must be one of "red", "green" or "blue" \(you gave "pink"\)/);
    expect(r.stderr).toContain("... and 7 more");
    expect(r.stderr).not.toContain("row 10:");
    expect(existsSync(path.join(dir, "rows.results.jsonl"))).toBe(false);
    expect([...(await runsPerName("echo")).keys()].some((n) => n.startsWith("bad") || n.startsWith("ok"))).toBe(false);

    const dry = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--dry-run", "--skip-invalid"], { env });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe("30 rows checked: 3 runs would go out, 27 invalid\n");
    expect([...(await runsPerName("echo")).keys()].some((n) => n.startsWith("ok"))).toBe(false);
  });
});
describe("what the user sees", () => {
  test("the README's worked example: three rows with a file column and a shared argument", async () => {
    const dir = await folder();
    await writeFile(
      path.join(dir, "people.csv"),
      [
        "to,subject,file:attachment",
        'ada@example.com,"Your invoice, March",invoices/ada.pdf',
        'grace@example.com,"Your invoice, March",invoices/grace.pdf',
        'linus@example.com,"No invoice this month",',
      ].join("\n") + "\n",
    );
    await mkdir(path.join(dir, "invoices"));
    await writeFile(path.join(dir, "invoices", "ada.pdf"), "%PDF-1.7 ada");
    await writeFile(path.join(dir, "invoices", "grace.pdf"), "%PDF-1.7 grace");
    const args = ["batch", "--script", "reduck/mail.google.com/send_email", "--input", "people.csv", "attachmentName=invoice.pdf"];
    const dry = await runCli([...args, "--dry-run"], { env, cwd: dir });
    expect(dry.stdout).toBe("3 rows checked: 3 runs would go out\n");
    const r = await runCli([...args, "--concurrency", "8"], { env, cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("3 rows: 3 completed, 0 failed. Results: " + path.join(dir, "people.results.jsonl") + "\n");
    const results = (await journal(path.join(dir, "people.results.jsonl"))).filter((l) => l.status === "completed").sort((a, b) => a.row - b.row);
    expect(results.map((l) => [l.result.to, l.result.attachment ?? null])).toEqual([
      [["ada@example.com"], "invoice.pdf"],
      [["grace@example.com"], "invoice.pdf"],
      [["linus@example.com"], null],
    ]);
  });

  test("on a terminal, one progress line: done/total, failures, runs per minute and the time left", async () => {
    const dir = await folder();
    const input = path.join(dir, "rows.csv");
    await writeFile(input, ["name", "boom", ...Array.from({ length: 15 }, (_, i) => `p${i}`)].join("\n"));
    const t = openTerminal(["batch", "--script", "rows.example/slow", "--input", input, "--concurrency", "2"], { env });
    await t.waitFor(/\d+\/16 · 1 failed · [\d.]+ runs\/min · eta \d+s/);
    const { code, output } = await t.exited;
    expect(code).toBe(1);
    expect(output).toMatch(/\r\x1b\[K\d+\/16 · 1 failed · [\d.]+ runs\/min · eta \d+s/);
    expect(output).toContain("16 rows: 15 completed, 1 failed.");
  });

  test("Ctrl-C stops sending, waits for the rows in flight, prints the --resume command; that command finishes the rest, each row once", async () => {
    const dir = await folder();
    const input = path.join(dir, "rows.csv");
    const names = Array.from({ length: 30 }, (_, i) => `c${i}`);
    await writeFile(input, ["name", ...names].join("\n"));
    const out = path.join(dir, "rows.results.jsonl");
    const r = await runCli(["batch", "--script", "rows.example/slow", "--input", input, "--concurrency", "2"], {
      env,
      onStart: (child) => {
        void waitFor("a first row to complete", async () => existsSync(out) && (await readFile(out, "utf8")).includes('"completed"')).then(() =>
          child.kill("SIGINT"),
        );
      },
    });
    expect(r.code).toBe(130);
    expect(r.stderr).toContain("Stopping: no more rows are sent; waiting for the rows in flight");
    const command = /To continue where it stopped: (.+)\n/.exec(r.stderr)?.[1];
    expect(command).toContain("--resume");
    const lines = await journal(out);
    // Every row that was sent has its outcome: the rows in flight were waited for.
    const sent = new Set(lines.filter((l) => l.status === "sending").map((l) => l.key));
    const ended = new Set(lines.filter((l) => l.status === "completed").map((l) => l.key));
    expect([...sent].filter((k) => !ended.has(k))).toEqual([]);
    expect(ended.size).toBeLessThan(30);
    // The printed command, as a shell runs it (its first word is the bin name: run it through node).
    const words = command!
      .split(" ")
      .slice(1)
      .map((w) => w.replace(/^'(.*)'$/, "$1"));
    const resumed = await runCli(words, { env });
    expect(resumed.code).toBe(0);
    const counts = await runsPerName("slow");
    expect(names.filter((n) => counts.get(n) !== 1)).toEqual([]);
  });
});
