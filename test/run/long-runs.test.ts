/**
 * runScript and waitForRun against every form of answer the service gives (service-facts §3b):
 * a 200 object, a 200 array of envelopes, a 202 batch to poll, a single run's 202 envelope
 * waited on with getRun; and the faults of a wait (a reset or a 503 during a poll, an abort, a
 * 404 batch, a deadline), each made to happen. The wire is played by handlers written here
 * from the facts, not by the library's own code.
 */
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { createReduckClient, isPendingRun, isRunFailure, runScript, waitForRun, type RunStatusUpdate } from "../../src/index.js";

const RUN_HOST = "https://mcp.reduck.ai";
const API_HOST = "https://reduck.ai";
const KEY = "rk_test_long_runs";
const script = { handle: "reduck", host: "example.com", slug: "slow" };
const two = [script, { ...script, slug: "other" }];

/** Every request the handlers saw, as "METHOD path" with the credential it carried. */
let seen: Array<{ route: string; key: string | null; body?: any }> = [];
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  seen = [];
});
afterAll(() => server.close());

const client = () => createReduckClient({ apiKey: KEY, maxRetries: 0 });
const count = (route: string) => seen.filter((s) => s.route === route).length;

/** POST /run answers `answer`; a batch's polls answer each of `polls` in turn (the last repeating). */
function wire(answer: { status?: number; body: unknown }, polls: Array<{ status?: number; body?: unknown }> = [], runPolls: unknown[] = []) {
  let poll = 0;
  let runPoll = 0;
  server.use(
    http.post(`${RUN_HOST}/run`, async ({ request }) => {
      seen.push({ route: "POST /run", key: request.headers.get("x-api-key"), body: await request.json() });
      return HttpResponse.json(answer.body as never, { status: answer.status ?? 200 });
    }),
    http.get(`${RUN_HOST}/batches/:batchId`, ({ request, params }) => {
      seen.push({ route: `GET /batches/${params.batchId}`, key: request.headers.get("x-api-key") });
      const next = polls[Math.min(poll++, polls.length - 1)];
      if (!next) return HttpResponse.json({ error: `Batch ${params.batchId} not found` }, { status: 404 });
      return HttpResponse.json(next.body as never, { status: next.status ?? 200 });
    }),
    http.get(`${API_HOST}/api/runs/:runId`, ({ request, params }) => {
      seen.push({ route: `GET /api/runs/${params.runId}`, key: request.headers.get("x-api-key") });
      const next = runPolls[Math.min(runPoll++, runPolls.length - 1)];
      if (!next) return HttpResponse.json({ error: "Run not found" }, { status: 404 });
      return HttpResponse.json(next as never);
    }),
  );
}

const runRecord = (runId: string, status: string, result: unknown = null) => ({
  id: runId,
  user_id: "u1",
  name: "slow",
  browser: { type: "extension" },
  args: {},
  status,
  result,
  source: "api",
  started_at: "2026-11-24T10:00:00.000Z",
  finished_at: status === "running" || status === "queued" ? null : "2026-11-24T10:00:09.000Z",
  script: null,
});

