/**
 * The connection a run is sent on, opened ahead (Connections.openAhead, through
 * openRunConnectionAhead): against real loopback servers that number the connections they accept
 * and say which one each request came on. The run takes that connection when it is still open and
 * nothing else used it; otherwise it opens its own, as it always did. Never through a proxy or a
 * caller's fetch, never keeping a process alive while it waits.
 */
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { once } from "node:events";
import http from "node:http";
import https from "node:https";
import type net from "node:net";
import { expect, onTestFinished, test } from "vitest";
import { openRunConnectionAhead } from "../../src/core/client-requests.js";
import { createReduckClient, runScript } from "../../src/index.js";
import { makeFile, patterned, sha256 } from "../support/files.js";
import { listenOnLoopback } from "../support/loopback.js";
import { refusedPort } from "../support/scripted-server.js";
import { readMultipart } from "../support/multipart.js";
import { makeCertificate, startProxy, type Certificate } from "../proxy/servers.js";

const RUN_ID = "00000000-0000-4000-8001-0000000000a7";
const script = (files: Record<string, unknown> = {}) => ({ handle: "reduck", host: "a.com", slug: "s", args: { n: "1" }, files }) as never;

/** A server that numbers its connections (from 1) and records, for each request, the connection it came on. */
function countingServer(server: http.Server | https.Server, connectionEvent: "connection" | "secureConnection" = "connection") {
  const accepted: net.Socket[] = [];
  const requests: Array<{ route: string; connection: number }> = [];
  const next = () => once(server, connectionEvent);
  server.on(connectionEvent, (socket: net.Socket) => accepted.push(socket));
  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    requests.push({ route: `${req.method} ${req.url}`, connection: accepted.indexOf(req.socket as net.Socket) + 1 });
    const answer = (result: unknown) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ result, runId: RUN_ID }));
    };
    // A multipart run says what files came; a JSON one only that it came.
    readMultipart(req.headers, req).then(
      ({ files }) => answer({ files }),
      () => answer({ ok: true }),
    );
  });
  return { accepted, requests, next };
}

/** A plain-http countingServer on loopback, closed when the test ends. */
async function countingHttpServer() {
  const server = http.createServer();
  const seen = countingServer(server);
  const { url, close } = await listenOnLoopback(server);
  onTestFinished(close);
  return { server, seen, url };
}

/** The sockets `net` makes while `body` runs (Node's own channel, published as each is made). */
async function socketsMadeBy<T>(body: () => T | Promise<T>): Promise<{ made: net.Socket[]; value: T }> {
  const made: net.Socket[] = [];
  const listener = (message: unknown) => made.push((message as { socket: net.Socket }).socket);
  subscribe("net.client.socket", listener);
  try {
    return { made, value: await body() };
  } finally {
    unsubscribe("net.client.socket", listener);
  }
}

/**
 * Whether `socket` keeps its process alive: its libuv handle's own answer (the process-wide count,
 * process.getActiveResourcesInfo, also moves with every other socket that opens or closes meanwhile).
 */
const keepsAlive = (socket: net.Socket) => (socket as unknown as { _handle: { hasRef(): boolean } | null })._handle?.hasRef();

/** Resolves when `socket` has closed, whatever closed it (an error included). */
const closed = (socket: net.Socket) => new Promise((resolve) => socket.once("close", resolve));

test("a run goes on the connection opened ahead, which carried no request before it", async () => {
  const { seen, url } = await countingHttpServer();
  const client = createReduckClient({ apiKey: "k", baseUrl: url });
  const accepted = seen.next();
  openRunConnectionAhead(client);
  await accepted;
  expect(seen.requests).toEqual([]);
  const { data, error } = await runScript({ client, script: script() });
  expect(error).toBeUndefined();
  expect(data).toMatchObject({ runId: RUN_ID });
  expect(seen.requests).toEqual([{ route: "POST /run", connection: 1 }]);
  expect(seen.accepted).toHaveLength(1);
  // Taken once: the next run opens a connection of its own again.
  expect((await runScript({ client, script: script() })).error).toBeUndefined();
  expect(seen.requests[1]).toEqual({ route: "POST /run", connection: 2 });
});

