/**
 * What the service sends goes into memory only bounded: every reader of an answer (a catalogue
 * call, a run's answer, a poll) stops at 32 MiB, refuses a larger Content-Length before reading,
 * and a body that trickles ends at the timeout. Over node:http and through the caller's own fetch,
 * against real loopback servers that misbehave.
 */
import { afterEach, describe, expect, test } from "vitest";
import { MAX_ANSWER_BYTES } from "../../src/core/wire/answer-limit.js";
import { connectionFetch } from "../../src/core/wire/fetch.js";
import { Connections } from "../../src/core/wire/http.js";
import { createReduckClient, getMe, runScript, waitForRun, type ReduckClient } from "../../src/index.js";
import { startFaultServer, type Fault, type FaultServer } from "../faults/fault-server.js";

const BATCH = "8f6c0e1e-0000-4000-8000-000000000001";
const servers: FaultServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** The two ways a client sends: its own node:http, or the caller's fetch. */
const routes = [
  ["node:http", {}],
  ["the caller's fetch", { fetch: (input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init) }],
] as const;

async function serve(routesOf: Record<string, Fault>, settings: object): Promise<{ server: FaultServer; client: ReduckClient }> {
  const server = await startFaultServer(routesOf);
  servers.push(server);
  return { server, client: createReduckClient({ apiKey: "k", baseUrl: server.url, timeoutMs: 20_000, ...settings }) };
}

describe.each(routes)("over %s", (_label, settings) => {
  test("a catalogue answer that never ends is cut off at 32 MiB with an error naming the limit, and not asked for again", async () => {
    const { server, client } = await serve({ "GET /api/me": "endless-body" }, settings);
    const { data, error } = await getMe({ client });
    expect(data).toBeUndefined();
    expect(error).toMatchObject({
      kind: "invalid_response",
      status: 200,
      error: `the answer went past 32 MiB, the most the client reads of one, and was cut off (from ${server.url})`,
    });
    expect(server.count("GET /api/me")).toBe(1);
  });

  test("a Content-Length over the limit is refused before a byte of the body is read", async () => {
    // The server announces 64 MiB and sends none of it: only a refusal at the head ends this call
    // (reading would wait for bytes that never come, until the 20 s timeout).
    const { server, client } = await serve({ "GET /api/me": "huge-content-length" }, settings);
    const { error } = await getMe({ client });
    expect(error).toMatchObject({
      kind: "invalid_response",
      error: `the answer is 64 MiB by its Content-Length, over the 32 MiB the client reads of one; nothing of it was read (from ${server.url})`,
    });
  });

  test("a body that trickles forever ends at the timeout", async () => {
    const { server, client } = await serve({ "GET /api/me": "trickle-forever" }, { ...settings, timeoutMs: 400, maxRetries: 0 });
    const { error } = await getMe({ client });
    expect(error).toMatchObject({ kind: "timeout", error: `the answer from ${server.url} did not finish arriving within 400 ms` });
  });

  test("a run's answer that never ends is cut off too; the run is sent once", async () => {
    const { server, client } = await serve({ "POST /run": "endless-body" }, settings);
    const { error } = await runScript({ client, script: { host: "a.com", slug: "s" } });
    expect(error).toMatchObject({ kind: "invalid_response", status: 200, error: expect.stringContaining("went past 32 MiB") });
    expect(server.count("POST /run")).toBe(1);
  });

  test("a run's answer that begins and then trickles ends at the client's timeout (the wait for it to begin has none)", async () => {
    const { server, client } = await serve({ "POST /run": "trickle-forever" }, { ...settings, timeoutMs: 400 });
    const { error } = await runScript({ client, script: { host: "a.com", slug: "s" } });
    expect(error).toMatchObject({ kind: "timeout", code: "run_may_continue", sentAt: expect.any(String) });
    expect(error?.error).toMatch(new RegExp(`^the answer from ${server.url} did not finish arriving within 400 ms; the run may go on at the service`));
    expect(server.count("POST /run")).toBe(1);
  });

  test("a poll whose answer never ends is cut off", async () => {
    const { server, client } = await serve({ [`GET /batches/${BATCH}`]: "endless-body" }, settings);
    const { error } = await waitForRun({ client, batchId: BATCH });
    expect(error).toMatchObject({ kind: "invalid_response", error: expect.stringContaining("went past 32 MiB") });
    expect(server.count(`GET /batches/${BATCH}`)).toBe(1);
  });
});

describe("the CLI's fetch (sign-in requests; downloads go to disk unbounded)", () => {
  test("with a limit: a larger Content-Length fails at once, a body past it fails as it is read", async () => {
    const server = await startFaultServer({ "GET /huge": "huge-content-length", "HEAD /huge": "huge-content-length", "GET /endless": "endless-body" });
    servers.push(server);
    const fetch = connectionFetch(new Connections(), { maxAnswerBytes: MAX_ANSWER_BYTES });
    const refused = await fetch(`${server.url}/huge`).catch((e) => e);
    expect(refused).toBeInstanceOf(TypeError);
    expect(refused.cause.message).toBe("the answer is 64 MiB by its Content-Length, over the 32 MiB the client reads of one; nothing of it was read");
    // The answer to HEAD has no body: its Content-Length is the size of what a GET would send.
    const head = await fetch(`${server.url}/huge`, { method: "HEAD" });
    expect([head.status, head.body]).toEqual([200, null]);
    const response = await fetch(`${server.url}/endless`);
    const cut = await response.arrayBuffer().catch((e) => e);
    expect(cut).toBeInstanceOf(TypeError);
    expect(cut.cause.message).toBe("the answer went past 32 MiB, the most the client reads of one, and was cut off");
  });

  test("without one, a download streams past 32 MiB", async () => {
    const server = await startFaultServer({ "GET /endless": "endless-body" });
    servers.push(server);
    const response = await connectionFetch(new Connections())(`${server.url}/endless`);
    const reader = response.body!.getReader();
    let size = 0;
    while (size <= MAX_ANSWER_BYTES) size += (await reader.read()).value!.byteLength;
    await reader.cancel();
    expect(size).toBeGreaterThan(MAX_ANSWER_BYTES);
  });
});
