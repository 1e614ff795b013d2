/**
 * `reduck batch` as a user runs it: the built CLI against the sandbox over
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

  test("a JSONL value of a JSON type the contract does not take is a pre-flight error naming row and input; text is coerced", async () => {
    const dir = await folder();
    const input = path.join(dir, "typed.jsonl");
    await writeFile(
      input,
      [
        '{"name": "typed1", "note": {"nested": true}}',
        '{"name": "typed2", "n": "4", "note": "text"}',
        '{"name": "typed3", "n": [1]}',
        '{"name": "typed4", "n": 4.5, "note": 7}',
        '{"name": "typed5", "n": 5, "colour": null}',
        "",
      ].join("\n"),
    );
    const r = await runCli(["batch", "--script", "rows.example/echo", "--input", input], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      [
        "Error: 4 of 5 rows of typed.jsonl cannot run (nothing was sent):",
        '  row 1: note must be text, not a JSON object ({"nested":true})',
        "  row 3: n must be a whole number, not a JSON array ([1])",
        '  row 4: n must be a whole number, not the number 4.5; note must be text, not the number 7 (write it as "7" for text)',
        "  row 5: colour must be text, not null",
        "Fix them, or add --skip-invalid to run the others and record these as invalid.",
        "",
      ].join("\n"),
    );
    expect([...(await runsPerName("echo")).keys()].some((n) => n.startsWith("typed"))).toBe(false);
    // Row 2's text "4" is coerced to the number the contract asks for, as n=4 would be.
    const skip = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--skip-invalid", "--json"], { env });
    expect(JSON.parse(skip.stdout)).toMatchObject({ total: 5, completed: 1, invalid: 4 });
    const done = (await journal(path.join(dir, "typed.results.jsonl"))).find((l) => l.status === "completed");
    expect(done!.result.args).toEqual({ name: "typed2", n: 4, note: "text" });
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

  test("--browser takes a paired browser's id, as run's does: every row goes to that browser", async () => {
    const dir = await folder();
    const input = path.join(dir, "device.jsonl");
    await writeFile(input, '{"name": "device1"}\n{"name": "device2"}\n');
    const r = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--browser", store.demo.deviceId, "--json"], { env });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const results = (await journal(path.join(dir, "device.results.jsonl"))).filter((l) => l.status === "completed");
    expect(results.map((l) => store.runs.get(l.runId)!.browser.type)).toEqual(["extension", "extension"]);
    // The id is what the service is given: one it does not know is refused by it, naming the id.
    const unknown = "00000000-0000-4000-8000-00000000dead";
    const refused = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--browser", unknown, "--out", path.join(dir, "unknown.jsonl")], {
      env,
    });
    expect(refused.code).toBe(1);
    const failed = (await journal(path.join(dir, "unknown.jsonl"))).filter((l) => l.status === "failed");
    expect(failed.map((l) => l.error)).toEqual([expect.stringContaining(`No paired browser ${unknown} on this account`), expect.any(String)]);
    // A word that is no browser and no id is refused before anything is sent, as by run.
    const typo = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--browser", "clodu", "--out", path.join(dir, "typo.jsonl")], {
      env,
    });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe('Error: --browser takes cloud, extension or a paired browser\'s id (see `reduck devices list`), not "clodu"\n');
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

  test("a second Ctrl-C stops waiting: the rows still running at the service are counted as such, and --resume waits for them", async () => {
    const dir = await folder();
    const input = path.join(dir, "rows.csv");
    const names = Array.from({ length: 6 }, (_, i) => `h${i}`);
    await writeFile(input, ["name", ...names].join("\n"));
    const running = () => [...store.runs.values()].filter((r) => r.script?.slug === "hold" && names.includes(String(r.args.name)) && r.status === "running");
    const r = await runCli(["batch", "--script", "rows.example/hold", "--input", input, "--concurrency", "2"], {
      env,
      onStart: (child) => {
        let stopping = false;
        child.stderr!.on("data", (chunk: Buffer) => {
          if (!stopping && chunk.toString().includes("Stopping:")) {
            stopping = true;
            child.kill("SIGINT");
          }
        });
        void waitFor("two rows running at the sandbox", () => running().length === 2).then(() => child.kill("SIGINT"));
      },
    });
    expect(r.code).toBe(130);
    expect(r.stdout).toBe(
      `6 rows: 0 completed, 0 failed, 4 not run, 2 still running at the service: --resume waits for them. Results: ${path.join(dir, "rows.results.jsonl")}\n`,
    );
    const resumed = await runCli(["batch", "--script", "rows.example/hold", "--input", input, "--concurrency", "2", "--resume", "--json"], { env });
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ total: 6, completed: 6 });
    const counts = await runsPerName("hold");
    expect(names.map((n) => counts.get(n))).toEqual([1, 1, 1, 1, 1, 1]);
  }, 60_000);
});
