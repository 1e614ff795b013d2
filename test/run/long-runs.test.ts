/**
 * runScript and waitForRun against every form of answer the service gives (service-facts §3b):
 * a 200 object, a 200 array of envelopes, a 202 batch to poll, a single run's 202 envelope
 * waited on with getRun; and the faults of a wait (a reset or a 503 during a poll, an abort, a
 * 404 batch, a deadline), each made to happen. The wire is played by handlers written here
 * from the facts, not by the library's own code.
 */
import { describe, expect, test } from "vitest";
import { isPendingRun, isRunFailure, runScript, waitForRun, type RunStatusUpdate } from "../../src/index.js";
import { KEY, client, count, runRecord, script, seen, two, wire, useWire } from "./long-runs-wire.js";

useWire();

describe("answers that are final at once", () => {
  test("one script: the documented {result, runId}", async () => {
    wire({ body: { result: { n: 1 }, runId: "00000000-0000-4000-8001-000000000001" } });
    const { data, error } = await runScript({ client: client(), script });
    expect(error).toBeUndefined();
    expect(data).toEqual({ result: { n: 1 }, runId: "00000000-0000-4000-8001-000000000001" });
  });

  test("null is a real result", async () => {
    wire({ body: [{ status: "completed", runId: "00000000-0000-4000-8001-000000000001", result: null }] });
    const { data, error } = await runScript({ client: client(), script });
    expect(error).toBeUndefined();
    expect(data).toEqual({ result: null, runId: "00000000-0000-4000-8001-000000000001" });
  });

  test("several scripts: a 200 array of envelopes, in order, failures with their type and message", async () => {
    const envelopes = [
      { status: "completed", runId: "00000000-0000-4000-8001-000000000001", result: { ok: true } },
      {
        status: "failed",
        runId: "00000000-0000-4000-8001-000000000002",
        error: "selector #send not found",
        errorType: "site_error",
        externalMessage: "The site changed: the Send button is gone",
      },
    ];
    wire({ body: envelopes });
    const { data, error } = await runScript({ client: client(), scripts: two });
    expect(error).toBeUndefined();
    // Each envelope as the service gave it, in order.
    expect(data).toEqual({ status: "failed", totalSteps: 2, runs: envelopes });
    expect(data).not.toHaveProperty("batchId");
  });

  test("an answer for a different number of scripts is an error, never re-paired", async () => {
    wire({ body: [{ status: "completed", runId: "00000000-0000-4000-8001-000000000001", result: 1 }] });
    const { data, error } = await runScript({ client: client(), scripts: two });
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ kind: "invalid_response" });
    expect(error!.error).toMatch(/^asked for 2 scripts, the service answered for 1/);
  });

  test("a run with neither result nor error is a failure naming the run", async () => {
    wire({ body: [{ status: "completed", runId: "00000000-0000-4000-8001-00000000005e" }] });
    const { data, error } = await runScript({ client: client(), script });
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ kind: "run_failed", runId: "00000000-0000-4000-8001-00000000005e" });
    expect(error!.error).toMatch(/run 00000000-0000-4000-8001-00000000005e ended with neither a result nor an error/);

    wire({
      body: [
        { status: "completed", runId: "00000000-0000-4000-8001-000000000001", result: 0 },
        { status: "completed", runId: "00000000-0000-4000-8001-000000000002" },
      ],
    });
    const batch = await runScript({ client: client(), scripts: two });
    expect(batch.data!.status).toBe("failed");
    expect(batch.data!.runs[0]).toEqual({ status: "completed", runId: "00000000-0000-4000-8001-000000000001", result: 0 });
    expect(batch.data!.runs[1]).toMatchObject({ status: "failed", runId: "00000000-0000-4000-8001-000000000002" });
    expect(batch.data!.runs[1]!.error).toMatch(/run 00000000-0000-4000-8001-000000000002 ended with neither a result nor an error/);
  });

  test("a failed single run carries runId, errorType and externalMessage", async () => {
    wire({
      body: [
        {
          status: "failed",
          runId: "00000000-0000-4000-8001-000000000009",
          error: "timeout after 120s",
          errorType: "timeout",
          externalMessage: "The page took too long",
        },
      ],
    });
    const { error } = await runScript({ client: client(), script });
    expect(error).toEqual({
      kind: "run_failed",
      runId: "00000000-0000-4000-8001-000000000009",
      error: "timeout after 120s",
      errorType: "timeout",
      externalMessage: "The page took too long",
    });

    // The same failure given as the POST's refusal naming the run: the same kind and fields.
    wire({
      status: 422,
      body: { error: "timeout after 120s", runId: "00000000-0000-4000-8001-000000000010", errorType: "timeout", externalMessage: "The page took too long" },
    });
    const http422 = await runScript({ client: client(), script });
    expect(http422.error).toMatchObject({
      kind: "run_failed",
      status: 422,
      runId: "00000000-0000-4000-8001-000000000010",
      errorType: "timeout",
      externalMessage: "The page took too long",
    });
    expect(isRunFailure(http422.error!)).toBe(true);
    expect(http422.outcomes).toEqual([
      {
        status: "failed",
        runId: "00000000-0000-4000-8001-000000000010",
        error: "timeout after 120s",
        errorType: "timeout",
        externalMessage: "The page took too long",
      },
    ]);

    // A refusal naming no run is an HTTP error, and no run's failure.
    wire({ status: 400, body: { error: "bad request" } });
    const refused = await runScript({ client: client(), script });
    expect(refused.error).toMatchObject({ kind: "http", status: 400 });
    expect(isRunFailure(refused.error!)).toBe(false);
    expect(refused.outcomes).toBeUndefined();
  });
});

