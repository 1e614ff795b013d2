/**
 * Every library function family against servers that misbehave: a catalogue call (getMe),
 * a list and its pagination (listRuns, listAll, paginate), and runScript as JSON and as
 * multipart. Nothing hangs, nothing throws, each failure says what happened, and POST /run
 * reaches the server exactly once whatever happens.
 */
import { afterEach, describe, expect, test } from "vitest";
import { createReduckClient, getMe, listAll, listRuns, paginate, runScript, type ReduckClient, type ReduckError } from "../../src/index.js";
import { refusedPort } from "../support/scripted-server.js";
import { makeFile } from "../support/files.js";
import { startFaultServer, type Fault, type FaultServer } from "./fault-server.js";
import { waitFor } from "../support/wait.js";
import { listenOnLoopback } from "../support/loopback.js";

const servers: FaultServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(fault: Fault | Fault[], timeoutMs = 300): Promise<{ server: FaultServer; client: ReduckClient }> {
  const server = await startFaultServer({ "*": fault });
  servers.push(server);
  // Short timeouts and one retry, through options: the suite stays fast without waiting long.
  return { server, client: createReduckClient({ apiKey: "k", baseUrl: server.url, timeoutMs, maxRetries: 1 }) };
}

/** The families, each returning its error (or data) for one call. */
const families = {
  catalogue: (client: ReduckClient) => getMe({ client }),
  list: (client: ReduckClient) => listAll(listRuns, { client }),
  "run (JSON)": (client: ReduckClient, signal?: AbortSignal) => runScript({ client, script: { host: "a.com", slug: "s" }, signal }),
  "run (multipart)": async (client: ReduckClient, signal?: AbortSignal) =>
    runScript({ client, script: { host: "a.com", slug: "s", files: { a: { path: await makeFile("a.txt", "bytes") }, b: Buffer.from("more") } }, signal }),
};
const catalogueFamilies = [
  ["catalogue", "GET /api/me"],
  ["list", "GET /api/runs"],
] as const;
const runFamilies = ["run (JSON)", "run (multipart)"] as const;

describe("a server that never answers", () => {
  test.each(catalogueFamilies)("%s: a timeout, retried once (safe to repeat)", async (family, route) => {
    const { server, client } = await serve("silent");
    const { error } = await families[family](client);
    expect(error).toMatchObject({ kind: "timeout", error: `no answer from ${server.url} within 300 ms` });
    expect(server.count(route)).toBe(2);
  });

  test.each(runFamilies)("%s: runs have no timeout, but the caller's abort ends it; sent once", async (family) => {
    const { server, client } = await serve("silent");
    const controller = new AbortController();
    const pending = families[family](client, controller.signal);
    await waitFor("POST /run to reach the silent server", () => server.count("POST /run") > 0);
    controller.abort();
    expect((await pending).error).toMatchObject({ kind: "aborted" });
    expect(server.count("POST /run")).toBe(1);
  });
});

describe("a server that answers slowly", () => {
  test.each(catalogueFamilies)("%s: headers at once, then a body that trickles past the timeout", async (family) => {
    // The headers must arrive inside the timeout for this case to be the one tested; 300 ms was
    // seen too short for that on a loaded machine, so this test allows 1.5 s (the body takes 6 s).
    const { server, client } = await serve("slow-body", 1_500);
    const { error } = await families[family](client);
    expect(error).toMatchObject({ kind: "timeout", error: `the answer from ${server.url} did not finish arriving within 1500 ms` });
  });

  test.each(runFamilies)("%s: a run that takes longer than the catalogue timeout still succeeds, sent once", async (family) => {
    const { server, client } = await serve({ json: { result: { ok: true }, runId: "00000000-0000-4000-8001-000000000001" }, delayMs: 600 });
    const { data, error } = await families[family](client);
    expect(error).toBeUndefined();
    expect(data).toEqual({ result: { ok: true }, runId: "00000000-0000-4000-8001-000000000001" });
    expect(server.count("POST /run")).toBe(1);
  });
});

describe("a connection cut after it was made", () => {
  test.each(catalogueFamilies)("%s: reset mid-answer says so and is retried", async (family, route) => {
    const { server, client } = await serve("reset-mid-answer");
    const { error } = await families[family](client);
    expect(error?.kind).toBe("network");
    expect(error?.error).toMatch(
      new RegExp(
        `^the connection to ${server.url} was reset while the answer was arriving \\(ECONNRESET\\)$|^${server.url} closed the connection before the whole answer arrived \\(UND_ERR_SOCKET\\)$`,
      ),
    );
    expect(error?.error).not.toMatch(/could not connect/);
    expect(server.count(route)).toBe(2);
  });

  test.each(catalogueFamilies)("%s: closed before answering says so and is retried", async (family, route) => {
    const { server, client } = await serve("close-before-answer");
    const { error } = await families[family](client);
    expect(error).toMatchObject({
      kind: "network",
      error: expect.stringMatching(/closed the connection before answering|was reset before the answer arrived/),
    });
    expect(error?.error).not.toMatch(/could not connect/);
    expect(server.count(route)).toBe(2);
  });

  test.each(runFamilies)("%s: reset mid-answer is not retried (the run may have happened)", async (family) => {
    const { server, client } = await serve("reset-mid-answer");
    const { error } = await families[family](client);
    expect(error?.kind).toBe("network");
    expect(error?.error).toMatch(/reset while the answer was arriving|closed the connection before the whole answer arrived/);
    expect(server.count("POST /run")).toBe(1);
  });

  test.each(runFamilies)("%s: closed before answering is not retried", async (family) => {
    const { server, client } = await serve("close-before-answer");
    const { error } = await families[family](client);
    expect(error?.error).toMatch(/closed the connection before answering|was reset before the answer arrived/);
    expect(server.count("POST /run")).toBe(1);
  });
});

