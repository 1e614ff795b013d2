/**
 * runMany in-process, against the sandbox's handlers through MSW: every row runs once,
 * the journal records it, and resuming from a journal never sends a row twice.
 */
import { readFile, writeFile, appendFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { http, HttpResponse } from "msw";
import { describe, expect, test } from "vitest";
import { runMany, type RowOutcome } from "../../src/index.js";
import { useInProcessSandbox } from "../support/sandbox.js";

const SCRIPT = "@demo/rows.example/echo";

const sandbox = useInProcessSandbox({
  seed: (store) => {
    store.addScript({
      handle: "@demo",
      host: "rows.example",
      slug: "echo",
      content: "if (args.name === 'boom') throw new Error('the site said no'); return { name: args.name, n: args.n ?? null };",
      inputSchema: { type: "object", properties: { name: { type: "string" }, n: { type: "integer" } }, required: ["name"] },
    });
  },
  folder: "reduck-batch-",
});

/** The script's runs at the server, by the `name` argument. */
function runsByName(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const run of sandbox.store.runs.values()) {
    if (run.script?.host !== "rows.example") continue;
    const name = String((run.args as { name?: unknown }).name);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

async function collect(run: AsyncIterable<RowOutcome>): Promise<RowOutcome[]> {
  const out: RowOutcome[] = [];
  for await (const o of run) out.push(o);
  return out;
}

async function journalLines(file: string): Promise<Array<Record<string, unknown>>> {
  return (await readFile(file, "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
}

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `r${i + 1}`, n: String(i + 1) }));

describe("runMany", () => {
  test("runs every row once, coerces cells to the contract's types, and journals a sending line before each outcome", async () => {
    const journal = path.join(sandbox.folder, "out.jsonl");
    const run = runMany({ client: sandbox.client, script: SCRIPT, rows: rows(9), concurrency: 4, journal, browser: "extension" });
    const outcomes = await collect(run);
    expect(run.error).toBeUndefined();
    expect(outcomes).toHaveLength(9);
    expect(outcomes.every((o) => o.status === "completed")).toBe(true);
    expect(outcomes.find((o) => o.row === 3)).toMatchObject({ result: { name: "r3", n: 3 }, runId: expect.any(String) });
    expect([...runsByName().values()].every((c) => c === 1)).toBe(true);
    expect(runsByName().size).toBe(9);
    const lines = await journalLines(journal);
    for (const o of outcomes) {
      const sending = lines.findIndex((l) => l.key === o.key && l.status === "sending");
      const ended = lines.findIndex((l) => l.key === o.key && l.status === "completed");
      expect(sending).toBeGreaterThanOrEqual(0);
      expect(ended).toBeGreaterThan(sending);
    }
    expect(run.counts).toMatchObject({ total: 9, completed: 9, failed: 0, inFlight: 0 });
  });

  test("accepts an async iterable; an invalid row is recorded as invalid and the others run; a failed row does not stop them", async () => {
    async function* source() {
      yield { name: "a" };
      yield { name: "b", n: "two" };
      yield { name: "boom" };
      yield { name: "c", extra: "x" };
      yield { name: "d" };
    }
    const outcomes = await collect(runMany({ client: sandbox.client, script: SCRIPT, rows: source(), browser: "extension" }));
    const by = Object.fromEntries(outcomes.map((o) => [o.row, o]));
    expect(by[1]!.status).toBe("completed");
    expect(by[2]).toMatchObject({ status: "invalid", error: expect.stringContaining("n must be a number") });
    expect(by[3]).toMatchObject({ status: "failed", runId: expect.any(String), error: expect.stringContaining("the site said no"), errorType: "site_error" });
    // Said once: the service's message, which already holds the error, is not given the error again beside it.
    expect((by[3] as { error: string }).error.match(/the site said no/g)).toHaveLength(1);
    expect(by[4]).toMatchObject({ status: "invalid", error: expect.stringContaining("unknown argument extra") });
    expect(by[5]!.status).toBe("completed");
    expect(runsByName().get("b")).toBeUndefined();
  });

  test("a journal with results is refused without resume, and a second runner on it is refused while the first holds it", async () => {
    const journal = path.join(sandbox.folder, "out.jsonl");
    await collect(runMany({ client: sandbox.client, script: SCRIPT, rows: rows(2), journal, browser: "extension" }));
    const again = runMany({ client: sandbox.client, script: SCRIPT, rows: rows(2), journal, browser: "extension" });
    expect(await collect(again)).toEqual([]);
    // Worded in the library's options, not the CLI's flags.
    expect(again.error?.error).toBe(
      `${journal} already holds the results of a batch: continue it with \`resume: true\` (rows already run are not sent again), or give another \`journal\``,
    );

    // The first holds the lock while its rows are in flight: its second row comes only once the
    // second runner has been refused (groups of one, so the first row goes without waiting for it).
    let refused!: () => void;
    const gate = new Promise<void>((resolve) => (refused = resolve));
    const slow = (async function* () {
      yield { name: "x1" };
      await gate;
      yield { name: "x2" };
    })();
    const other = path.join(sandbox.folder, "other.jsonl");
    const first = runMany({ client: sandbox.client, script: SCRIPT, rows: slow, journal: other, browser: "extension", groupSize: 1 });
    const it = first[Symbol.asyncIterator]();
    await it.next();
    const second = runMany({ client: sandbox.client, script: SCRIPT, rows: rows(1), journal: other, resume: true, browser: "extension" });
    expect(await collect(second)).toEqual([]);
    expect(second.error?.error).toMatch(/another reduck batch \(pid \d+\) is writing .*other\.jsonl/);
    refused();
    while (!(await it.next()).done);
    expect(runsByName().get("x2")).toBe(1);
  });

  test("resume: completed rows are never sent again, even from an edited and reordered file; new rows run", async () => {
    const journal = path.join(sandbox.folder, "out.jsonl");
    await collect(runMany({ client: sandbox.client, script: SCRIPT, rows: rows(5), journal, browser: "extension" }));
    const edited = [...rows(5)].reverse().concat([{ name: "r6", n: "6" }]);
    const warnings: string[] = [];
    const run = runMany({
      client: sandbox.client,
      script: SCRIPT,
      rows: edited,
      journal,
      resume: true,
      browser: "extension",
      onWarning: (w) => warnings.push(w),
    });
    const outcomes = await collect(run);
    expect(outcomes.map((o) => o.row)).toEqual([6]);
    expect(run.counts).toMatchObject({ total: 6, completed: 6, earlier: 5 });
    expect([...runsByName().entries()].every(([, c]) => c === 1)).toBe(true);
    expect(runsByName().size).toBe(6);
    expect(warnings).toEqual([]);
  });

  test("resume: a row with a run id but no outcome is waited for; a `sending` row is adopted by its run; one never sent is unknown", async () => {
    const journal = path.join(sandbox.folder, "out.jsonl");
    await collect(runMany({ client: sandbox.client, script: SCRIPT, rows: rows(3), journal, browser: "extension" }));
    const lines = await journalLines(journal);
    const outcome = (row: number) => lines.find((l) => l.row === row && l.status === "completed")!;
    // As a crash would leave it: row 1 accepted with its id, row 2 `sending` (its run exists), row 3 `sending` (never arrived).
    const sentAt = new Date(Date.now() - 60_000).toISOString();
    const crashed = [
      { row: 1, key: outcome(1).key, status: "sending", at: sentAt },
      { row: 1, key: outcome(1).key, status: "accepted", runId: outcome(1).runId },
      { row: 2, key: outcome(2).key, status: "sending", at: sentAt },
      { row: 3, key: outcome(3).key, status: "sending", at: new Date().toISOString() },
    ];
    await writeFile(journal, crashed.map((l) => JSON.stringify(l)).join("\n") + "\n");
    // Row 3's run is removed from the server: it never arrived.
    sandbox.store.runs.delete(outcome(3).runId as string);
    const outcomes = await collect(runMany({ client: sandbox.client, script: SCRIPT, rows: rows(3), journal, resume: true, browser: "extension" }));
    const by = Object.fromEntries(outcomes.map((o) => [o.row, o]));
    expect(by[1]).toMatchObject({ status: "completed", runId: outcome(1).runId, result: { name: "r1", n: 1 } });
    expect(by[2]).toMatchObject({ status: "completed", runId: outcome(2).runId });
    expect(by[3]).toMatchObject({ status: "unknown", runId: null, error: expect.stringContaining("a resume that retries unknown rows sends it again") });
    expect(runsByName().get("r1")).toBe(1);
    expect(runsByName().get("r2")).toBe(1);
    expect(runsByName().get("r3")).toBeUndefined();

    // Unknown stays unknown on a plain resume; retryUnknown sends it.
    const plain = runMany({ client: sandbox.client, script: SCRIPT, rows: rows(3), journal, resume: true, browser: "extension" });
    expect(await collect(plain)).toEqual([]);
    expect(plain.counts).toMatchObject({ unknown: 1, completed: 2 });
    const retried = await collect(
      runMany({ client: sandbox.client, script: SCRIPT, rows: rows(3), journal, resume: true, retryUnknown: true, browser: "extension" }),
    );
    expect(retried).toEqual([expect.objectContaining({ row: 3, status: "completed" })]);
    expect(runsByName().get("r3")).toBe(1);
  });

  test("resume: a row whose run could not be read (unknown, with its run id) is waited for again, never resent", async () => {
    const journal = path.join(sandbox.folder, "out.jsonl");
    await collect(runMany({ client: sandbox.client, script: SCRIPT, rows: rows(1), journal, browser: "extension" }));
    const done = (await journalLines(journal)).find((l) => l.status === "completed")!;
    await writeFile(journal, JSON.stringify({ row: 1, key: done.key, status: "unknown", runId: done.runId, error: "could not read run" }) + "\n");
    const outcomes = await collect(runMany({ client: sandbox.client, script: SCRIPT, rows: rows(1), journal, resume: true, browser: "extension" }));
    expect(outcomes).toEqual([expect.objectContaining({ row: 1, status: "completed", runId: done.runId })]);
    expect(runsByName().get("r1")).toBe(1);
  });

  test("--retry-failed sends failed rows again with a new line, keeping the old one", async () => {
    const journal = path.join(sandbox.folder, "out.jsonl");
    const input = [{ name: "ok" }, { name: "boom" }];
    await collect(runMany({ client: sandbox.client, script: SCRIPT, rows: input, journal, browser: "extension" }));
    expect(await collect(runMany({ client: sandbox.client, script: SCRIPT, rows: input, journal, resume: true, browser: "extension" }))).toEqual([]);
    const retried = await collect(
      runMany({ client: sandbox.client, script: SCRIPT, rows: input, journal, resume: true, retryFailed: true, browser: "extension" }),
    );
    expect(retried).toEqual([expect.objectContaining({ row: 2, status: "failed" })]);
    expect(runsByName().get("boom")).toBe(2);
    expect(runsByName().get("ok")).toBe(1);
    const failedLines = (await journalLines(journal)).filter((l) => l.status === "failed");
    expect(failedLines).toHaveLength(2);
  });

  test("resume with other shared arguments, or another version, is refused with each change named; nothing is sent", async () => {
    const journal = path.join(sandbox.folder, "out.jsonl");
    const named = [{ name: "s1" }, { name: "s2" }];
    await collect(runMany({ client: sandbox.client, script: SCRIPT, rows: named, shared: { n: "7" }, journal, browser: "extension" }));
    expect(runsByName().size).toBe(2);
    const before = sandbox.store.runs.size;
    const changed = runMany({ client: sandbox.client, script: SCRIPT, rows: named, shared: { n: "8" }, journal, resume: true, browser: "extension" });
    expect(await collect(changed)).toEqual([]);
    expect(changed.error).toMatchObject({ kind: "invalid_request", error: expect.stringContaining('(n was "7", now "8")') });
    const [header] = await journalLines(journal);
    // A changed current version would make every row new too: said the same way.
    const { batchChanges } = await import("../../src/batch/resume.js");
    expect(batchChanges(header as never, { script: SCRIPT, versionId: "v2", shared: { n: "7" } })).toEqual([
      `the script's version was ${String(header!.versionId)}, now v2 (\`version: "${String(header!.versionId)}"\` runs the one it ran)`,
    ]);
    // The library names its own options, never the CLI's flags.
    expect(changed.error!.error).toContain("(another `journal`, without `resume`)");
    expect(changed.error!.error).not.toMatch(/--out|--resume|--version/);
    expect(sandbox.store.runs.size).toBe(before);
    // The same shared arguments resume: nothing left to run.
    const same = runMany({ client: sandbox.client, script: SCRIPT, rows: named, shared: { n: "7" }, journal, resume: true, browser: "extension" });
    expect(await collect(same)).toEqual([]);
    expect(same.error).toBeUndefined();
    expect(same.counts).toMatchObject({ total: 2, completed: 2, earlier: 2 });
  });

  test("a torn last line from a crash is ignored with a warning, never fatal, and cut off before appending", async () => {
    const journal = path.join(sandbox.folder, "out.jsonl");
    await collect(runMany({ client: sandbox.client, script: SCRIPT, rows: rows(2), journal, browser: "extension" }));
    await appendFile(journal, '{"row":3,"key":"abc","sta');
    const warnings: string[] = [];
    const outcomes = await collect(
      runMany({ client: sandbox.client, script: SCRIPT, rows: rows(3), journal, resume: true, browser: "extension", onWarning: (w) => warnings.push(w) }),
    );
    expect(warnings).toEqual([expect.stringMatching(/ignored its last line, cut off by an interrupted write/)]);
    expect(outcomes).toEqual([expect.objectContaining({ row: 3, status: "completed" })]);
    // Every line parses: the torn one is gone; after the batch's own first line, each is a row's or a process's start.
    const [header, ...rest] = await journalLines(journal);
    expect(header).toMatchObject({ status: "batch", script: SCRIPT });
    expect(rest.filter((l) => l.status === "started")).toHaveLength(2);
    expect(rest.every((l) => typeof l.key === "string" || l.status === "started")).toBe(true);
  });

  test("a stale lock (its process is gone) is taken over with a warning", async () => {
    const journal = path.join(sandbox.folder, "out.jsonl");
    await writeFile(`${journal}.lock`, `999999999 ${os.hostname()}\n`);
    const warnings: string[] = [];
    const outcomes = await collect(
      runMany({ client: sandbox.client, script: SCRIPT, rows: rows(1), journal, browser: "extension", onWarning: (w) => warnings.push(w) }),
    );
    expect(outcomes).toHaveLength(1);
    expect(warnings).toEqual([expect.stringMatching(/left by a process that no longer runs \(pid 999999999\): taken over/)]);
    await expect(readFile(`${journal}.lock`)).rejects.toThrow();
  });

  test("429s slow the batch and honour Retry-After; no row fails and each runs once", async () => {
    let refused = 0;
    sandbox.use(
      http.post("*/run", () => {
        if (refused >= 3) return undefined; // then the sandbox answers
        refused++;
        return HttpResponse.json({ error: "Too many runs at once" }, { status: 429, headers: { "Retry-After": "0.2" } });
      }),
    );
    const warnings: string[] = [];
    const started = Date.now();
    const run = runMany({ client: sandbox.client, script: SCRIPT, rows: rows(6), concurrency: 4, browser: "extension", onWarning: (w) => warnings.push(w) });
    const outcomes = await collect(run);
    expect(outcomes.map((o) => o.status)).toEqual(Array(6).fill("completed"));
    expect(refused).toBe(3);
    expect(warnings[0]).toMatch(/the service answered 429: slowing down \(\d rows? in flight\), next request in 0\.2 s/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect([...runsByName().values()].every((c) => c === 1)).toBe(true);
  });

  test("a 503 without Retry-After backs off and sends again; no row fails", async () => {
    let refused = 0;
    sandbox.use(
      http.post("*/run", () => {
        if (refused >= 2) return undefined;
        refused++;
        return new HttpResponse(null, { status: 503 });
      }),
    );
    const warnings: string[] = [];
    const outcomes = await collect(
      runMany({
        client: sandbox.client,
        script: SCRIPT,
        rows: rows(3),
        concurrency: 2,
        groupSize: 1,
        browser: "extension",
        onWarning: (w) => warnings.push(w),
      }),
    );
    expect(outcomes.map((o) => o.status)).toEqual(["completed", "completed", "completed"]);
    expect(warnings.some((w) => /the service answered 503: slowing down/.test(w))).toBe(true);
    expect([...runsByName().values()]).toEqual([1, 1, 1]);
  });

  test("never throws: options a JavaScript caller gets wrong end the iteration with an invalid_request error", async () => {
    for (const [options, message] of [
      [undefined, "runMany takes an options object"],
      [{ script: SCRIPT, rows: [] }, "pass the client from createReduckClient()"],
      [{ client: sandbox.client, rows: [] }, "script must be an address"],
      [{ client: sandbox.client, script: SCRIPT, rows: 5 }, "rows must be an iterable or async iterable"],
      [{ client: sandbox.client, script: SCRIPT, rows: [], concurrency: 0 }, "concurrency must be a whole number of at least 1"],
      [{ client: sandbox.client, script: SCRIPT, rows: [], groupSize: 21 }, "groupSize must be from 1 to 20"],
      [{ client: sandbox.client, script: SCRIPT, rows: [], total: -1 }, "total must be a whole number of rows"],
    ] as const) {
      const run = runMany(options as never);
      expect(await collect(run)).toEqual([]);
      expect(run.error).toMatchObject({ kind: "invalid_request", error: expect.stringContaining(message) });
    }
  });

  test("groups rows into one request of `scripts` (up to 20) and pairs each outcome with its row", async () => {
    const bodies: unknown[] = [];
    sandbox.use(
      http.post("*/run", async ({ request }) => {
        bodies.push(await request.clone().json());
        return undefined;
      }),
    );
    const outcomes = await collect(runMany({ client: sandbox.client, script: SCRIPT, rows: rows(8), concurrency: 8, groupSize: 4, browser: "extension" }));
    expect(bodies.length).toBe(2);
    expect((bodies[0] as { scripts: unknown[] }).scripts).toHaveLength(4);
    for (const o of outcomes) expect(o.result).toEqual({ name: `r${o.row}`, n: o.row });
  });

  test("awaited, a batch runs every row to its end and gives the counts; progress knows the total (40) from its first call", async () => {
    const totals: number[] = [];
    const known: boolean[] = [];
    const run = runMany({
      client: sandbox.client,
      script: SCRIPT,
      rows: rows(40),
      concurrency: 8,
      browser: "extension",
      onProgress: (c) => {
        totals.push(c.total);
        known.push(c.totalKnown);
      },
    });
    expect(run.counts).toMatchObject({ total: 40, totalKnown: true, completed: 0 });
    const { counts, error } = await run;
    expect(error).toBeUndefined();
    expect(counts).toMatchObject({ total: 40, completed: 40, failed: 0, inFlight: 0 });
    expect(runsByName().size).toBe(40);
    expect([...runsByName().values()].every((c) => c === 1)).toBe(true);
    expect(totals.length).toBeGreaterThan(0);
    expect(new Set(totals)).toEqual(new Set([40]));
    expect(known.every(Boolean)).toBe(true);
    // Awaiting again gives the same summary; the batch does not run again.
    expect((await run).counts).toBe(counts);
    expect(runsByName().size).toBe(40);
  });

  test("rows from a file counted beforehand: `total` gives progress its total from the first call; uncounted, it grows", async () => {
    const source = async function* () {
      for (const row of rows(5)) yield row;
    };
    const counted: number[] = [];
    await runMany({ client: sandbox.client, script: SCRIPT, rows: source(), total: 5, browser: "extension", onProgress: (c) => counted.push(c.total) });
    expect(new Set(counted)).toEqual(new Set([5]));
    const grown: Array<[number, boolean]> = [];
    const { counts } = await runMany({
      client: sandbox.client,
      script: SCRIPT,
      rows: source(),
      browser: "extension",
      onProgress: (c) => grown.push([c.total, c.totalKnown]),
    });
    expect(counts).toMatchObject({ total: 5, totalKnown: false });
    expect(grown[0]![0]).toBeLessThan(5);
    expect(grown.every(([, k]) => !k)).toBe(true);
  });

  test("iterated and awaited: the await waits for the loop's batch; a second loop, or a loop after an await, is a TypeError", async () => {
    const run = runMany({ client: sandbox.client, script: SCRIPT, rows: rows(3), browser: "extension" });
    const seen: number[] = [];
    const loop = (async () => {
      for await (const o of run) seen.push(o.row);
    })();
    // Awaited while the loop runs: resolves when the loop's batch has ended, with every outcome handed out.
    const summary = await run.then((s) => ({ ...s.counts, seenWhenDone: seen.length }));
    expect(summary).toMatchObject({ completed: 3, seenWhenDone: 3 });
    await loop;
    expect(runsByName().size).toBe(3);
    expect(() => run[Symbol.asyncIterator]()).toThrow(/already being iterated: its outcomes are handed out once/);

    const awaited = runMany({ client: sandbox.client, script: SCRIPT, rows: [{ name: "w1" }], browser: "extension" });
    await awaited;
    expect(() => awaited[Symbol.asyncIterator]()).toThrow(/was awaited, which runs it without handing out its outcomes: iterate it before awaiting it/);
    expect(runsByName().get("w1")).toBe(1);
  });

  test("a loop that stops early stops the batch, and an await then resolves with the counts so far", async () => {
    const run = runMany({ client: sandbox.client, script: SCRIPT, rows: rows(30), concurrency: 1, groupSize: 1, browser: "extension" });
    for await (const _ of run) break;
    const { counts } = await run;
    expect(counts.completed).toBeGreaterThanOrEqual(1);
    expect(counts.completed).toBeLessThan(30);
    expect(runsByName().size).toBeLessThan(30);
  });

  test("awaited, options a JavaScript caller gets wrong resolve with the error, never a throw", async () => {
    const { counts, error } = await runMany({ client: sandbox.client, script: SCRIPT, rows: 5 } as never);
    expect(error).toMatchObject({ kind: "invalid_request", error: expect.stringContaining("rows must be an iterable") });
    expect(counts.completed).toBe(0);
  });
});

describe("runMany: a stop recorded, and shards", () => {
  test("the journal records the rows to run when known, and a stop before the end with why and how to carry on", async () => {
    const journal = path.join(sandbox.folder, "stopped.jsonl");
    const stop = new AbortController();
    const run = runMany({
      client: sandbox.client,
      script: SCRIPT,
      rows: rows(30),
      concurrency: 1,
      groupSize: 1,
      journal,
      stop: stop.signal,
      browser: "extension",
    });
    for await (const _ of run) stop.abort("stopped by the caller's own reason");
    const lines = await journalLines(journal);
    expect(lines.filter((l) => l.status === "started")).toEqual([expect.objectContaining({ rows: 30 })]);
    expect(lines.at(-1)).toMatchObject({ status: "stopped", why: "stopped by the caller's own reason", resume: expect.stringContaining("resume: true") });
    expect(run.counts.completed).toBeLessThan(30);
    // Run to its end, the batch records no stop.
    const rest = runMany({ client: sandbox.client, script: SCRIPT, rows: rows(30), journal, resume: true, browser: "extension" });
    await rest;
    const after = await journalLines(journal);
    expect(after.filter((l) => l.status === "stopped")).toHaveLength(1);
    expect(after.filter((l) => l.status === "started")).toHaveLength(2);
    expect(after.findLastIndex((l) => l.status === "started")).toBeGreaterThan(after.findIndex((l) => l.status === "stopped"));
  });

  test("a refused credential stops the batch: the journal's stopped line says why, the rows never sent are not in it", async () => {
    const journal = path.join(sandbox.folder, "fatal.jsonl");
    let sent = 0;
    sandbox.use(
      http.post("*/run", () => {
        if (sent++ < 1) return undefined;
        return HttpResponse.json({ error: "This API key was revoked" }, { status: 401 });
      }),
    );
    const run = runMany({ client: sandbox.client, script: SCRIPT, rows: rows(10), concurrency: 1, groupSize: 1, journal, browser: "extension" });
    await run;
    expect(run.error).toMatchObject({ status: 401 });
    const lines = await journalLines(journal);
    expect(lines.at(-1)).toMatchObject({ status: "stopped", why: run.error!.error });
    expect(lines.filter((l) => l.status === "completed")).toHaveLength(1);
  });

  test("`shard`: each of three runs its share of an array's rows, disjoint and covering them all; its total is its share", async () => {
    const all = rows(24);
    const seen: number[] = [];
    for (let index = 1; index <= 3; index++) {
      const journal = path.join(sandbox.folder, `shard-${index}.jsonl`);
      const run = runMany({ client: sandbox.client, script: SCRIPT, rows: all, shard: { index, count: 3 }, journal, browser: "extension" });
      const outcomes = await collect(run);
      expect(run.error).toBeUndefined();
      expect(run.counts.total).toBe(outcomes.length);
      expect(run.counts.totalKnown).toBe(true);
      seen.push(...outcomes.map((o) => o.row));
      expect((await journalLines(journal))[0]).toMatchObject({ status: "batch", shard: `${index}/3` });
    }
    expect(seen.sort((a, b) => a - b)).toEqual(all.map((_, i) => i + 1));
    expect(runsByName().size).toBe(24);
    expect([...runsByName().values()].every((c) => c === 1)).toBe(true);
  });

  test("a shard that is not one of 1..count is refused before anything is sent", async () => {
    const { error } = await runMany({ client: sandbox.client, script: SCRIPT, rows: rows(2), shard: { index: 4, count: 3 }, browser: "extension" });
    expect(error).toMatchObject({
      kind: "invalid_request",
      code: "invalid_options",
      error: "shard: the shard's number must be from 1 to 3 (1/3 ... 3/3), not 4",
    });
    expect(runsByName().size).toBe(0);
  });
});
