/**
 * `reduck batch` as a user runs it (issue 22): the built CLI against the reference server over
 * loopback HTTP, with real CSV and JSONL files. What ran is counted at the server through its
 * runs API, per row.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createReduckClient, listAll, listRuns } from "../../src/index.js";
import { createHandlers, createStore, startHttpServer, type ReferenceStore } from "../server/index.js";
import { runCli } from "../support/cli.js";
import { openTerminal } from "./terminal.js";
import { startFaultProxy } from "../support/fault-proxy.js";
import { patterned, sha256 } from "../support/files.js";

let store: ReferenceStore;
let server: Awaited<ReturnType<typeof startHttpServer>>;
let home: string;
let env: Record<string, string>;
const scriptIds: Record<string, string> = {};

const ROWS_SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string" },
    n: { type: "integer", minimum: 0 },
    colour: { type: "string", enum: ["red", "green", "blue"] },
    note: { type: "string" },
    photo: { type: "string", format: "file" },
  },
  required: ["name"],
};

beforeAll(async () => {
  store = createStore({ browser: "simulated" });
  const add = (slug: string, content: string) => {
    scriptIds[slug] = store.addScript({ handle: "@demo", host: "rows.example", slug, content, inputSchema: ROWS_SCHEMA }).id;
  };
  add("echo", "if (args.name === 'boom') throw new Error('the site said no'); return { args, photo: files.photo ? { name: files.photo.name, size: files.photo.size } : null };");
  // Slow enough that a batch can be killed with runs in flight.
  add("slow", "await new Promise((r) => setTimeout(r, 150)); if (args.name === 'boom') throw new Error('the site said no'); return { name: args.name };");
  server = await startHttpServer({ handlers: createHandlers(store) });
  home = await mkdtemp(path.join(os.tmpdir(), "reduck-batch-e2e-"));
  env = { HOME: home, REDUCK_API_URL: server.url, REDUCK_API_KEY: store.demo.apiKey, REDUCK_CONFIG_DIR: path.join(home, ".config") };
}, 30_000);

afterAll(async () => {
  await server?.close();
  await rm(home, { recursive: true, force: true });
});

/** A fresh folder for one test's files. */
async function folder(): Promise<string> {
  return mkdtemp(path.join(home, "t-"));
}

