// Long runs and batches, as the sandbox answers them (service-facts §3b), written once and run
// through both doors: in-process through msw (long-runs.test.ts) and over real loopback HTTP
// (long-runs-http.test.ts). Plain fetch, no client library: these hold the server to the wire.
// Runs use the sandbox-only scripts (sandbox-scripts.ts) with waitForSeconds 1 and scripts of
// a few seconds, on the simulated page.
import { describe, expect, it } from "vitest";
import { longRunClient, type Door, sleep, noOutcome } from "./long-runs-client.js";
import { longRunOutcomeCases } from "./long-runs-outcome-cases.js";

export { noOutcome, sleep, type Door } from "./long-runs-client.js";

export function longRunCases(door: () => Door): void {
  const { run, getBatch, getRun, pollBatch, pollRun, count } = longRunClient(door);

  describe("scripts: the 200 array", () => {
    it("answers one envelope per script, in order: completed, failed (typed), and the run with no outcome", async () => {
      const answered = await run({ scripts: [sleep(0, { echo: "first" }), sleep(0, { fail: "Inbox not found" }), noOutcome(), sleep(0, { echo: null })] });
      expect(answered.status).toBe(200);
      expect(answered.body).toEqual([
        { status: "completed", runId: expect.any(String), result: { slept: 0, echo: "first" } },
        {
          status: "failed",
          runId: expect.any(String),
          error: "Error: Inbox not found",
          errorType: "site_error",
          externalMessage: "sandbox/sandbox.test/sleep failed on the site: Inbox not found",
        },
        // Neither result nor error: what a run on a signed-out browser came back as.
        { status: "completed", runId: expect.any(String) },
        // null is a real result.
        { status: "completed", runId: expect.any(String), result: { slept: 0, echo: null } },
      ]);
      const runIds = answered.body.map((e: { runId: string }) => e.runId);
      expect(new Set(runIds).size).toBe(4);
      expect((await getRun(runIds[1])).body).toMatchObject({ status: "error", result: { error: "Error: Inbox not found" } });
      // The run with no outcome: finished, with nothing to show.
      expect((await getRun(runIds[2])).body).toMatchObject({ status: "success", result: null });
    });

    it("reports a stopped sequential chain's never-run scripts, one failed not_run envelope each, without a runId", async () => {
      const before = door().store.runs.size;
      const answered = await run({ sequential: true, scripts: [sleep(0, { fail: "Signed out" }), sleep(0), noOutcome()] });
      expect(answered.status).toBe(200);
      expect(answered.body).toHaveLength(3);
      expect(answered.body[0]).toMatchObject({ status: "failed", runId: expect.any(String), errorType: "site_error" });
      for (const never of answered.body.slice(1)) {
        expect(never).toEqual({
          status: "failed",
          error: "not run: script 0 of this sequential chain failed, and a chain stops at its first failure",
          errorType: "not_run",
          externalMessage: expect.stringMatching(
            /^sandbox\/sandbox\.test\/(sleep|no_outcome) did not run, because sandbox\/sandbox\.test\/sleep before it failed\.$/,
          ),
        });
      }
      expect(door().store.runs.size).toBe(before + 1);
    });

    it("answers one script with { result, runId }, and a run with no outcome with { runId } alone", async () => {
      const ok = await run({ script: sleep(0, { echo: 7 }) });
      expect(ok).toEqual({ status: 200, body: { result: { slept: 0, echo: 7 }, runId: expect.any(String) } });
      const none = await run({ script: noOutcome() });
      expect(none).toEqual({ status: 200, body: { runId: expect.any(String) } });
    });
  });

  describe("waitForSeconds: 202, then polling", () => {
    it("answers a batch that outlives it with 202, shows it running at GET /batches/{id}, then completed; POST /run went once", async () => {
      const logStart = (await door().requests()).length;
      const started = Date.now();
      const answered = await run({ waitForSeconds: 1, scripts: [sleep(0, { echo: "quick" }), sleep(2.5, { echo: "slow" })] });
      expect(answered.status).toBe(202);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      const { batchId } = answered.body;
      expect(answered.body).toEqual({
        batchId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        status: "running",
        runs: [
          { status: "completed", runId: expect.any(String), result: { slept: 0, echo: "quick" } },
          { status: "running", runId: expect.any(String), retryAfterMs: door().store.pollIntervalMs },
        ],
        retryAfterMs: door().store.pollIntervalMs,
      });
      const slowRun = answered.body.runs[1].runId;
      expect((await getRun(slowRun)).body.status).toBe("running");

      const seen: string[] = [];
      const done = await pollBatch(batchId, seen);
      expect(seen[0]).toBe("running");
      expect(done.body).toEqual({
        batchId,
        status: "completed",
        runs: [
          { status: "completed", runId: answered.body.runs[0].runId, result: { slept: 0, echo: "quick" } },
          { status: "completed", runId: slowRun, result: { slept: 2.5, echo: "slow" } },
        ],
      });
      expect((await getRun(slowRun)).body).toMatchObject({ status: "success", result: { result: { slept: 2.5, echo: "slow" } } });

      const log = (await door().requests()).slice(logStart);
      expect(count(log, "POST", /^\/run$/)).toBe(1);
      expect(count(log, "GET", new RegExp(`^/batches/${batchId}$`))).toBe(seen.length);
      expect(seen.length).toBeGreaterThanOrEqual(2);
    });

    it("ends a batch with a failed run as failed, with the failure typed", async () => {
      const answered = await run({ waitForSeconds: 1, scripts: [sleep(2, { fail: "The page moved" }), sleep(1.5)] });
      expect(answered.status).toBe(202);
      const done = await pollBatch(answered.body.batchId);
      expect(done.body.status).toBe("failed");
      expect(done.body.retryAfterMs).toBeUndefined();
      expect(done.body.runs).toEqual([
        {
          status: "failed",
          runId: answered.body.runs[0].runId,
          error: "Error: The page moved",
          errorType: "site_error",
          externalMessage: "sandbox/sandbox.test/sleep failed on the site: The page moved",
        },
        { status: "completed", runId: answered.body.runs[1].runId, result: { slept: 1.5, echo: null } },
      ]);
    });

    it("shows a sequential chain's later scripts queued (no runId yet), then their outcomes", async () => {
      const answered = await run({ waitForSeconds: 1, sequential: true, scripts: [sleep(1.5), sleep(0.2, { echo: "second" }), noOutcome()] });
      expect(answered.status).toBe(202);
      expect(answered.body.runs).toEqual([
        { status: "running", runId: expect.any(String), retryAfterMs: door().store.pollIntervalMs },
        { status: "queued", retryAfterMs: door().store.pollIntervalMs },
        { status: "queued", retryAfterMs: door().store.pollIntervalMs },
      ]);
      const done = await pollBatch(answered.body.batchId);
      expect(done.body.status).toBe("completed");
      expect(done.body.runs).toEqual([
        { status: "completed", runId: answered.body.runs[0].runId, result: { slept: 1.5, echo: null } },
        { status: "completed", runId: expect.any(String), result: { slept: 0.2, echo: "second" } },
        { status: "completed", runId: expect.any(String) },
      ]);
    });

    it("answers a single script that outlives it with an in-flight envelope; getRun shows running, then success", async () => {
      const logStart = (await door().requests()).length;
      const answered = await run({ waitForSeconds: 1, script: sleep(2, { echo: "late" }) });
      expect(answered).toEqual({ status: 202, body: { status: "running", runId: expect.any(String), retryAfterMs: door().store.pollIntervalMs } });
      const seen: string[] = [];
      const done = await pollRun(answered.body.runId, seen);
      expect(seen[0]).toBe("running");
      expect(done.body).toMatchObject({ id: answered.body.runId, status: "success", result: { result: { slept: 2, echo: "late" } } });
      const log = (await door().requests()).slice(logStart);
      expect(count(log, "POST", /^\/run$/)).toBe(1);
      expect(count(log, "GET", new RegExp(`^/api/runs/${answered.body.runId}$`))).toBe(seen.length);
    });

    it("a single script that fails after its 202 ends as error with result.error", async () => {
      const answered = await run({ waitForSeconds: 1, script: sleep(1.5, { fail: "Captcha" }) });
      expect(answered.status).toBe(202);
      const done = await pollRun(answered.body.runId);
      expect(done.body).toMatchObject({ status: "error", result: { error: "Error: Captcha" } });
    });

    it("a single script with no outcome after its 202 ends as success with no result", async () => {
      const answered = await run({ waitForSeconds: 1, script: noOutcome(1.5) });
      expect(answered.status).toBe(202);
      expect((await pollRun(answered.body.runId)).body).toMatchObject({ status: "success", result: null });
    });

    it("answers 200 at once when the run ends before waitForSeconds", async () => {
      const started = Date.now();
      const answered = await run({ waitForSeconds: 110, script: sleep(0.1) });
      expect(answered.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it("refuses waitForSeconds outside 1-110", async () => {
      for (const waitForSeconds of [0, 111, 1.5]) {
        const refused = await run({ waitForSeconds, script: sleep(0) });
        expect(refused.status).toBe(400);
        expect(refused.body.error).toMatch(/waitForSeconds/);
      }
    });
  });

  describe("GET /batches/{batchId}", () => {
    it("is 404 for an unknown batch and for another account's, 401 without a credential", async () => {
      const answered = await run({ waitForSeconds: 1, scripts: [sleep(1.5)] });
      expect(answered.status).toBe(202);
      const { batchId } = answered.body;
      const unknown = "00000000-0000-4000-8000-000000000000";
      expect(await getBatch(unknown)).toEqual({ status: 404, body: { error: `No such batch on this account: ${unknown}` } });
      expect(await getBatch(batchId, { "x-api-key": door().store.demo.otherUserApiKey })).toEqual({
        status: 404,
        body: { error: `No such batch on this account: ${batchId}` },
      });
      expect((await getBatch(batchId, {})).status).toBe(401);
      // A token for the MCP host works at the run host, as for POST /run.
      expect((await getBatch(batchId, { authorization: `Bearer ${door().store.demo.mcpToken}` })).status).toBe(200);
      await pollBatch(batchId);
    });
  });

  longRunOutcomeCases(door);
}
