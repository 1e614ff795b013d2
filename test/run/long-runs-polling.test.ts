/**
 * runScript and waitForRun while a run is waited on: the faults of a wait (a reset or a 503
 * during a poll, an abort, a 404 batch, a deadline), each made to happen; waitForRun on its own;
 * and the run options checked before anything is sent. The wire is long-runs-wire.ts.
 */
import { describe, expect, test } from "vitest";
import { isRunFailure, runScript, waitForRun } from "../../src/index.js";
import { client, count, runRecord, script, seen, two, wire, useWire } from "./long-runs-wire.js";

useWire();

describe("faults while polling", () => {
  // Resets are made over real loopback HTTP in long-runs-http.test.ts (MSW's network error is not one).
  test("a 503 during polls is retried with backoff", async () => {
    wire({ status: 202, body: { batchId: "00000000-0000-4000-8002-000000000008", status: "running", retryAfterMs: 10, runs: [] } }, [
      { status: 503, body: { error: "busy" } },
      { status: 502, body: { error: "gateway" } },
      { body: { batchId: "00000000-0000-4000-8002-000000000008", status: "completed", runs: [{ runId: "00000000-0000-4000-8001-000000000001", result: 1 }] } },
    ]);
    const { data, error } = await runScript({ client: client(), script });
    expect(error).toBeUndefined();
    expect(data).toEqual({ result: 1, runId: "00000000-0000-4000-8001-000000000001" });
    expect(count("POST /run")).toBe(1);
    expect(count("GET /batches/00000000-0000-4000-8002-000000000008")).toBe(3);
  });

  test("a 404 on the batch is a clear error naming it", async () => {
    wire({ status: 202, body: { batchId: "00000000-0000-4000-8002-0000000000e1", status: "running", retryAfterMs: 10, runs: [] } }, []);
    const { error } = await runScript({ client: client(), scripts: two });
    expect(error).toMatchObject({ kind: "http", status: 404, code: "run_not_found", batchId: "00000000-0000-4000-8002-0000000000e1" });
    expect(error!.error).toMatch(/^there is no batch 00000000-0000-4000-8002-0000000000e1 at https:\/\/mcp\.reduck\.ai: check the id/);
  });

  test("the signal stops polling at once, and says how to wait again", async () => {
    wire({ status: 202, body: { batchId: "00000000-0000-4000-8002-000000000009", status: "running", retryAfterMs: 60_000, runs: [] } });
    const controller = new AbortController();
    let abortedAt = 0;
    const pending = runScript({
      client: client(),
      scripts: two,
      signal: controller.signal,
      onStatus: () => setTimeout(() => ((abortedAt = Date.now()), controller.abort()), 50),
    });
    const { error } = await pending;
    expect(Date.now() - abortedAt).toBeLessThan(500);
    expect(error).toMatchObject({ kind: "aborted", code: "run_continues", batchId: "00000000-0000-4000-8002-000000000009" });
    expect(error!.error).toBe(
      'stopped waiting for batch 00000000-0000-4000-8002-000000000009; it goes on at the service: wait for it again with waitForRun({ client, batchId: "00000000-0000-4000-8002-000000000009" })',
    );
    expect(count("POST /run")).toBe(1);
    expect(count("GET /batches/00000000-0000-4000-8002-000000000009")).toBe(0);
  });

  test("deadlineMs ends the wait with the handle's id; the run goes on", async () => {
    wire({ status: 202, body: { batchId: "00000000-0000-4000-8002-000000000010", status: "running", retryAfterMs: 30, runs: [] } }, [
      { body: { batchId: "00000000-0000-4000-8002-000000000010", status: "running", retryAfterMs: 30, runs: [] } },
    ]);
    const started = Date.now();
    const { error } = await waitForRun({ client: client(), batchId: "00000000-0000-4000-8002-000000000010" }, { deadlineMs: 200 });
    // Not before the deadline; and well before the test's own 5 s limit, which a wait without one would reach.
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(error).toMatchObject({ kind: "timeout", batchId: "00000000-0000-4000-8002-000000000010" });
    expect(error!.error).toMatch(/^batch 00000000-0000-4000-8002-000000000010 is still running after \d+ s; it goes on at the service/);
    expect(count("GET /batches/00000000-0000-4000-8002-000000000010")).toBeGreaterThanOrEqual(2);
    expect(count("POST /run")).toBe(0);
  });
});