describe("a 202 batch is polled to the end", () => {
  test("POST once, then GET the batch with the same credential, sleeping retryAfterMs", async () => {
    const running = {
      batchId: "00000000-0000-4000-8002-000000000001",
      status: "running",
      retryAfterMs: 150,
      runs: [
        { status: "completed", runId: "00000000-0000-4000-8001-000000000001", result: 1 },
        { status: "running", runId: "00000000-0000-4000-8001-000000000002" },
      ],
    };
    const done = {
      batchId: "00000000-0000-4000-8002-000000000001",
      status: "completed",
      runs: [
        { status: "completed", runId: "00000000-0000-4000-8001-000000000001", result: 1 },
        { status: "completed", runId: "00000000-0000-4000-8001-000000000002", result: 2 },
      ],
    };
    wire({ status: 202, body: { ...running, status: "queued" } }, [{ body: running }, { body: done }]);
    const updates: RunStatusUpdate[] = [];
    const started = Date.now();
    const { data, error } = await runScript({ client: client(), scripts: two, onStatus: (u) => updates.push(u) });
    expect(error).toBeUndefined();
    expect(data).toEqual({
      batchId: "00000000-0000-4000-8002-000000000001",
      status: "completed",
      totalSteps: 2,
      runs: [
        { status: "completed", runId: "00000000-0000-4000-8001-000000000001", result: 1 },
        { status: "completed", runId: "00000000-0000-4000-8001-000000000002", result: 2 },
      ],
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2 * 150 - 5);
    expect(count("POST /run")).toBe(1);
    expect(count("GET /batches/00000000-0000-4000-8002-000000000001")).toBe(2);
    expect(seen.every((s) => s.key === KEY)).toBe(true);
    // Told at the first 202, with the ids to wait on again, then after each poll.
    expect(updates[0]).toMatchObject({
      status: "queued",
      batchId: "00000000-0000-4000-8002-000000000001",
      runIds: ["00000000-0000-4000-8001-000000000001", "00000000-0000-4000-8001-000000000002"],
      total: 2,
      completed: 1,
      failed: 0,
    });
    expect(updates.map((u) => u.status)).toEqual(["queued", "running", "completed"]);
    expect(updates.at(-1)).toMatchObject({ completed: 2, failed: 0 });
  });

  test("an onStatus that throws does not break the wait", async () => {
    wire({ status: 202, body: { batchId: "00000000-0000-4000-8002-000000000012", status: "running", retryAfterMs: 10, runs: [] } }, [
      { body: { batchId: "00000000-0000-4000-8002-000000000012", status: "completed", runs: [{ runId: "00000000-0000-4000-8001-000000000001", result: 7 }] } },
    ]);
    const { data, error } = await runScript({
      client: client(),
      script,
      onStatus: () => {
        throw new Error("the caller's bug");
      },
    });
    expect(error).toBeUndefined();
    expect(data).toEqual({ result: 7, runId: "00000000-0000-4000-8001-000000000001" });
    expect(count("POST /run")).toBe(1);
  });

  test("without retryAfterMs the wait between polls is 2 s", async () => {
    wire({ status: 202, body: { batchId: "00000000-0000-4000-8002-000000000002", status: "running", runs: [] } }, [
      {
        body: { batchId: "00000000-0000-4000-8002-000000000002", status: "completed", runs: [{ runId: "00000000-0000-4000-8001-000000000001", result: "x" }] },
      },
    ]);
    const started = Date.now();
    const { data } = await runScript({ client: client(), script });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_990);
    expect(data).toEqual({ result: "x", runId: "00000000-0000-4000-8001-000000000001" });
  });

  test("a batch that ends failed gives each step's outcome; a single script's failure is its error", async () => {
    const failedBatch = {
      batchId: "00000000-0000-4000-8002-000000000003",
      status: "failed",
      runs: [{ status: "failed", runId: "00000000-0000-4000-8001-000000000001", error: "boom", errorType: "site_error" }],
    };
    wire(
      {
        status: 202,
        body: {
          batchId: "00000000-0000-4000-8002-000000000003",
          status: "running",
          retryAfterMs: 10,
          runs: [{ status: "running", runId: "00000000-0000-4000-8001-000000000001" }],
        },
      },
      [{ body: failedBatch }],
    );
    const { error } = await runScript({ client: client(), script });
    expect(error).toMatchObject({
      kind: "run_failed",
      runId: "00000000-0000-4000-8001-000000000001",
      batchId: "00000000-0000-4000-8002-000000000003",
      error: "boom",
      errorType: "site_error",
    });
  });

  test("a count mismatch in the polled batch is an error", async () => {
    wire({ status: 202, body: { batchId: "00000000-0000-4000-8002-000000000004", status: "running", retryAfterMs: 10, runs: [] } }, [
      { body: { batchId: "00000000-0000-4000-8002-000000000004", status: "completed", runs: [{ runId: "00000000-0000-4000-8001-000000000001", result: 1 }] } },
    ]);
    const { error } = await runScript({ client: client(), scripts: two });
    expect(error).toMatchObject({ kind: "invalid_response", batchId: "00000000-0000-4000-8002-000000000004" });
    expect(error!.error).toMatch(/asked for 2 scripts, the service answered for 1 \(batch 00000000-0000-4000-8002-000000000004\)/);
  });

  test("wait: false returns the handle at the first answer and polls nothing", async () => {
    wire({
      status: 202,
      body: {
        batchId: "00000000-0000-4000-8002-000000000005",
        status: "running",
        retryAfterMs: 3000,
        runs: [{ status: "running", runId: "00000000-0000-4000-8001-000000000001" }, { status: "queued" }],
      },
    });
    const updates: RunStatusUpdate[] = [];
    const { data, error } = await runScript({ client: client(), scripts: two, wait: false, onStatus: (u) => updates.push(u) });
    expect(error).toBeUndefined();
    expect(data).toEqual({
      status: "running",
      batchId: "00000000-0000-4000-8002-000000000005",
      runIds: ["00000000-0000-4000-8001-000000000001", null],
      retryAfterMs: 3000,
    });
    expect(isPendingRun(data)).toBe(true);
    expect(updates).toEqual([
      expect.objectContaining({
        status: "running",
        batchId: "00000000-0000-4000-8002-000000000005",
        runIds: ["00000000-0000-4000-8001-000000000001", null],
        total: 2,
      }),
    ]);
    expect(count("GET /batches/00000000-0000-4000-8002-000000000005")).toBe(0);

    // A final first answer is the outcome, wait: false or not.
    wire({ body: { result: 1, runId: "00000000-0000-4000-8001-000000000001" } });
    const final = await runScript({ client: client(), script, wait: false });
    expect(final.data).toEqual({ result: 1, runId: "00000000-0000-4000-8001-000000000001" });
    expect(isPendingRun(final.data)).toBe(false);
  });
});

