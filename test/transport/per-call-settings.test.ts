/**
 * `timeoutMs`, `maxRetries` and `onRetry` on a call, in place of the client's: on the generated
 * functions (and what wraps them, paginateToArray), runScript, waitForRun and runMany. Against real
 * loopback servers whose clients are patient (60 s, 2 retries) unless the call says otherwise.
 */
import { afterEach, describe, expect, test } from "vitest";
import { createReduckClient, getMe, listRuns, paginateToArray, runMany, runScript, waitForRun, type RetryInfo } from "../../src/index.js";
import { refusedPort } from "../support/scripted-server.js";
import { startFaultServer, type Fault, type FaultServer } from "../faults/fault-server.js";

const BATCH = "8f6c0e1e-0000-4000-8000-000000000001";
const servers: FaultServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A fault server, and a client that would wait a minute and retry twice, told of each retry. */
async function serve(routes: Record<string, Fault | Fault[]>) {
  const server = await startFaultServer(routes);
  servers.push(server);
  const clientRetries: RetryInfo[] = [];
  const client = createReduckClient({ apiKey: "k", baseUrl: server.url, timeoutMs: 60_000, maxRetries: 2, onRetry: (i) => clientRetries.push(i) });
  return { server, client, clientRetries };
}

describe("a generated function", () => {
  test("a per-call timeout fires (the client's is a minute)", async () => {
    const { server, client } = await serve({ "GET /api/me": "silent" });
    const { error } = await getMe({ client, timeoutMs: 200, maxRetries: 0 });
    expect(error).toMatchObject({ kind: "timeout", error: `no answer from ${server.url} within 200 ms` });
    expect(server.count("GET /api/me")).toBe(1);
  });

  test("maxRetries: 0 does not retry (the client's 2 would), and onRetry replaces the client's", async () => {
    const { server, client, clientRetries } = await serve({ "GET /api/me": { status: 429, retryAfter: "0" } });
    const { error } = await getMe({ client, maxRetries: 0 });
    expect(error).toMatchObject({ kind: "http", status: 429 });
    expect(server.count("GET /api/me")).toBe(1);

    const mine: RetryInfo[] = [];
    await getMe({ client, maxRetries: 1, onRetry: (i) => mine.push(i) });
    expect(server.count("GET /api/me")).toBe(3);
    expect(mine.map((i) => i.reason)).toEqual(["HTTP 429"]);
    expect(clientRetries).toEqual([]);
  });

  test("paginateToArray passes them on to every page", async () => {
    const { server, client } = await serve({ "GET /api/runs": { status: 429, retryAfter: "0" } });
    const { error } = await paginateToArray(listRuns, { client, maxRetries: 0 });
    expect(error).toMatchObject({ status: 429 });
    expect(server.count("GET /api/runs")).toBe(1);
  });

  test("settings that make no sense are refused, naming the function", async () => {
    const { server, client } = await serve({ "*": { json: {} } });
    expect((await getMe({ client, timeoutMs: -1 })).error).toMatchObject({
      kind: "invalid_request",
      error: "getMe: timeoutMs must be 0 (no timeout) or a positive number of milliseconds (got -1)",
    });
    expect((await getMe({ client, maxRetries: 1.5 })).error?.error).toBe("getMe: maxRetries must be a whole number, 0 or more (got 1.5)");
    expect((await getMe({ client, onRetry: "loudly" as never })).error?.error).toBe("getMe: onRetry must be a function");
    expect(server.count("GET /api/me")).toBe(0);
  });
});

describe("runScript", () => {
  test("a per-call timeout covers the run's request (which otherwise waits as long as its script takes); it is sent once", async () => {
    const { server, client } = await serve({ "POST /run": "silent" });
    const { error } = await runScript({ client, script: { host: "a.com", slug: "s" }, timeoutMs: 200 });
    // The run went out, so the error says it may go on and how to find it.
    expect(error).toMatchObject({ kind: "timeout", code: "run_may_continue", sentAt: expect.any(String) });
    expect(error?.error).toMatch(new RegExp(`^no answer from ${server.url} within 200 ms; the run may go on at the service: find it with findRun`));
    expect(server.count("POST /run")).toBe(1);
  });

  test("maxRetries and onRetry for a run that never arrived (a refused connection)", async () => {
    const port = await refusedPort();
    const clientRetries: RetryInfo[] = [];
    const client = createReduckClient({ apiKey: "k", baseUrl: `http://127.0.0.1:${port}`, onRetry: (i) => clientRetries.push(i) });
    const mine: RetryInfo[] = [];
    const once = await runScript({ client, script: { host: "a.com", slug: "s" }, maxRetries: 0, onRetry: (i) => mine.push(i) });
    expect(once.error).toMatchObject({ kind: "network", cause: "ECONNREFUSED" });
    expect(mine).toEqual([]);
    await runScript({ client, script: { host: "a.com", slug: "s" }, maxRetries: 1, onRetry: (i) => mine.push(i) });
    expect(mine).toMatchObject([{ attempt: 1, reason: "ECONNREFUSED", method: "POST", url: `http://127.0.0.1:${port}/run` }]);
    expect(clientRetries).toEqual([]);
  });

  test("its polls take them too: a silent poll times out at once, is not retried, and the wait polls again", async () => {
    const done = { batchId: BATCH, status: "completed", runs: [{ runId: "00000000-0000-4000-8001-000000000001", result: { ok: true } }] };
    const { server, client, clientRetries } = await serve({
      "POST /run": { status: 202, json: { batchId: BATCH, status: "running", runs: [], retryAfterMs: 10 } },
      [`GET /batches/${BATCH}`]: ["silent", { json: done }],
    });
    const { data, error } = await runScript({ client, scripts: [{ host: "a.com", slug: "s" }], timeoutMs: 200, maxRetries: 0 });
    expect(error).toBeUndefined();
    expect(data).toMatchObject({ status: "completed" });
    expect(server.count(`GET /batches/${BATCH}`)).toBe(2);
    expect(clientRetries).toEqual([]);
  });
});

test("waitForRun: a per-call timeout fires on a poll (which is then polled again)", async () => {
  const done = { batchId: BATCH, status: "completed", runs: [{ runId: "00000000-0000-4000-8001-000000000001", result: { ok: true } }] };
  const { server, client } = await serve({ [`GET /batches/${BATCH}`]: ["silent", { json: done }] });
  const { data, error } = await waitForRun({ client, batchId: BATCH, timeoutMs: 200, maxRetries: 0 });
  expect(error).toBeUndefined();
  expect(data).toMatchObject({ status: "completed" });
  expect(server.count(`GET /batches/${BATCH}`)).toBe(2);
});

test("runMany: the batch's requests take them (reading the script here)", async () => {
  const { server, client } = await serve({ "*": { status: 429, retryAfter: "0" } });
  const run = runMany({ client, script: "reduck/a.com/s", rows: [{ x: 1 }], maxRetries: 0 });
  for await (const _ of run);
  expect(run.error).toMatchObject({ status: 429 });
  expect(server.count("GET /api/scripts/reduck/a.com/s")).toBe(1);
});
