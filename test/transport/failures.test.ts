import { describe, expect, test } from "vitest";
import { createReduckClient, getMe, getPing, createScript, getRun } from "../../src/index.js";
import { refusedPort, scriptedServer } from "../support/scripted-server.js";
import { waitFor } from "../support/wait.js";

const RUN_ID = "8b1f6c2e-4a7d-4f10-9c3b-2d5e6f708192";

describe("retries", () => {
  test("a 429 with Retry-After is retried after the delay it asks for", async () => {
    const server = await scriptedServer({ status: 429, headers: { "retry-after": "1" }, body: '{"error":"slow down"}' }, { body: '{"message":"pong"}' });
    const retries: number[] = [];
    const client = createReduckClient({ apiKey: "k", baseUrl: server.url, onRetry: (i) => retries.push(i.delayMs) });
    const started = Date.now();
    const { data, error } = await getPing({ client });
    expect(error).toBeUndefined();
    expect(data).toEqual({ message: "pong" });
    expect(server.seen).toHaveLength(2);
    expect(retries).toEqual([1000]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  test("at most 2 retries, then the last error comes back as a value", async () => {
    const server = await scriptedServer({ status: 503, headers: { "retry-after": "0" }, body: '{"error":"down for maintenance"}' });
    const client = createReduckClient({ apiKey: "k", baseUrl: server.url });
    const { data, error, response } = await getMe({ client });
    expect(data).toBeUndefined();
    expect(server.seen).toHaveLength(3);
    expect(response?.status).toBe(503);
    expect(error).toMatchObject({ kind: "http", status: 503, error: "down for maintenance" });
  });

  test("a POST is not repeated after a 5xx: it may have been carried out", async () => {
    const server = await scriptedServer({ status: 502, body: "" });
    const client = createReduckClient({ apiKey: "k", baseUrl: server.url });
    const { error } = await createScript({
      client,
      path: { handle: "@demo" },
      body: { host: "a.com", slug: "s", description: "d", content: "return 1", input_schema: {}, output_schema: {}, side_effects: "none" },
    });
    expect(server.seen).toHaveLength(1);
    expect(error).toMatchObject({ kind: "http", status: 502, error: "HTTP 502 Bad Gateway" });
  });

  test("maxRetries 0 turns retries off", async () => {
    const server = await scriptedServer({ status: 429, headers: { "retry-after": "0" } });
    const client = createReduckClient({ apiKey: "k", baseUrl: server.url, maxRetries: 0 });
    const { error } = await getPing({ client });
    expect(server.seen).toHaveLength(1);
    expect(error?.status).toBe(429);
  });
});

describe("failures become values", () => {
  test("a refused connection names its cause and the address", async () => {
    const port = await refusedPort();
    const client = createReduckClient({ apiKey: "k", baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 });
    const { data, error, response } = await getMe({ client });
    expect(data).toBeUndefined();
    expect(response).toBeUndefined();
    expect(error).toMatchObject({ kind: "network", cause: "ECONNREFUSED" });
    expect(error?.error).toBe(`could not connect to http://127.0.0.1:${port} (ECONNREFUSED)`);
  });

  test("a refused connection is retried, then reported", async () => {
    const port = await refusedPort();
    const attempts: string[] = [];
    const client = createReduckClient({ apiKey: "k", baseUrl: `http://127.0.0.1:${port}`, onRetry: (i) => attempts.push(i.reason) });
    const { error } = await getMe({ client });
    expect(attempts).toEqual(["ECONNREFUSED", "ECONNREFUSED"]);
    expect(error?.cause).toBe("ECONNREFUSED");
  });

  test("a timeout comes back as a timeout error", async () => {
    const server = await scriptedServer({ delayMs: 2_000, body: "{}" });
    const client = createReduckClient({ apiKey: "k", baseUrl: server.url, timeoutMs: 150, maxRetries: 0 });
    const { error } = await getMe({ client });
    expect(error).toMatchObject({ kind: "timeout", error: `no answer from ${server.url} within 150 ms` });
  });

  test("an aborted request comes back as an aborted error", async () => {
    const server = await scriptedServer({ delayMs: 2_000, body: "{}" });
    const client = createReduckClient({ apiKey: "k", baseUrl: server.url });
    const controller = new AbortController();
    // Aborted once the server has the request (a fixed delay may fire before it arrives, under load).
    void waitFor("the request to reach the server", () => server.seen.length > 0).then(
      () => controller.abort(),
      () => undefined, // never arrived: the length check below says so
    );
    const { error } = await getMe({ client, signal: controller.signal });
    expect(error).toMatchObject({ kind: "aborted" });
    expect(server.seen).toHaveLength(1);
  });

  test("a 502 with an HTML body says so instead of failing to parse", async () => {
    const server = await scriptedServer({ status: 502, headers: { "content-type": "text/html" }, body: "<html><body>Bad gateway</body></html>" });
    const client = createReduckClient({ apiKey: "k", baseUrl: server.url, maxRetries: 0 });
    const { error } = await getRun({ client, path: { runId: RUN_ID } });
    expect(error).toEqual({
      kind: "http",
      status: 502,
      url: `${server.url}/api/runs/${RUN_ID}`,
      error: "HTTP 502 Bad Gateway: the server answered with text/html instead of JSON",
    });
  });

  test("an empty error body still gives a message", async () => {
    const server = await scriptedServer({ status: 404, body: "" });
    const client = createReduckClient({ apiKey: "k", baseUrl: server.url });
    const { error } = await getRun({ client, path: { runId: RUN_ID } });
    expect(error).toMatchObject({ kind: "http", status: 404, error: "HTTP 404 Not Found" });
  });

  test("a 200 whose body is not JSON is an invalid_response error", async () => {
    const server = await scriptedServer({ status: 200, headers: { "content-type": "text/plain" }, body: "pong" });
    const client = createReduckClient({ apiKey: "k", baseUrl: server.url });
    const { data, error } = await getPing({ client });
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ kind: "invalid_response", status: 200 });
  });
});