describe("a single run's 202 envelope is waited on with getRun", () => {
  test("running, then success: the result", async () => {
    wire(
      { status: 202, body: { status: "running", runId: "00000000-0000-4000-8001-000000000001", retryAfterMs: 20 } },
      [],
      [runRecord("00000000-0000-4000-8001-000000000001", "running"), runRecord("00000000-0000-4000-8001-000000000001", "success", { result: { sent: true } })],
    );
    const updates: RunStatusUpdate[] = [];
    const started = Date.now();
    const { data, error } = await runScript({ client: client(), script, onStatus: (u) => updates.push(u) });
    expect(error).toBeUndefined();
    expect(data).toEqual({ result: { sent: true }, runId: "00000000-0000-4000-8001-000000000001" });
    // The record says nothing of pacing: the first answer's retryAfterMs (20 ms) is kept, not 2 s.
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(count("POST /run")).toBe(1);
    expect(count("GET /api/runs/00000000-0000-4000-8001-000000000001")).toBe(2);
    expect(updates[0]).toMatchObject({
      status: "running",
      runId: "00000000-0000-4000-8001-000000000001",
      runIds: ["00000000-0000-4000-8001-000000000001"],
      total: 1,
    });
    expect(updates.at(-1)).toMatchObject({ status: "completed", completed: 1 });
  });

  test("error and cancelled end as the run's failure", async () => {
    wire(
      { status: 202, body: { status: "queued", runId: "00000000-0000-4000-8001-000000000002", retryAfterMs: 10 } },
      [],
      [runRecord("00000000-0000-4000-8001-000000000002", "error", { error: "Element not found: #send" })],
    );
    const failed = await runScript({ client: client(), script });
    expect(failed.error).toMatchObject({ kind: "run_failed", runId: "00000000-0000-4000-8001-000000000002", error: "Element not found: #send" });

    wire(
      { status: 202, body: { status: "queued", runId: "00000000-0000-4000-8001-000000000003", retryAfterMs: 10 } },
      [],
      [runRecord("00000000-0000-4000-8001-000000000003", "cancelled")],
    );
    const cancelled = await runScript({ client: client(), script });
    expect(cancelled.error).toMatchObject({
      kind: "run_failed",
      runId: "00000000-0000-4000-8001-000000000003",
      error: "run 00000000-0000-4000-8001-000000000003 was cancelled",
    });
  });

  test("wait: false gives the run's handle", async () => {
    wire({ status: 202, body: { status: "running", runId: "00000000-0000-4000-8001-000000000004", retryAfterMs: 500 } });
    const { data } = await runScript({ client: client(), script, wait: false });
    expect(data).toEqual({
      status: "running",
      runId: "00000000-0000-4000-8001-000000000004",
      runIds: ["00000000-0000-4000-8001-000000000004"],
      retryAfterMs: 500,
    });
  });
});