describe("answers that are not what they should be", () => {
  test.each([...catalogueFamilies.map(([f]) => f), ...runFamilies])("%s: truncated JSON is an invalid_response, not retried", async (family) => {
    const { server, client } = await serve("truncated-json");
    const { error } = await families[family](client);
    expect(error).toMatchObject({ kind: "invalid_response", status: 200, error: "HTTP 200 OK but the body is not JSON" });
    expect(server.count("GET /api/me") + server.count("GET /api/runs") + server.count("POST /run")).toBe(1);
  });

  test.each(catalogueFamilies)("%s: an HTML 502 says so, retried once", async (family, route) => {
    const { server, client } = await serve("html-502");
    const { error } = await families[family](client);
    expect(error).toMatchObject({ kind: "http", status: 502, error: "HTTP 502 Bad Gateway: the server answered with text/html instead of JSON" });
    expect(server.count(route)).toBe(2);
  });

  test.each(runFamilies)("%s: an HTML 502 is reported, sent once", async (family) => {
    const { server, client } = await serve("html-502");
    const { error } = await families[family](client);
    expect(error).toMatchObject({ kind: "http", status: 502 });
    expect(server.count("POST /run")).toBe(1);
  });
});

describe("429 with Retry-After", () => {
  test.each(catalogueFamilies)("%s: waits as asked, then succeeds", async (family, route) => {
    const { server, client } = await serve([{ status: 429, retryAfter: "0" }, { json: { handle: "@me", data: [], hasNextPage: false } }]);
    const { error } = await families[family](client);
    expect(error).toBeUndefined();
    expect(server.count(route)).toBe(2);
  });

  test.each(runFamilies)("%s: a run is never repeated, even on 429", async (family) => {
    const { server, client } = await serve({ status: 429, retryAfter: "0" });
    const { error } = await families[family](client);
    expect(error).toMatchObject({ kind: "http", status: 429, error: "Too many requests: slow down" });
    expect(server.count("POST /run")).toBe(1);
  });

  test("the wait ends at once when the caller aborts", async () => {
    const { server } = await serve({ status: 429, retryAfter: "30" });
    const controller = new AbortController();
    const client = createReduckClient({ apiKey: "k", baseUrl: server.url, onRetry: () => controller.abort() });
    const outcome = await Promise.race([
      getMe({ client, signal: controller.signal }),
      new Promise<"still waiting">((resolve) => setTimeout(() => resolve("still waiting"), 5_000)),
    ]);
    expect(outcome).not.toBe("still waiting");
    expect((outcome as { error: ReduckError }).error).toMatchObject({ kind: "aborted" });
    expect(server.count("GET /api/me")).toBe(1);
  });
});

describe("a refused connection", () => {
  test.each([...catalogueFamilies.map(([f]) => f), ...runFamilies])("%s: could not connect, after retrying (nothing was sent)", async (family) => {
    const port = await refusedPort();
    const client = createReduckClient({ apiKey: "k", baseUrl: `http://127.0.0.1:${port}`, maxRetries: 1 });
    const { error } = await families[family](client);
    expect(error).toMatchObject({ kind: "network", cause: "ECONNREFUSED", error: `could not connect to http://127.0.0.1:${port} (ECONNREFUSED)` });
  });
});

test("paginate stops at a failing page with its error", async () => {
  const server = await startFaultServer({
    "GET /api/runs": [{ json: { data: [{ id: "r1" }], hasNextPage: true } }, "truncated-json"],
  });
  servers.push(server);
  const client = createReduckClient({ apiKey: "k", baseUrl: server.url, maxRetries: 0 });
  const seen: string[] = [];
  await expect(
    (async () => {
      for await (const run of paginate(listRuns, { client })) seen.push(run.id);
    })(),
  ).rejects.toMatchObject({ name: "ReduckPageError", detail: { kind: "invalid_response" } });
  expect(seen).toEqual(["r1"]);
});

test("a malformed request is not retried and says what it is", async () => {
  const { server, client } = await serve({ json: {} });
  // A body on a GET, as a JavaScript caller can pass it.
  const { error } = await getMe({ client, body: { x: 1 } } as never);
  expect(error).toMatchObject({ kind: "invalid_request", error: "getMe takes no body: remove `body` (parameters go in `path` or `query`)" });
  expect(server.count("GET /api/me")).toBe(0);
});

test("a header value fetch refuses is invalid_request, not a network failure", async () => {
  const { server, client } = await serve({ json: {} });
  const { error } = await getMe({ client, headers: { "X-Note": "two\nlines" } });
  expect(error?.kind).toBe("invalid_request");
  expect(error?.error).toMatch(/^getMe: the request could not be made/);
  expect(server.count("GET /api/me")).toBe(0);
});

test("a server that refuses a big upload before reading it: the refusal is the answer, the upload stops, nothing hangs", async () => {
  const { createServer } = await import("node:http");
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    req.on("error", () => undefined);
    // Answers before reading a byte of the body, as a proxy refusing a large body does.
    res.writeHead(413, { "content-type": "application/json" });
    res.end('{"error":"Payload Too Large"}');
  });
  const { url, close } = await listenOnLoopback(server);
  servers.push({ count: () => requests, url, close });
  const client = createReduckClient({ apiKey: "k", baseUrl: url });
  const file = await makeFile("big.bin", Buffer.alloc(30 * 1024 * 1024, 7));
  const { error } = await runScript({ client, script: { host: "a.com", slug: "s", files: { a: { path: file } } } });
  expect(error).toMatchObject({ kind: "http", status: 413, error: "Payload Too Large" });
  expect(requests).toBe(1);
});
