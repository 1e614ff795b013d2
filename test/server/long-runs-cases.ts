// Long runs and batches, as the sandbox answers them (service-facts §3b), written once and run
// through both doors: in-process through msw (long-runs.test.ts) and over real loopback HTTP
// (long-runs-http.test.ts). Plain fetch, no client library: these hold the server to the wire.
// Runs use the sandbox-only scripts (sandbox-scripts.ts) with waitForSeconds 1 and scripts of
// a few seconds, on the simulated page.
import { describe, expect, it } from "vitest";
import { SEED_IDS, type ReferenceStore } from "./index.js";
import type { LoggedRequest } from "./store.js";

export interface Door {
  store: ReferenceStore;
  /** POST /run's URL. */
  runUrl: string;
  /** The run host's origin (GET /batches/{id}). */
  runHost: string;
  /** The catalogue API's origin (GET /api/runs/{id}). */
  api: string;
  /** The sandbox's request log, as this door reads it. */
  requests(): Promise<LoggedRequest[]>;
}

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

type Script = { handle?: string; host: string; slug: string; args?: Record<string, unknown> };

/** A sandbox script that waits `seconds`, then returns `{ slept, echo }` (or throws `fail`). */
export const sleep = (seconds: number, extra: { fail?: string; echo?: unknown } = {}): Script => ({
  handle: "sandbox",
  host: "sandbox.test",
  slug: "sleep",
  args: { seconds, ...extra },
});
/** A sandbox script that ends with neither a result nor an error, after `seconds`. */
export const noOutcome = (seconds = 0): Script => ({ handle: "sandbox", host: "sandbox.test", slug: "no_outcome", args: { seconds } });

/** Polls must end well before the test's own timeout. */
const POLL_DEADLINE_MS = 15_000;