describe("ids the service sends are checked where they become a URL, and only there", () => {
  const polls = () => seen.filter((s) => s.route.startsWith("GET ")).length;

  test.each([
    ["a batch id", { status: 202, body: { batchId: "../../api/me", status: "running", runs: [] } }, two, "batch"],
    ["a run id of a pending run", { status: 202, body: { status: "running", runId: "../../api/me", retryAfterMs: 10 } }, undefined, "run"],
  ] as const)("%s of another shape is never polled: the answer cannot be waited on (invalid_id)", async (_what, answer, scripts, kind) => {
    wire(
      answer,
      [{ body: { batchId: "00000000-0000-4000-8002-000000000030", status: "completed", runs: [] } }],
      [runRecord("00000000-0000-4000-8001-000000000030", "success")],
    );
    const { data, error } = await runScript(scripts ? { client: client(), scripts } : { client: client(), script });
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ kind: "invalid_response", code: "invalid_id" });
    expect(error!.error).toMatch(new RegExp(`the service's answer names a run to wait on by an id that cannot be: ".*" is not a ${kind} id`));
    expect(polls()).toBe(0);
  });

  test("run ids in a batch's runs are kept as the service gave them: the batch is polled and its outcomes stand", async () => {
    const batchId = "00000000-0000-4000-8002-000000000031";
    wire({ status: 202, body: { batchId, status: "running", retryAfterMs: 5, runs: [{ runId: "x/../y" }] } }, [
      {
        body: {
          batchId,
          status: "completed",
          runs: [
            { status: "completed", runId: "../../api/me", result: 1 },
            { status: "completed", result: 2 },
          ],
        },
      },
    ]);
    const { data, error } = await runScript({ client: client(), scripts: two });
    expect(error).toBeUndefined();
    expect(data).toMatchObject({
      batchId,
      status: "completed",
      runs: [
        { runId: "../../api/me", result: 1 },
        { runId: null, result: 2 },
      ],
    });
    expect(polls()).toBe(1);
  });

  test("a refusal naming a run by something else stands with the id as text; waiting on that id is refused before any request", async () => {
    wire({ status: 422, body: { error: "The script failed: no such button", runId: "../../api/me", errorType: "site_error" } });
    const { error } = await runScript({ client: client(), script });
    expect(error).toMatchObject({ kind: "run_failed", status: 422, errorType: "site_error", runId: "../../api/me" });
    const waited = await waitForRun({ client: client(), runId: error!.runId! });
    expect(waited.error).toMatchObject({ kind: "invalid_request", code: "invalid_id", parameter: "runId" });
    expect(polls()).toBe(0);
  });
});