describe("answers that are final at once", () => {
  test("one script: the documented {result, runId}", async () => {
    wire({ body: { result: { n: 1 }, runId: "r1" } });
    const { data, error } = await runScript({ client: client(), script });
    expect(error).toBeUndefined();
    expect(data).toEqual({ result: { n: 1 }, runId: "r1" });
  });

  test("null is a real result", async () => {
    wire({ body: [{ status: "completed", runId: "r1", result: null }] });
    const { data, error } = await runScript({ client: client(), script });
    expect(error).toBeUndefined();
    expect(data).toEqual({ result: null, runId: "r1" });
  });

  test("several scripts: a 200 array of envelopes, in order, failures with their type and message", async () => {
    wire({
      body: [
        { status: "completed", runId: "r1", result: { ok: true } },
        { status: "failed", runId: "r2", error: "selector #send not found", errorType: "site_error", externalMessage: "The site changed: the Send button is gone" },
      ],
    });
    const { data, error } = await runScript({ client: client(), scripts: two });
    expect(error).toBeUndefined();
    expect(data).toEqual({
      status: "failed",
      totalSteps: 2,
      runs: [
        { status: "completed", runId: "r1", result: { ok: true } },
        { status: "failed", runId: "r2", error: "selector #send not found", errorType: "site_error", externalMessage: "The site changed: the Send button is gone" },
      ],
    });
    expect(data).not.toHaveProperty("batchId");
  });

  test("an answer for a different number of scripts is an error, never re-paired", async () => {
    wire({ body: [{ status: "completed", runId: "r1", result: 1 }] });
    const { data, error } = await runScript({ client: client(), scripts: two });
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ kind: "invalid_response" });
    expect(error!.error).toMatch(/^asked for 2 scripts, the service answered for 1/);
  });

  test("a run with neither result nor error is a failure naming the run", async () => {
    wire({ body: [{ status: "completed", runId: "r-signed-out" }] });
    const { data, error } = await runScript({ client: client(), script });
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ kind: "run_failed", runId: "r-signed-out" });
    expect(error!.error).toMatch(/run r-signed-out ended with neither a result nor an error/);

    wire({ body: [{ status: "completed", runId: "r1", result: 0 }, { status: "completed", runId: "r2" }] });
    const batch = await runScript({ client: client(), scripts: two });
    expect(batch.data!.status).toBe("failed");
    expect(batch.data!.runs[0]).toEqual({ status: "completed", runId: "r1", result: 0 });
    expect(batch.data!.runs[1]).toMatchObject({ status: "failed", runId: "r2" });
    expect(batch.data!.runs[1]!.error).toMatch(/run r2 ended with neither a result nor an error/);
  });

  test("a failed single run carries runId, errorType and externalMessage", async () => {
    wire({ body: [{ status: "failed", runId: "r9", error: "timeout after 120s", errorType: "timeout", externalMessage: "The page took too long" }] });
    const { error } = await runScript({ client: client(), script });
    expect(error).toEqual({ kind: "run_failed", runId: "r9", error: "timeout after 120s", errorType: "timeout", externalMessage: "The page took too long" });

    wire({ status: 422, body: { error: "bad args", runId: "r10", errorType: "invalid_input", externalMessage: "Check the arguments" } });
    const http422 = await runScript({ client: client(), script });
    expect(http422.error).toMatchObject({ kind: "http", status: 422, runId: "r10", errorType: "invalid_input", externalMessage: "Check the arguments" });
    expect(isRunFailure(http422.error!)).toBe(true);
  });
});

describe("a 202 batch is polled to the end", () => {
  test("POST once, then GET the batch with the same credential, sleeping retryAfterMs", async () => {
    const running = { batchId: "b1", status: "running", retryAfterMs: 150, runs: [{ status: "completed", runId: "r1", result: 1 }, { status: "running", runId: "r2" }] };
    const done = { batchId: "b1", status: "completed", runs: [{ status: "completed", runId: "r1", result: 1 }, { status: "completed", runId: "r2", result: 2 }] };
    wire({ status: 202, body: { ...running, status: "queued" } }, [{ body: running }, { body: done }]);
    const updates: RunStatusUpdate[] = [];
    const started = Date.now();
    const { data, error } = await runScript({ client: client(), scripts: two, onStatus: (u) => updates.push(u) });
    expect(error).toBeUndefined();
    expect(data).toEqual({ batchId: "b1", status: "completed", totalSteps: 2, runs: [{ status: "completed", runId: "r1", result: 1 }, { status: "completed", runId: "r2", result: 2 }] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2 * 150 - 5);
    expect(count("POST /run")).toBe(1);
    expect(count("GET /batches/b1")).toBe(2);
    expect(seen.every((s) => s.key === KEY)).toBe(true);
    // Told at the first 202, with the ids to wait on again, then after each poll.
    expect(updates[0]).toMatchObject({ status: "queued", batchId: "b1", runIds: ["r1", "r2"], total: 2, completed: 1, failed: 0 });
    expect(updates.map((u) => u.status)).toEqual(["queued", "running", "completed"]);
    expect(updates.at(-1)).toMatchObject({ completed: 2, failed: 0 });
  });

  test("an onStatus that throws does not break the wait", async () => {
    wire({ status: 202, body: { batchId: "b12", status: "running", retryAfterMs: 10, runs: [] } }, [{ body: { batchId: "b12", status: "completed", runs: [{ runId: "r1", result: 7 }] } }]);
    const { data, error } = await runScript({
      client: client(),
      script,
      onStatus: () => {
        throw new Error("the caller's bug");
      },
    });
    expect(error).toBeUndefined();
    expect(data).toEqual({ result: 7, runId: "r1" });
    expect(count("POST /run")).toBe(1);
  });

  test("without retryAfterMs the wait between polls is 2 s", async () => {
    wire({ status: 202, body: { batchId: "b2", status: "running", runs: [] } }, [{ body: { batchId: "b2", status: "completed", runs: [{ runId: "r1", result: "x" }] } }]);
    const started = Date.now();
    const { data } = await runScript({ client: client(), script });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_990);
    expect(data).toEqual({ result: "x", runId: "r1" });
  });

  test("a batch that ends failed gives each step's outcome; a single script's failure is its error", async () => {
    const failedBatch = { batchId: "b3", status: "failed", runs: [{ status: "failed", runId: "r1", error: "boom", errorType: "site_error" }] };
    wire({ status: 202, body: { batchId: "b3", status: "running", retryAfterMs: 10, runs: [{ status: "running", runId: "r1" }] } }, [{ body: failedBatch }]);
    const { error } = await runScript({ client: client(), script });
    expect(error).toMatchObject({ kind: "run_failed", runId: "r1", batchId: "b3", error: "boom", errorType: "site_error" });
  });

  test("a count mismatch in the polled batch is an error", async () => {
    wire({ status: 202, body: { batchId: "b4", status: "running", retryAfterMs: 10, runs: [] } }, [{ body: { batchId: "b4", status: "completed", runs: [{ runId: "r1", result: 1 }] } }]);
    const { error } = await runScript({ client: client(), scripts: two });
    expect(error).toMatchObject({ kind: "invalid_response", batchId: "b4" });
    expect(error!.error).toMatch(/asked for 2 scripts, the service answered for 1 \(batch b4\)/);
  });

  test("wait: false returns the handle at the first answer and polls nothing", async () => {
    wire({ status: 202, body: { batchId: "b5", status: "running", retryAfterMs: 3000, runs: [{ status: "running", runId: "r1" }, { status: "queued" }] } });
    const updates: RunStatusUpdate[] = [];
    const { data, error } = await runScript({ client: client(), scripts: two, wait: false, onStatus: (u) => updates.push(u) });
    expect(error).toBeUndefined();
    expect(data).toEqual({ status: "running", batchId: "b5", runIds: ["r1", null], retryAfterMs: 3000 });
    expect(isPendingRun(data)).toBe(true);
    expect(updates).toEqual([expect.objectContaining({ status: "running", batchId: "b5", runIds: ["r1", null], total: 2 })]);
    expect(count("GET /batches/b5")).toBe(0);

    // A final first answer is the outcome, wait: false or not.
    wire({ body: { result: 1, runId: "r1" } });
    const final = await runScript({ client: client(), script, wait: false });
    expect(final.data).toEqual({ result: 1, runId: "r1" });
    expect(isPendingRun(final.data)).toBe(false);
  });
});