describe("waitForRun", () => {
  test("a batch id: looks at once, then polls to the end", async () => {
    wire({ body: null }, [
      {
        body: {
          batchId: "00000000-0000-4000-8002-000000000011",
          status: "running",
          retryAfterMs: 10,
          runs: [{ runId: "00000000-0000-4000-8001-000000000001", status: "running" }],
        },
      },
      {
        body: {
          batchId: "00000000-0000-4000-8002-000000000011",
          status: "completed",
          runs: [{ runId: "00000000-0000-4000-8001-000000000001", status: "completed", result: [1] }],
        },
      },
    ]);
    const { data, error } = await waitForRun({ client: client(), batchId: "00000000-0000-4000-8002-000000000011" });
    expect(error).toBeUndefined();
    expect(data).toEqual({
      batchId: "00000000-0000-4000-8002-000000000011",
      status: "completed",
      totalSteps: 1,
      runs: [{ status: "completed", runId: "00000000-0000-4000-8001-000000000001", result: [1] }],
    });
  });

  test("a run id: getRun until terminal; an unknown one is a clear error", async () => {
    wire({ body: null }, [], [runRecord("00000000-0000-4000-8001-000000000005", "success", { result: { a: 1 } })]);
    const { data } = await waitForRun({ client: client(), runId: "00000000-0000-4000-8001-000000000005" });
    expect(data).toEqual({ result: { a: 1 }, runId: "00000000-0000-4000-8001-000000000005" });

    wire({ body: null }, [], []);
    const missing = await waitForRun({ client: client(), runId: "00000000-0000-4000-8001-0000000000e0" });
    expect(missing.error).toMatchObject({ status: 404, runId: "00000000-0000-4000-8001-0000000000e0" });
    expect(missing.error!.error).toMatch(/^there is no run 00000000-0000-4000-8001-0000000000e0 at https:\/\/reduck\.ai/);
    // Not the run's failure: the wait's.
    expect(isRunFailure(missing.error!)).toBe(false);
  });

  test("bad targets are refused without a request", async () => {
    const bad = await waitForRun({ client: client(), batchId: "" } as never);
    expect(bad.error).toMatchObject({ kind: "invalid_request", error: "batchId must be a non-empty string (the id the run's first answer gave)" });
    const both = await waitForRun({
      client: client(),
      batchId: "00000000-0000-4000-8002-0000000000a0",
      runId: "00000000-0000-4000-8001-0000000000a0",
    } as never);
    expect(both.error!.error).toBe("give exactly one of batchId (several scripts) or runId (one script)");
    expect(seen).toEqual([]);
  });
});

describe("options on the wire, checked before sending", () => {
  test("waitForSeconds, region and country go as given; managed goes as cloud", async () => {
    wire({ body: { result: 1, runId: "00000000-0000-4000-8001-000000000001" } });
    await runScript({ client: client(), script, waitForSeconds: 110, region: "us-west-2", country: "de" });
    expect(seen[0]!.body).toMatchObject({ waitForSeconds: 110, region: "us-west-2", country: "DE" });
    expect(seen[0]!.body).not.toHaveProperty("browser");
    await runScript({ client: client(), script, browser: "managed", region: "eu-central-1" });
    expect(seen[1]!.body).toMatchObject({ browser: "cloud", region: "eu-central-1" });
    await runScript({ client: client(), script, browser: "cloud" });
    expect(seen[2]!.body.browser).toBe("cloud");
  });

  test.each([
    [{ waitForSeconds: 0 }, /^waitForSeconds must be a whole number of seconds from 1 to 110 \(got 0\)/],
    [{ waitForSeconds: 111 }, /^waitForSeconds must be a whole number of seconds from 1 to 110 \(got 111\)/],
    [{ waitForSeconds: 1.5 }, /^waitForSeconds must be a whole number/],
    [
      { browser: "extension", region: "us-east-1" },
      /^region is for the cloud browser only, and this run goes to your own browser \(extension\): drop region, or run with browser: "cloud"$/,
    ],
    [{ browser: { deviceId: "d1" }, country: "US" }, /^country is for the cloud browser only, and this run goes to device d1/],
    [{ region: "mars-1" }, /^region must be one of eu-central-1, us-east-1, us-west-2, ap-southeast-1/],
    [{ country: "Germany" }, /^country must be a two-letter ISO 3166 code/],
    [{ browser: "firefox" }, /^browser must be "cloud", "extension" or \{ deviceId/],
    [{ wait: "no" }, /^wait must be true/],
  ])("%j is refused before sending", async (extra, message) => {
    wire({ body: { result: 1, runId: "00000000-0000-4000-8001-000000000001" } });
    const { error } = await runScript({ client: client(), script, ...(extra as object) } as never);
    expect(error).toMatchObject({ kind: "invalid_request" });
    expect(error!.error).toMatch(message);
    expect(seen).toEqual([]);
  });

  test("more than 20 scripts are refused before sending", async () => {
    wire({ body: [] });
    const { error } = await runScript({ client: client(), scripts: Array.from({ length: 21 }, () => script) });
    expect(error!.error).toBe("21 scripts in one run: the service takes at most 20 per request; send them in several runs");
    expect(seen).toEqual([]);
  });
});