export function longRunCases(door: () => Door): void {
  const key = () => door().store.demo.apiKey;

  async function answer(response: Response): Promise<Answer> {
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  async function run(body: unknown, apiKey = key()): Promise<Answer> {
    return answer(
      await fetch(door().runUrl, { method: "POST", headers: { "content-type": "application/json", "x-api-key": apiKey }, body: JSON.stringify(body) }),
    );
  }

  async function getBatch(batchId: string, headers: Record<string, string> = { "x-api-key": key() }): Promise<Answer> {
    return answer(await fetch(`${door().runHost}/batches/${batchId}`, { headers }));
  }

  async function getRun(runId: string): Promise<Answer> {
    return answer(await fetch(`${door().api}/api/runs/${runId}`, { headers: { "x-api-key": key() } }));
  }

  /** Polls as the service's own client does: sleep retryAfterMs, ask again, until the status is final. */
  async function pollBatch(batchId: string, seen: string[] = []): Promise<Answer> {
    const deadline = Date.now() + POLL_DEADLINE_MS;
    for (;;) {
      const polled = await getBatch(batchId);
      expect(polled.status).toBe(200);
      seen.push(polled.body.status);
      if (polled.body.status === "completed" || polled.body.status === "failed") return polled;
      expect(polled.body.retryAfterMs).toBeGreaterThan(0);
      if (Date.now() > deadline) throw new Error(`batch ${batchId} still ${polled.body.status} after ${POLL_DEADLINE_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, polled.body.retryAfterMs));
    }
  }

  /** Waits on a run with getRun, as a client does after a single script's 202. */
  async function pollRun(runId: string, seen: string[] = []): Promise<Answer> {
    const deadline = Date.now() + POLL_DEADLINE_MS;
    for (;;) {
      const polled = await getRun(runId);
      expect(polled.status).toBe(200);
      seen.push(polled.body.status);
      if (!["queued", "running"].includes(polled.body.status)) return polled;
      if (Date.now() > deadline) throw new Error(`run ${runId} still ${polled.body.status} after ${POLL_DEADLINE_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, door().store.pollIntervalMs));
    }
  }

  const count = (log: LoggedRequest[], method: string, pattern: RegExp) => log.filter((r) => r.method === method && pattern.test(r.path)).length;

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
          externalMessage: expect.stringMatching(/^sandbox\/sandbox\.test\/(sleep|no_outcome) did not run, because sandbox\/sandbox\.test\/sleep before it failed\.$/),
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

  describe("errorType and externalMessage", () => {
    it("types a timeout, invalid input and an unavailable browser", async () => {
      const store = door().store;
      // A signed-in script on the cloud needs a connector for its host: demo has none for example.net.
      store.addScript({ handle: "@demo", host: "example.net", slug: "inbox", loggedIn: true, language: "javascript", content: "return {};" });
      store.runTimeoutMs = 500;
      const answered = await run({ scripts: [sleep(3), { ...sleep(0), args: {} }, { host: "example.net", slug: "inbox" }] });
      store.runTimeoutMs = 300_000;
      expect(answered.status).toBe(200);
      expect(answered.body[0]).toEqual({
        status: "failed",
        runId: expect.any(String),
        error: "script timed out after 0.5 s",
        errorType: "timeout",
        externalMessage: "sandbox/sandbox.test/sleep did not finish within 0.5 s, so it was stopped.",
      });
      const invalid = "Invalid arguments for sandbox/sandbox.test/sleep: seconds is required";
      expect(answered.body[1]).toEqual({ status: "failed", runId: expect.any(String), error: invalid, errorType: "invalid_input", externalMessage: invalid });
      expect(answered.body[2]).toMatchObject({ status: "failed", runId: expect.any(String), errorType: "browser_unavailable" });
      expect(answered.body[2].error).toMatch(/^no connector for example.net: a managed browser starts signed out/);
      expect(answered.body[2].externalMessage).toBe(answered.body[2].error);
    });

    it("types a script that cannot run to its end (it does not compile) as script_error", async () => {
      door().store.addScript({ handle: "@demo", host: "example.net", slug: "broken", language: "javascript", content: "return {" });
      const failed = await run({ script: { host: "example.net", slug: "broken" } });
      expect(failed.status).toBe(422);
      expect(failed.body).toMatchObject({ runId: expect.any(String), errorType: "script_error" });
      expect(failed.body.externalMessage).toMatch(/^@demo\/example\.net\/broken could not run to its end \(.+\): the script needs fixing\.$/);
    });

    it("carries errorType and externalMessage on a single run's failure beside its runId", async () => {
      const failed = await run({ script: sleep(0, { fail: "Out of stock" }) });
      expect(failed).toEqual({
        status: 422,
        body: {
          error: "Error: Out of stock",
          runId: expect.any(String),
          errorType: "site_error",
          externalMessage: "sandbox/sandbox.test/sleep failed on the site: Out of stock",
        },
      });
    });
  });

  describe("browser: cloud, region, country", () => {
    it("runs \"cloud\" (and \"managed\", the same) on a managed browser in the region and country asked for", async () => {
      const cloud = await run({ browser: "cloud", region: "us-west-2", country: "de", script: sleep(0) });
      expect(cloud.status).toBe(200);
      expect((await getRun(cloud.body.runId)).body.browser).toEqual({ type: "managed", region: "us-west-2", country: "DE" });
      const managed = await run({ browser: "managed", script: sleep(0) });
      expect((await getRun(managed.body.runId)).body.browser).toEqual({ type: "managed", region: "eu-central-1", country: "" });
      const absent = await run({ region: "ap-southeast-1", script: sleep(0) });
      expect((await getRun(absent.body.runId)).body.browser).toEqual({ type: "managed", region: "ap-southeast-1", country: "" });
    });

    it("refuses region and country on a device, an unknown region and a code that is no country, recording nothing", async () => {
      const before = door().store.runs.size;
      const onExtension = await run({ browser: "extension", region: "us-east-1", script: sleep(0) });
      expect(onExtension).toEqual({
        status: 400,
        body: {
          error: 'region chooses where a cloud browser runs, so it does not apply to your own browser: remove it, or run on the cloud (browser: "cloud")',
          variables: { region: ["is for the cloud browser only"] },
          errorType: "invalid_input",
          externalMessage: 'region chooses where a cloud browser runs, so it does not apply to your own browser: remove it, or run on the cloud (browser: "cloud")',
        },
      });
      const onDevice = await run({ browser: { deviceId: door().store.demo.deviceId }, region: "us-east-1", country: "FR", scripts: [sleep(0)] });
      expect(onDevice.status).toBe(400);
      expect(onDevice.body.error).toMatch(/^region and country choose where a cloud browser runs/);
      expect(onDevice.body.variables).toEqual({ region: ["is for the cloud browser only"], country: ["is for the cloud browser only"] });
      const region = await run({ browser: "cloud", region: "mars-north-1", script: sleep(0) });
      expect(region.status).toBe(400);
      expect(region.body.error).toMatch(/region/);
      for (const country of ["XX", "EU", "FRA", "1A"]) {
        const refused = await run({ country, script: sleep(0) });
        expect(refused.status, country).toBe(400);
        expect(refused.body.error).toMatch(/country/);
      }
      expect(door().store.runs.size).toBe(before);
    });
  });

  describe('browser: "extension" and the paired browsers', () => {
    it("refuses with no paired browser, and with two, listing their ids; one works", async () => {
      const store = door().store;
      expect((await run({ browser: "extension", script: sleep(0) })).status).toBe(200);
      store.setDemoDevices(0);
      const none = await run({ browser: "extension", script: sleep(0) });
      expect(none.status).toBe(400);
      expect(none.body).toMatchObject({ errorType: "browser_unavailable" });
      expect(none.body.error).toBe(
        'No paired browser on this account: "extension" runs in your one paired browser, and none is paired. Install the Reduck extension and pair it, or run on the cloud (browser: "cloud")',
      );
      const ids = store.setDemoDevices(2).map((d) => d.id);
      expect(ids[0]).toBe(SEED_IDS.devices.demo);
      const two = await run({ browser: "extension", scripts: [sleep(0), sleep(0)] });
      expect(two.status).toBe(400);
      expect(two.body.error).toBe(
        `Several paired browsers match "extension" (${ids.join(", ")}): "extension" picks one only when exactly one is paired; pick one with browser: { deviceId }`,
      );
      expect(two.body.errorType).toBe("browser_unavailable");
      // Naming one of them works.
      expect((await run({ browser: { deviceId: ids[1] }, script: sleep(0) })).status).toBe(200);
    });
  });

  describe("the request's own limits", () => {
    it("refuses more than 20 scripts, accepts 20", async () => {
      const refused = await run({ scripts: Array.from({ length: 21 }, () => sleep(0)) });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(/scripts/);
      const twenty = await run({ scripts: Array.from({ length: 20 }, (_, i) => sleep(0, { echo: i })) });
      expect(twenty.status).toBe(200);
      expect(twenty.body.map((e: { result: { echo: number } }) => e.result.echo)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    });
  });
}
