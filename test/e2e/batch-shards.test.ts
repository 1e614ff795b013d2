/**
 * A batch across machines: `reduck batch --shard I/N` sends only its share of the rows, the
 * shards together every row once; each keeps its own results file in the same folder and resumes
 * on its own; `reduck batch report A B C` makes one report of them all, each row counted once.
 * The built CLI against the sandbox over loopback HTTP.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "../support/cli.js";
import { env, folder, journal, runsPerName, store, useBatchSandbox } from "./batch-sandbox.js";

useBatchSandbox();

describe("reduck batch --shard I/N", () => {
  test("three shards of one input: disjoint, every row once between them, one report of their three files", async () => {
    const dir = await folder();
    const input = path.join(dir, "many.jsonl");
    const names = Array.from({ length: 30 }, (_, i) => `shard-row-${i + 1}`);
    await writeFile(input, `${names.map((name) => JSON.stringify({ name })).join("\n")}\n`);
    const files: string[] = [];
    const rowsOf: number[][] = [];
    for (const shard of ["1/3", "2/3", "3/3"]) {
      const r = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--shard", shard, "--json"], { env });
      expect(r.code, r.stderr).toBe(0);
      const [i, n] = shard.split("/");
      // Side by side in one folder, each its own results file.
      const out = path.join(dir, `many.shard-${i}-of-${n}.results.jsonl`);
      expect(JSON.parse(r.stdout)).toMatchObject({ out });
      const lines = await journal(out);
      expect(lines[0]).toMatchObject({ status: "batch", shard });
      const rows = lines.filter((l) => l.status === "completed").map((l) => l.row as number);
      expect(lines.find((l) => l.status === "started")).toMatchObject({ rows: rows.length, shard });
      expect(JSON.parse(r.stdout).total).toBe(rows.length);
      files.push(out);
      rowsOf.push(rows);
    }
    // Disjoint and covering: each row number (the input's own) in exactly one shard.
    const all = rowsOf.flat().sort((a, b) => a - b);
    expect(all).toEqual(names.map((_, i) => i + 1));
    for (const rows of rowsOf) expect(rows.length).toBeGreaterThan(0);
    // At the service, each row ran once.
    const counts = await runsPerName("echo");
    expect(names.filter((name) => counts.get(name) !== 1)).toEqual([]);

    // A shard resumed sends nothing again; resumed as another shard, it is refused before anything is sent.
    const before = store.runs.size;
    const again = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--shard", "2/3", "--resume"], { env });
    expect(again.code, again.stderr).toBe(0);
    const other = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--shard", "1/3", "--out", files[1]!, "--resume"], { env });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("it ran shard 2/3, now shard 1/3");
    expect(store.runs.size).toBe(before);

    // One report of the three files (one of them given twice): every row once.
    const json = await runCli(["batch", "report", ...files, files[0]!, "--json"], { env });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      rows: { total: 30, completed: 30 },
      state: "finished",
      inputRows: 30,
      neverSent: 0,
    });
    const page = path.join(dir, "all.html");
    const html = await runCli(["batch", "report", ...files, "--html", page], { env });
    expect(html.code, html.stderr).toBe(0);
    const text = await readFile(page, "utf8");
    expect(text).toContain("<b>30</b>rows");
    expect(text).toContain("<dt>Shards</dt><dd>1/3, 2/3, 3/3</dd>");
    for (let row = 1; row <= 30; row++) expect(text.match(new RegExp(`row ${row} +completed`, "g"))).toHaveLength(1);
  });

  test("one shard's report of a batch split in two says how many rows its input share holds", async () => {
    const dir = await folder();
    const input = path.join(dir, "two.jsonl");
    await writeFile(input, `${Array.from({ length: 10 }, (_, i) => JSON.stringify({ name: `half-${i}` })).join("\n")}\n`);
    const r = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--shard", "1/2", "--json"], { env });
    expect(r.code, r.stderr).toBe(0);
    const { total } = JSON.parse(r.stdout);
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThan(10);
    const json = await runCli(["batch", "report", path.join(dir, "two.shard-1-of-2.results.jsonl"), "--json"], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({ state: "finished", inputRows: total, rows: { total } });
  });

  test("--shard that is not I/N with I from 1 to N is refused in one line, nothing sent (exit 2)", async () => {
    const dir = await folder();
    const input = path.join(dir, "never.jsonl");
    await writeFile(input, '{"name": "never-sharded"}\n');
    const before = store.runs.size;
    for (const [shard, words] of [
      ["0/3", "--shard 0/3: the shard's number must be from 1 to 3 (1/3 ... 3/3), not 0"],
      ["4/3", "--shard 4/3: the shard's number must be from 1 to 3 (1/3 ... 3/3), not 4"],
      ["1/0", "--shard 1/0: the number of shards must be a whole number from 1 to 10,000, not 0"],
      ["half", "--shard half: give the shard as I/N, e.g. 1/4 for the first of four (I from 1 to N)"],
    ]) {
      const r = await runCli(["batch", "--script", "rows.example/echo", "--input", input, "--shard", shard!], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(words);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(store.runs.size).toBe(before);
  });
});
