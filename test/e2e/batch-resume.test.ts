/**
 * `reduck batch` resumed, raced and slowed down: every row runs once at the server,
 * whatever stops the batch or however the service answers. The built CLI against the reference
 * server over loopback HTTP (batch-sandbox.ts); what ran is counted through its runs API.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "../support/cli.js";
import { startFaultProxy } from "../support/fault-proxy.js";
import { waitFor } from "../support/wait.js";
import { env, folder, journal, runsPerName, server, store, useBatchSandbox } from "./batch-sandbox.js";

useBatchSandbox();

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
        void waitFor("ten rows completed", async () => (await completedLines()) >= 10).then(() => child.kill("SIGKILL"));
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
    await waitFor("runs in flight to end", () => [...store.runs.values()].every((r) => r.script?.host !== "rows.example" || r.status !== "running"));

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
  });

  test("--resume with other arguments for every row than the batch ran with is refused before anything is sent, naming each change", async () => {
    const dir = await folder();
    const input = path.join(dir, "rows.jsonl");
    await writeFile(input, '{"name": "same1"}\n{"name": "same2"}\n');
    const out = path.join(dir, "rows.results.jsonl");
    const args = ["batch", "--script", "rows.example/echo", "--input", input];
    const first = await runCli([...args, "note=hello"], { env });
    expect(first.code).toBe(0);
    expect((await journal(out))[0]).toEqual({ status: "batch", script: "@demo/rows.example/echo", versionId: expect.any(String), shared: { note: "hello" } });
    const ran = async () => [(await runsPerName("echo")).get("same1"), (await runsPerName("echo")).get("same2")];
    expect(await ran()).toEqual([1, 1]);

    const changed = await runCli([...args, "note=changed", "--resume"], { env });
    expect(changed.code).toBe(2);
    expect(changed.stdout).toBe("");
    expect(changed.stderr).toBe(
      `Error: ${out} records a batch run with other arguments for every row (note was "hello", now "changed"): resuming would run every row again, so nothing was sent. ` +
        "To carry on, give the arguments it ran with; to run the rows with the new ones, start a new results file on purpose (--out NEW.results.jsonl, without --resume)\n",
    );
    const several = await runCli([...args, "colour=red", "--resume", "--retry-failed"], { env });
    expect(several.code).toBe(2);
    expect(several.stderr).toContain('(note was "hello", now not given; colour was not given, now "red")');
    expect(await ran()).toEqual([1, 1]);

    // The same arguments carry on (nothing left to run); a new results file on purpose runs the new value.
    const same = await runCli([...args, "note=hello", "--resume", "--json"], { env });
    expect(same.code).toBe(0);
    expect(JSON.parse(same.stdout)).toMatchObject({ total: 2, completed: 2 });
    expect(await ran()).toEqual([1, 1]);
    const fresh = await runCli([...args, "note=changed", "--out", path.join(dir, "new.results.jsonl")], { env });
    expect(fresh.code).toBe(0);
    expect(await ran()).toEqual([2, 2]);
  }, 30_000);

  test("a second process on the same journal is refused with a clear error, and the first finishes alone", async () => {
    const dir = await folder();
    const input = path.join(dir, "rows.csv");
    await writeFile(input, ["name", ...Array.from({ length: 12 }, (_, i) => `l${i}`)].join("\n"));
    const out = path.join(dir, "rows.results.jsonl");
    let second: Awaited<ReturnType<typeof runCli>> | undefined;
    // The first batch's runs after its first are held until the second process has ended, so the
    // first is surely still writing when the second comes, however slowly that one starts.
    let secondEnded!: () => void;
    const held = new Promise<void>((resolve) => (secondEnded = resolve));
    const proxy = await startFaultProxy(server.url, (method, p, n) => (method === "POST" && p === "/run" && n > 1 ? { holdUntil: held } : undefined));
    try {
      const first = await runCli(["batch", "--script", "rows.example/slow", "--input", input, "--concurrency", "2"], {
        env: { ...env, REDUCK_API_URL: proxy.url },
        onStart: () => {
          void waitFor("the first batch's lock", () => existsSync(`${out}.lock`))
            .then(async () => {
              second = await runCli(["batch", "--script", "rows.example/slow", "--input", input, "--resume"], { env });
            })
            .finally(secondEnded);
        },
      });
      expect(first.code).toBe(0);
    } finally {
      secondEnded();
      await proxy.close();
    }
    expect(second!.code).toBe(2);
    expect(second!.stderr).toMatch(/another reduck batch \(pid \d+\) is writing .*rows\.results\.jsonl: wait for it to end/);
    const counts = await runsPerName("slow");
    expect(Array.from({ length: 12 }, (_, i) => counts.get(`l${i}`))).toEqual(Array(12).fill(1));
  });
});
describe("no answer to rely on", () => {
  test("a connection reset after the request reached the server: the run is found by its arguments and adopted, not sent again", async () => {
    // The second POST /run reaches the server, runs, and its answer never comes back.
    const proxy = await startFaultProxy(server.url, (method, p, n) =>
      method === "POST" && p === "/run" && n === 2 ? { reset: "after forwarding", status: 0 } : undefined,
    );
    try {
      const dir = await folder();
      const input = path.join(dir, "rows.csv");
      await writeFile(input, ["name", ...Array.from({ length: 4 }, (_, i) => `u${i}`)].join("\n"));
      const r = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--concurrency", "1", "--json"], {
        env: { ...env, REDUCK_API_URL: proxy.url },
      });
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
  });
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
      const r = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--concurrency", "4"], {
        env: { ...env, REDUCK_API_URL: proxy.url },
      });
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
  });
});
