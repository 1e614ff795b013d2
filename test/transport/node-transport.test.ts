/**
 * Catalogue calls over node:http, against real loopback servers: redirects followed as fetch
 * follows them (the credential only to the same origin), a `response` that is a standard Response,
 * connections reused between calls, and the openapi-fetch client for calls the functions do not
 * cover.
 */
import http from "node:http";
import { expect, onTestFinished, test } from "vitest";
import { createReduckClient, deleteRun, getMe, listRuns } from "../../src/index.js";
import { scriptedServer } from "../support/scripted-server.js";
import { listenOnLoopback } from "../support/loopback.js";

test("a redirect on the same origin is followed with the credential; to another origin, without it", async () => {
  const other = await scriptedServer({ body: '{"handle":"@elsewhere"}' });
  const server = await scriptedServer({ status: 307, headers: { location: "/api/me-too" } }, { status: 302, headers: { location: `${other.url}/api/me` } });
  const client = createReduckClient({ apiKey: "rk_secret_for_redirects", baseUrl: server.url });
  const { data, error, response } = await getMe({ client });
  expect(error).toBeUndefined();
  expect(data).toEqual({ handle: "@elsewhere" });
  expect(server.seen.map((s) => s.url)).toEqual(["/api/me", "/api/me-too"]);
  expect(server.seen[1]!.headers["x-api-key"]).toBe("rk_secret_for_redirects");
  expect(other.seen[0]!.headers["x-api-key"]).toBeUndefined();
  expect(response?.url).toBe(`${other.url}/api/me`);
});

test("the result's response is a standard Response with the status, headers and body that arrived", async () => {
  const server = await scriptedServer({ status: 200, headers: { "x-request-id": "req-1" }, body: '{"data":[],"hasNextPage":false,"totalCount":0}' });
  const client = createReduckClient({ apiKey: "k", baseUrl: server.url });
  const result = await listRuns({ client, query: { page: 2 } });
  expect(result.response).toBeInstanceOf(Response);
  expect(result.response!.status).toBe(200);
  expect(result.response!.headers.get("x-request-id")).toBe("req-1");
  expect(await result.response!.json()).toEqual({ data: [], hasNextPage: false, totalCount: 0 });
  expect(result.response).toBe(result.response); // made once
  expect(server.seen[0]!.url).toBe("/api/runs?page=2");
  expect(server.seen[0]!.headers["user-agent"]).toMatch(/^reduck-client\/\S+ node\//);
});

test("catalogue calls reuse one connection", async () => {
  const sockets = new Set<unknown>();
  const server = http.createServer((req, res) => {
    sockets.add(req.socket);
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"handle":"@ann"}');
  });
  const { url, close } = await listenOnLoopback(server);
  onTestFinished(close);
  const client = createReduckClient({ apiKey: "k", baseUrl: url });
  for (let i = 0; i < 3; i++) expect((await getMe({ client })).error).toBeUndefined();
  expect(sockets.size).toBe(1);
});

test("an answer without a body (204) frees its connection at once: the next call reuses it", async () => {
  // An answer never read keeps its connection busy (and a CLI alive) until the server closes it.
  const sockets = new Set<unknown>();
  const server = http.createServer((req, res) => {
    sockets.add(req.socket);
    res.writeHead(204);
    res.end();
  });
  const { url, close } = await listenOnLoopback(server);
  onTestFinished(close);
  const client = createReduckClient({ apiKey: "k", baseUrl: url });
  const runId = "00000000-0000-4000-8005-000000000001";
  for (let i = 0; i < 3; i++) expect((await deleteRun({ client, path: { runId } })).response?.status).toBe(204);
  expect(sockets.size).toBe(1);
});

test("client.api, the openapi-fetch client, goes through the same transport and credential", async () => {
  const server = await scriptedServer({ status: 503, headers: { "retry-after": "0" }, body: "{}" }, { body: '{"handle":"@ann"}' });
  const client = createReduckClient({ apiKey: "rk_key_for_the_api_client", baseUrl: server.url });
  const { data, response } = await client.api.GET("/api/me");
  expect(response.status).toBe(200);
  expect(data).toMatchObject({ handle: "@ann" });
  expect(server.seen).toHaveLength(2); // retried
  expect(server.seen[1]!.headers["x-api-key"]).toBe("rk_key_for_the_api_client");
});