/** The script's runs at the server (through its runs API), counted by their `name` argument. */
async function runsPerName(slug: string): Promise<Map<string, number>> {
  const client = createReduckClient({ apiKey: store.demo.apiKey, baseUrl: server.url, maxRetries: 0 });
  const runs = await listAll(listRuns, { client, query: { script_id: scriptIds[slug], pageSize: 100 } });
  if (runs.error) throw new Error(runs.error.error);
  const counts = new Map<string, number>();
  for (const run of runs.data) {
    const name = String((run.args as { name?: unknown }).name);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

async function journal(file: string): Promise<Array<Record<string, any>>> {
  return (await readFile(file, "utf8")).trim().split("\n").map((l) => JSON.parse(l));
}

/** Waits (with a deadline) until `check` holds. */
async function until(check: () => Promise<boolean> | boolean, what: string, deadlineMs = 15_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("rows from files", () => {
  test("a CSV with a BOM, CRLF, quoted cells, an embedded newline and a file column: one run per row, values and bytes intact", async () => {
    const dir = await folder();
    const photo = patterned(5000);
    await writeFile(path.join(dir, "ada.png"), photo);
    const csv =
      "\uFEFFname,n,note,file:photo\r\n" +
      'Ada,1,"Hello, ""world""",ada.png\r\n' +
      'Grace,2,"two\nlines",\r\n' +
      "Linus,3,,\r\n";
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
      expect.arrayContaining([["Ada", 1], ["Grace", 1], ["Linus", 1]]),
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

describe("never twice", () => {
  test("killed with SIGKILL halfway, then --resume: every row ran exactly once at the server, none missing", async () => {
    const dir = await folder();
    const names = Array.from({ length: 40 }, (_, i) => `k${i + 1}`);
    const input = path.join(dir, "rows.csv");
    await writeFile(input, ["name", ...names].join("\n") + "\n");
    const out = path.join(dir, "rows.results.jsonl");
    const completedLines = async () => (existsSync(out) ? (await readFile(out, "utf8")).split("\n").filter((l) => l.includes('"completed"')).length : 0);
    const first = await runCli(["batch", "--script", "rows.example/slow", "--input", input, "--concurrency", "6"], {
      env,
      onStart: (child) => {
        void until(async () => (await completedLines()) >= 10, "ten rows completed").then(() => child.kill("SIGKILL"));
      },
    });
    expect(first.code).toBe(null); // killed
    const before = await journal(out).catch(() => []);
    const done = before.filter((l) => l.status === "completed").length;
    expect(done).toBeGreaterThanOrEqual(10);
    expect(done).toBeLessThan(40);
    // Rows were in flight when it died: sent (a `sending` line) with no outcome, their runs at the server.
    const ended = new Set(before.filter((l) => l.status === "completed").map((l) => l.key));
    const inFlight = before.filter((l) => l.status === "sending" && !ended.has(l.key));
    expect(inFlight.length).toBeGreaterThanOrEqual(1);
    // The lock is left behind by the killed process; resuming takes it over.
    expect(existsSync(`${out}.lock`)).toBe(true);
    // Let the runs the killed process left in flight finish at the server.
    await until(() => [...store.runs.values()].every((r) => r.script?.host !== "rows.example" || r.status !== "running"), "runs in flight to end");

    const resumed = await runCli(["batch", "--script", "rows.example/slow", "--input", input, "--concurrency", "6", "--resume", "--json"], { env });
    const summary = JSON.parse(resumed.stdout);
    // A row whose `sending` line was written but whose request the kill stopped before the server
    // had it is `unknown` (no run found): --retry-unknown sends it. Either way, nothing runs twice.
    expect(summary).toMatchObject({ total: 40, failed: 0 });
    expect(summary.completed + summary.unknown).toBe(40);
    expect(resumed.code).toBe(summary.unknown ? 1 : 0);
    if (summary.unknown) {
      const retried = await runCli(["batch", "--script", "rows.example/slow", "--input", input, "--resume", "--retry-unknown", "--json"], { env });
      expect(JSON.parse(retried.stdout)).toMatchObject({ total: 40, completed: 40, unknown: 0 });
    }
    const counts = await runsPerName("slow");
    expect(names.filter((n) => counts.get(n) !== 1)).toEqual([]);
    expect(counts.size).toBe(40);
    expect(existsSync(`${out}.lock`)).toBe(false);
  }, 60_000);

  test("--retry-failed sends the failed rows again (a new line, the old one kept); a plain --resume does not", async () => {
    const dir = await folder();
    const input = path.join(dir, "rows.csv");
    await writeFile(input, "name\nfine\nboom\n");
    const out = path.join(dir, "rows.results.jsonl");
    const r = await runCli(["batch", "--script", "rows.example/echo", "--input", input], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("2 rows: 1 completed, 1 failed");
    expect(r.stderr).toContain("--resume --retry-failed sends them again");
    const plain = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--resume"], { env });
    expect(plain.code).toBe(1);
    expect((await runsPerName("echo")).get("boom")).toBe(1);
    const retried = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--resume", "--retry-failed", "--json"], { env });
    expect(retried.code).toBe(1);
    expect(JSON.parse(retried.stdout)).toMatchObject({ total: 2, completed: 1, failed: 1 });
    expect((await runsPerName("echo")).get("boom")).toBe(2);
    expect((await runsPerName("echo")).get("fine")).toBe(1);
    expect((await journal(out)).filter((l) => l.status === "failed")).toHaveLength(2);
  }, 30_000);

  test("a second process on the same journal is refused with a clear error, and the first finishes alone", async () => {
    const dir = await folder();
    const input = path.join(dir, "rows.csv");
    await writeFile(input, ["name", ...Array.from({ length: 12 }, (_, i) => `l${i}`)].join("\n"));
    const out = path.join(dir, "rows.results.jsonl");
    let second: Awaited<ReturnType<typeof runCli>> | undefined;
    const first = await runCli(["batch", "--script", "rows.example/slow", "--input", input, "--concurrency", "2"], {
      env,
      onStart: () => {
        void until(() => existsSync(`${out}.lock`), "the first batch's lock").then(async () => {
          second = await runCli(["batch", "--script", "rows.example/slow", "--input", input, "--resume"], { env });
        });
      },
    });
    expect(first.code).toBe(0);
    await until(() => second !== undefined, "the second batch to end");
    expect(second!.code).toBe(2);
    expect(second!.stderr).toMatch(/another reduck batch \(pid \d+\) is writing .*rows\.results\.jsonl: wait for it to end/);
    const counts = await runsPerName("slow");
    expect(Array.from({ length: 12 }, (_, i) => counts.get(`l${i}`))).toEqual(Array(12).fill(1));
  }, 30_000);
});

describe("what the user sees", () => {
  test("the README's worked example: three rows with a file column and a shared argument", async () => {
    const dir = await folder();
    await writeFile(path.join(dir, "people.csv"), [
      "to,subject,file:attachment",
      'ada@example.com,"Your invoice, March",invoices/ada.pdf',
      'grace@example.com,"Your invoice, March",invoices/grace.pdf',
      'linus@example.com,"No invoice this month",',
    ].join("\n") + "\n");
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
  }, 30_000);

  test("Ctrl-C stops sending, waits for the rows in flight, prints the --resume command; that command finishes the rest, each row once", async () => {
    const dir = await folder();
    const input = path.join(dir, "rows.csv");
    const names = Array.from({ length: 30 }, (_, i) => `c${i}`);
    await writeFile(input, ["name", ...names].join("\n"));
    const out = path.join(dir, "rows.results.jsonl");
    const r = await runCli(["batch", "--script", "rows.example/slow", "--input", input, "--concurrency", "2"], {
      env,
      onStart: (child) => {
        void until(async () => existsSync(out) && (await readFile(out, "utf8")).includes('"completed"'), "a first row to complete").then(() => child.kill("SIGINT"));
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
    const words = command!.split(" ").slice(1).map((w) => w.replace(/^'(.*)'$/, "$1"));
    const resumed = await runCli(words, { env });
    expect(resumed.code).toBe(0);
    const counts = await runsPerName("slow");
    expect(names.filter((n) => counts.get(n) !== 1)).toEqual([]);
  }, 30_000);
});

describe("no answer to rely on", () => {
  test("a connection reset after the request reached the server: the run is found by its arguments and adopted, not sent again", async () => {
    // The second POST /run reaches the server, runs, and its answer never comes back.
    const proxy = await startFaultProxy(server.url, (method, p, n) => (method === "POST" && p === "/run" && n === 2 ? { reset: "after forwarding", status: 0 } : undefined));
    try {
      const dir = await folder();
      const input = path.join(dir, "rows.csv");
      await writeFile(input, ["name", ...Array.from({ length: 4 }, (_, i) => `u${i}`)].join("\n"));
      const r = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--concurrency", "1", "--json"], { env: { ...env, REDUCK_API_URL: proxy.url } });
      expect(proxy.answered.filter((a) => a.status === -1)).toHaveLength(1);
      expect(JSON.parse(r.stdout)).toMatchObject({ total: 4, completed: 4, failed: 0, unknown: 0 });
      expect(r.code).toBe(0);
      const lines = await journal(path.join(dir, "rows.results.jsonl"));
      const adopted = lines.find((l) => l.status === "accepted");
      expect(adopted).toMatchObject({ row: 2, runId: expect.any(String) });
      expect(lines.find((l) => l.row === 2 && l.status === "completed")!.runId).toBe(adopted!.runId);
      const counts = await runsPerName("echo");
      expect(Array.from({ length: 4 }, (_, i) => counts.get(`u${i}`))).toEqual([1, 1, 1, 1]);
    } finally {
      await proxy.close();
    }
  }, 30_000);
});

describe("the service asks to slow down", () => {
  test("a 429 storm slows the batch and it recovers: no row fails, each runs once", async () => {
    // The first 6 requests to POST /run are refused with 429 and Retry-After: 1.
    const proxy = await startFaultProxy(server.url, (method, p, n) =>
      method === "POST" && p === "/run" && n <= 6 ? { status: 429, headers: { "Retry-After": "1" }, body: '{"error":"Too many runs at once"}' } : undefined,
    );
    try {
      const dir = await folder();
      const input = path.join(dir, "rows.csv");
      await writeFile(input, ["name", ...Array.from({ length: 10 }, (_, i) => `s${i}`)].join("\n"));
      const started = Date.now();
      const r = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--concurrency", "4"], { env: { ...env, REDUCK_API_URL: proxy.url } });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("10 rows: 10 completed, 0 failed");
      expect(r.stderr).toMatch(/Warning: the service answered 429: slowing down \(\d rows? in flight\), next request in 1\.0 s/);
      const refused = proxy.answered.filter((a) => a.status === 429);
      expect(refused).toHaveLength(6);
      // Retry-After was honoured: nothing was sent again within a second of the last 429.
      const lastRefusal = refused.at(-1)!.at;
      const firstAfter = proxy.answered.find((a) => a.path === "/run" && a.status === 200 && a.at > lastRefusal);
      expect(firstAfter!.at - lastRefusal).toBeGreaterThanOrEqual(900);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      const counts = await runsPerName("echo");
      expect(Array.from({ length: 10 }, (_, i) => counts.get(`s${i}`))).toEqual(Array(10).fill(1));
    } finally {
      await proxy.close();
    }
  }, 30_000);
});