test("while it waits, the connection opened ahead keeps no process alive; the run that takes it does", async () => {
  const { server, seen, url } = await countingHttpServer();
  const client = createReduckClient({ apiKey: "k", baseUrl: url });
  const { made } = await socketsMadeBy(async () => {
    const accepted = seen.next();
    openRunConnectionAhead(client);
    await accepted;
  });
  expect(made).toHaveLength(1);
  const ahead = made[0]!;
  expect(keepsAlive(ahead)).toBe(false);
  // Asked while the run is under way: the server answers once it has read the run.
  let whileRunning: boolean | undefined;
  server.removeAllListeners("request");
  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    req.resume();
    req.on("end", () => {
      whileRunning = keepsAlive(ahead);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ result: {}, runId: RUN_ID }));
    });
  });
  expect((await runScript({ client, script: script() })).error).toBeUndefined();
  expect(whileRunning).toBe(true);
  expect(seen.accepted).toHaveLength(1);
});

test("a connection opened ahead that closed before the run is not used: the run opens its own", async () => {
  const { server, seen, url } = await countingHttpServer();
  server.once("connection", (socket: net.Socket) => socket.destroy());
  const client = createReduckClient({ apiKey: "k", baseUrl: url, maxRetries: 0 });
  const { made } = await socketsMadeBy(() => openRunConnectionAhead(client));
  expect(made).toHaveLength(1);
  await closed(made[0]!);
  const { data, error } = await runScript({ client, script: script() });
  expect(error).toBeUndefined();
  expect(data).toMatchObject({ runId: RUN_ID });
  expect(seen.requests).toEqual([{ route: "POST /run", connection: 2 }]);
});

test("a connection ahead that could not be made changes nothing: the run fails as it would have", async () => {
  const port = await refusedPort();
  const base = `http://127.0.0.1:${port}`;
  const warmed = createReduckClient({ apiKey: "k", baseUrl: base, maxRetries: 0 });
  const { made } = await socketsMadeBy(() => openRunConnectionAhead(warmed));
  expect(made).toHaveLength(1);
  await closed(made[0]!);
  const plain = createReduckClient({ apiKey: "k", baseUrl: base, maxRetries: 0 });
  const [after, without] = await Promise.all([runScript({ client: warmed, script: script() }), runScript({ client: plain, script: script() })]);
  expect(after.error?.kind).toBe("network");
  expect(after.error).toEqual(without.error);
});

test("nothing is opened ahead through a proxy, nor for a caller's fetch", async () => {
  const proxy = await startProxy();
  onTestFinished(proxy.close);
  const throughProxy = createReduckClient({ apiKey: "k", baseUrl: "http://api.reduck.test", proxy: proxy.url, allowInsecureHttp: true });
  const withFetch = createReduckClient({ apiKey: "k", baseUrl: "http://127.0.0.1:9", fetch: () => Promise.reject(new Error("not called")) });
  const { made } = await socketsMadeBy(() => {
    openRunConnectionAhead(throughProxy);
    openRunConnectionAhead(withFetch);
  });
  expect(made).toEqual([]);
  expect(proxy.tunnels).toEqual([]);
});

test("https: the connection ahead is made with the client's certificate authorities and the host's name, and the run's file arrives whole on it", async () => {
  const certificate: Certificate = await makeCertificate(["localhost"]);
  const server = https.createServer({ cert: certificate.cert, key: certificate.key });
  const seen = countingServer(server, "secureConnection");
  const names: Array<string | false> = [];
  server.on("secureConnection", (socket: { servername?: string | false }) => names.push(socket.servername ?? false));
  const { port, close } = await listenOnLoopback(server);
  onTestFinished(close);
  const bytes = patterned(700 * 1024 + 17);
  const file = await makeFile("ahead.pdf", bytes);
  const client = createReduckClient({ apiKey: "k", baseUrl: `https://localhost:${port}`, ca: certificate.cert });
  const handshake = seen.next();
  openRunConnectionAhead(client);
  await handshake;
  const { data, error } = await runScript({ client, script: script({ document: { path: file } }) });
  expect(error).toBeUndefined();
  expect((data as { result: { files: Record<string, { size: number; sha256: string }> } }).result.files["0:document"]).toMatchObject({
    size: bytes.length,
    sha256: sha256(bytes),
  });
  expect(seen.requests).toEqual([{ route: "POST /run", connection: 1 }]);
  expect(names).toEqual(["localhost"]);
});
