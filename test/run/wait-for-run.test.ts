/**
 * waitForRun's one options object: the run to wait on and how to wait in one `{ client, ... }`,
 * as every other call takes; a pending run from `runScript({ wait: false })` handed back as it
 * came; the older two-argument form still meaning the same.
 */
import { describe, expect, test } from "vitest";
import { isPendingRun, runScript, waitForRun } from "../../src/index.js";
import { client, count, runRecord, script, seen, two, wire, useWire } from "./long-runs-wire.js";

useWire();

describe("waitForRun({ client, ... })", () => {
  test("the target and the wait's options in one object: deadlineMs ends it, onStatus is told", async () => {
    wire({ body: null }, [
      {
        body: {
          batchId: "00000000-0000-4000-8002-000000000020",
          status: "running",
          retryAfterMs: 30,
          runs: [{ runId: "00000000-0000-4000-8001-000000000001", status: "running" }],
        },
      },
    ]);
    const updates: string[] = [];
    const { error } = await waitForRun({
      client: client(),
      batchId: "00000000-0000-4000-8002-000000000020",
      deadlineMs: 150,
      onStatus: (u) => updates.push(u.status),
    });
    expect(error).toMatchObject({ kind: "timeout", batchId: "00000000-0000-4000-8002-000000000020" });
    expect(updates[0]).toBe("running");
  });

  test("its signal stops the wait at once", async () => {
    wire({ body: null }, [{ body: { batchId: "00000000-0000-4000-8002-000000000021", status: "running", retryAfterMs: 60_000, runs: [] } }]);
    const controller = new AbortController();
    const { error } = await waitForRun({
      client: client(),
      batchId: "00000000-0000-4000-8002-000000000021",
      signal: controller.signal,
      onStatus: () => controller.abort(),
    });
    expect(error).toMatchObject({ kind: "aborted", batchId: "00000000-0000-4000-8002-000000000021" });
    expect(count("GET /batches/00000000-0000-4000-8002-000000000021")).toBe(1);
  });

  test("a pending batch, as runScript({ wait: false }) returned it, is waited on as it is", async () => {
    wire({ status: 202, body: { batchId: "00000000-0000-4000-8002-000000000022", status: "running", retryAfterMs: 10, runs: [] } }, [
      {
        body: {
          batchId: "00000000-0000-4000-8002-000000000022",
          status: "completed",
          runs: [
            { runId: "00000000-0000-4000-8001-000000000001", result: 1 },
            { runId: "00000000-0000-4000-8001-000000000002", result: 2 },
          ],
        },
      },
    ]);
    const first = await runScript({ client: client(), scripts: two, wait: false });
    expect(first.data && isPendingRun(first.data)).toBe(true);
    if (!first.data || !isPendingRun(first.data)) return;
    const done = await waitForRun({ client: client(), ...first.data });
    expect(done.error).toBeUndefined();
    expect(done.data).toMatchObject({ batchId: "00000000-0000-4000-8002-000000000022", status: "completed", runs: [{ result: 1 }, { result: 2 }] });
    expect(count("POST /run")).toBe(1);
  });

  test("a pending run of one script, handed back with its run id, is waited on through its record", async () => {
    wire(
      { status: 202, body: { status: "running", runId: "00000000-0000-4000-8001-000000000030", retryAfterMs: 10 } },
      [],
      [runRecord("00000000-0000-4000-8001-000000000030", "success", { result: { a: 1 } })],
    );
    const first = await runScript({ client: client(), script, wait: false });
    if (!first.data || !isPendingRun(first.data)) throw new Error(`not pending: ${JSON.stringify(first)}`);
    expect(first.data).toMatchObject({ status: "running", runId: "00000000-0000-4000-8001-000000000030" });
    const done = await waitForRun({ client: client(), ...first.data, deadlineMs: 10_000 });
    expect(done.data).toEqual({ result: { a: 1 }, runId: "00000000-0000-4000-8001-000000000030" });
  });

  test("the older form, the target and the options apart, still waits the same way", async () => {
    wire({ body: null }, [{ body: { batchId: "00000000-0000-4000-8002-000000000023", status: "running", retryAfterMs: 30, runs: [] } }]);
    const { error } = await waitForRun({ client: client(), batchId: "00000000-0000-4000-8002-000000000023" }, { deadlineMs: 100 });
    expect(error).toMatchObject({ kind: "timeout", batchId: "00000000-0000-4000-8002-000000000023" });
  });

  test("options a JavaScript caller gets wrong are refused in the one object, without a request", async () => {
    const c = client();
    for (const [options, message] of [
      [undefined, 'waitForRun takes one options object: waitForRun({ client, batchId: "..." })'],
      [{ client: c, runId: "00000000-0000-4000-8001-0000000000a0", deadlineMs: -1 }, "deadlineMs must be a number of milliseconds, 0 or more"],
      [{ client: c, runId: "00000000-0000-4000-8001-0000000000a0", signal: "now" }, "signal must be an AbortSignal"],
      [{ client: c, runId: "00000000-0000-4000-8001-0000000000a0", onStatus: 1 }, "onStatus must be a function"],
      [{ client: c }, "give exactly one of batchId (several scripts) or runId (one script)"],
    ] as const) {
      const { error } = await waitForRun(options as never);
      expect(error).toMatchObject({ kind: "invalid_request", error: expect.stringContaining(message) });
    }
    // An id of another shape than a UUID is refused where it would become the poll's URL.
    for (const [options, message] of [
      [{ client: c, runId: "../../api/me" }, '"../../api/me" is not a run id: a run id is a UUID, such as 86b0479f-a68f-4fcd-92d1-b68f485ee3d9'],
      [{ client: c, batchId: "86b0479f-a68f-0fcd-92d1-b68f485ee3d9" }, '"86b0479f-a68f-0fcd-92d1-b68f485ee3d9" is not a batch id: a batch id is a UUID'],
    ] as const) {
      const { error } = await waitForRun(options);
      expect(error).toMatchObject({ kind: "invalid_request", code: "invalid_id", error: expect.stringContaining(message) });
    }
    expect((await waitForRun({ client: c, runId: "00000000-0000-4000-8001-0000000000a0" }, null as never)).error!.error).toMatch(
      /^waitForRun takes one options object/,
    );
    expect(seen).toEqual([]);
  });
});