describe("a single run's 202 envelope is waited on with getRun", () => {
  test("running, then success: the result", async () => {
    wire({ status: 202, body: { status: "running", runId: "r1", retryAfterMs: 20 } }, [], [runRecord("r1", "running"), runRecord("r1", "success", { result: { sent: true } })]);
    const updates: RunStatusUpdate[] = [];
    const started = Date.now();
    const { data, error } = await runScript({ client: client(), script, onStatus: (u) => updates.push(u) });
    expect(error).toBeUndefined();
    expect(data).toEqual({ result: { sent: true }, runId: "r1" });
    // The record says nothing of pacing: the first answer's retryAfterMs (20 ms) is kept, not 2 s.
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(count("POST /run")).toBe(1);
    expect(count("GET /api/runs/r1")).toBe(2);
    expect(updates[0]).toMatchObject({ status: "running", runId: "r1", runIds: ["r1"], total: 1 });
    expect(updates.at(-1)).toMatchObject({ status: "completed", completed: 1 });
  });

  test("error and cancelled end as the run's failure", async () => {
    wire({ status: 202, body: { status: "queued", runId: "r2", retryAfterMs: 10 } }, [], [runRecord("r2", "error", { error: "Element not found: #send" })]);
    const failed = await runScript({ client: client(), script });
    expect(failed.error).toMatchObject({ kind: "run_failed", runId: "r2", error: "Element not found: #send" });

    wire({ status: 202, body: { status: "queued", runId: "r3", retryAfterMs: 10 } }, [], [runRecord("r3", "cancelled")]);
    const cancelled = await runScript({ client: client(), script });
    expect(cancelled.error).toMatchObject({ kind: "run_failed", runId: "r3", error: "run r3 was cancelled" });
  });

  test("wait: false gives the run's handle", async () => {
    wire({ status: 202, body: { status: "running", runId: "r4", retryAfterMs: 500 } });
    const { data } = await runScript({ client: client(), script, wait: false });
    expect(data).toEqual({ status: "running", runId: "r4", runIds: ["r4"], retryAfterMs: 500 });
  });
});

