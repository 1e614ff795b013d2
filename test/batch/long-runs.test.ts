/**
 * runMany with runs that outlive the request (the service's 202s): the ids the service hands back are
 * journaled at once, and a batch stopped while waiting resumes by waiting on them, never by
 * sending the rows again. In-process, against the sandbox's handlers.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "vitest";
import { runMany, type RowOutcome } from "../../src/index.js";
import { useInProcessSandbox } from "../support/sandbox.js";
const sandbox = useInProcessSandbox({ folder: "reduck-batch-long-" });

const SLEEP = "sandbox/sandbox.test/sleep";
const rows = [
  { seconds: 2, echo: "a" },
  { seconds: 2, echo: "b" },
];

async function collect(run: AsyncIterable<RowOutcome>): Promise<RowOutcome[]> {
  const out: RowOutcome[] = [];
  for await (const o of run) out.push(o);
  return out;
}
const lines = async (file: string) =>
  (await readFile(file, "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, any>);
const runsPerEcho = () => {
  const counts = new Map<string, number>();
  for (const run of sandbox.store.runs.values())
    if (run.script?.host === "sandbox.test") counts.set(String(run.args.echo), (counts.get(String(run.args.echo)) ?? 0) + 1);
  return counts;
};

/** Runs a batch and stops it (as a second Ctrl-C would) once the service's ids are journaled. */
async function stoppedWhileWaiting(journal: string): Promise<Array<Record<string, any>>> {
  const hard = new AbortController();
  const run = runMany({
    client: sandbox.client,
    script: SLEEP,
    rows,
    groupSize: 2,
    concurrency: 2,
    waitForSeconds: 1,
    journal,
    signal: hard.signal,
    browser: "extension",
  });
  const iterating = collect(run);
  const deadline = Date.now() + 10_000;
  while (!(await readFile(journal, "utf8").catch(() => "")).includes('"accepted"')) {
    if (Date.now() > deadline) throw new Error("no accepted line within 10 s");
    await new Promise((r) => setTimeout(r, 20));
  }
  hard.abort();
  expect(await iterating).toEqual([]);
  return lines(journal);
}

test("a 202's batch id and run ids are journaled before the runs end; resuming waits on the run ids", async () => {
  const journal = path.join(sandbox.folder, "out.jsonl");
  const before = await stoppedWhileWaiting(journal);
  const accepted = before.filter((l) => l.status === "accepted");
  expect(accepted).toHaveLength(2);
  expect(accepted[0]).toMatchObject({ batchId: expect.any(String), index: 0, runId: expect.any(String) });
  const resumed = await collect(runMany({ client: sandbox.client, script: SLEEP, rows, journal, resume: true, browser: "extension" }));
  expect(resumed.map((o) => [o.row, o.status, o.runId])).toEqual(
    expect.arrayContaining([
      [1, "completed", accepted[0]!.runId],
      [2, "completed", accepted[1]!.runId],
    ]),
  );
  expect(resumed.find((o) => o.row === 2)!.result).toEqual({ slept: 2, echo: "b" });
  expect([...runsPerEcho().entries()].sort()).toEqual([
    ["a", 1],
    ["b", 1],
  ]);
}, 20_000);

test("with only the batch id known, resuming waits on the batch and takes each row's place in it", async () => {
  const journal = path.join(sandbox.folder, "out.jsonl");
  const before = await stoppedWhileWaiting(journal);
  // As if the service had named the batch but not yet its runs.
  await writeFile(journal, before.map((l) => JSON.stringify(l.status === "accepted" ? { ...l, runId: undefined } : l)).join("\n") + "\n");
  const resumed = await collect(runMany({ client: sandbox.client, script: SLEEP, rows, journal, resume: true, browser: "extension" }));
  expect(resumed.map((o) => o.status)).toEqual(["completed", "completed"]);
  expect(resumed.find((o) => o.row === 1)!.result).toEqual({ slept: 2, echo: "a" });
  expect([...runsPerEcho().entries()].sort()).toEqual([
    ["a", 1],
    ["b", 1],
  ]);
}, 20_000);