describe("faults while polling", () => {
  // Resets are made over real loopback HTTP in long-runs-http.test.ts (MSW's network error is not one).
  test("a 503 during polls is retried with backoff", async () => {
    wire({ status: 202, body: { batchId: "b8", status: "running", retryAfterMs: 10, runs: [] } }, [{ status: 503, body: { error: "busy" } }, { status: 502, body: { error: "gateway" } }, { body: { batchId: "b8", status: "completed", runs: [{ runId: "r1", result: 1 }] } }]);
    const { data, error } = await runScript({ client: client(), script });
    expect(error).toBeUndefined();
    expect(data).toEqual({ result: 1, runId: "r1" });
    expect(count("POST /run")).toBe(1);
    expect(count("GET /batches/b8")).toBe(3);
  });

  test("a 404 on the batch is a clear error naming it", async () => {
    wire({ status: 202, body: { batchId: "b-gone", status: "running", retryAfterMs: 10, runs: [] } }, []);
    const { error } = await runScript({ client: client(), scripts: two });
    expect(error).toMatchObject({ kind: "http", status: 404, batchId: "b-gone" });
    expect(error!.error).toMatch(/^there is no batch b-gone at https:\/\/mcp\.reduck\.ai: check the id/);
  });

  test("the signal stops polling at once, and says how to wait again", async () => {
    wire({ status: 202, body: { batchId: "b9", status: "running", retryAfterMs: 60_000, runs: [] } });
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
    expect(error).toMatchObject({ kind: "aborted", batchId: "b9" });
    expect(error!.error).toBe('stopped waiting for batch b9; it goes on at the service: wait for it again with waitForRun({ client, batchId: "b9" }) or `reduck runs wait b9`');
    expect(count("POST /run")).toBe(1);
    expect(count("GET /batches/b9")).toBe(0);
  });

  test("deadlineMs ends the wait with the handle's id; the run goes on", async () => {
    wire({ status: 202, body: { batchId: "b10", status: "running", retryAfterMs: 30, runs: [] } }, [{ body: { batchId: "b10", status: "running", retryAfterMs: 30, runs: [] } }]);
    const started = Date.now();
    const { error } = await waitForRun({ client: client(), batchId: "b10" }, { deadlineMs: 200 });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error).toMatchObject({ kind: "timeout", batchId: "b10" });
    expect(error!.error).toMatch(/^batch b10 is still running after \d+ s; it goes on at the service/);
    expect(count("GET /batches/b10")).toBeGreaterThanOrEqual(2);
    expect(count("POST /run")).toBe(0);
  });
});

describe("waitForRun", () => {
  test("a batch id: looks at once, then polls to the end", async () => {
    wire({ body: null }, [{ body: { batchId: "b11", status: "running", retryAfterMs: 10, runs: [{ runId: "r1", status: "running" }] } }, { body: { batchId: "b11", status: "completed", runs: [{ runId: "r1", status: "completed", result: [1] }] } }]);
    const { data, error } = await waitForRun({ client: client(), batchId: "b11" });
    expect(error).toBeUndefined();
    expect(data).toEqual({ batchId: "b11", status: "completed", totalSteps: 1, runs: [{ status: "completed", runId: "r1", result: [1] }] });
  });

  test("a run id: getRun until terminal; an unknown one is a clear error", async () => {
    wire({ body: null }, [], [runRecord("r5", "success", { result: { a: 1 } })]);
    const { data } = await waitForRun({ client: client(), runId: "r5" });
    expect(data).toEqual({ result: { a: 1 }, runId: "r5" });

    wire({ body: null }, [], []);
    const missing = await waitForRun({ client: client(), runId: "r-none" });
    expect(missing.error).toMatchObject({ status: 404, runId: "r-none" });
    expect(missing.error!.error).toMatch(/^there is no run r-none at https:\/\/reduck\.ai/);
    // Not the run's failure: the wait's.
    expect(isRunFailure(missing.error!)).toBe(false);
  });

  test("bad targets are refused without a request", async () => {
    const bad = await waitForRun({ client: client(), batchId: "" } as never);
    expect(bad.error).toMatchObject({ kind: "invalid_request", error: "batchId must be a non-empty string (the id the run's first answer gave)" });
    const both = await waitForRun({ client: client(), batchId: "b", runId: "r" } as never);
    expect(both.error!.error).toBe("give exactly one of batchId (several scripts) or runId (one script)");
    expect(seen).toEqual([]);
  });
});

describe("options on the wire, checked before sending", () => {
  test("waitForSeconds, region and country go as given; managed goes as cloud", async () => {
    wire({ body: { result: 1, runId: "r1" } });
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
    [{ browser: "extension", region: "us-east-1" }, /^region is for the cloud browser only, and this run goes to your own browser \(extension\): drop region, or run with browser: "cloud"$/],
    [{ browser: { deviceId: "d1" }, country: "US" }, /^country is for the cloud browser only, and this run goes to device d1/],
    [{ region: "mars-1" }, /^region must be one of eu-central-1, us-east-1, us-west-2, ap-southeast-1/],
    [{ country: "Germany" }, /^country must be a two-letter ISO 3166 code/],
    [{ browser: "firefox" }, /^browser must be "cloud", "extension" or \{ deviceId/],
    [{ wait: "no" }, /^wait must be true/],
  ])("%j is refused before sending", async (extra, message) => {
    wire({ body: { result: 1, runId: "r1" } });
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
