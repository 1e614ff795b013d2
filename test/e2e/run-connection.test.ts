/**
 * `reduck run` opens the run's own connection while it reads the script's contract, so that the
 * connection's handshake is not on the run's path. The built CLI against a loopback server that
 * numbers its connections and answers the contract only once a second connection has come: the
 * run must arrive on that connection, and nothing else on it.
 */
import { once } from "node:events";
import http from "node:http";
import type net from "node:net";
import { expect, onTestFinished, test } from "vitest";
import { runCli } from "../support/cli.js";
import { makeFile } from "../support/files.js";
import { listenOnLoopback } from "../support/loopback.js";

const CONTRACT = {
  handle: "reduck",
  host: "a.com",
  slug: "s",
  current_version: { id: "v1", input_schema: { type: "object", properties: { document: { type: "string", format: "file" } } } },
};
const RUN_ID = "00000000-0000-4000-8001-0000000000b3";

test("the run arrives on a connection opened while the contract was read, which carried nothing before it", async () => {
  const accepted: net.Socket[] = [];
  const requests: Array<{ route: string; connection: number }> = [];
  const server = http.createServer((req, res) => {
    const route = `${req.method} ${req.url}`;
    requests.push({ route, connection: accepted.indexOf(req.socket) + 1 });
    req.resume();
    const answer = (body: unknown) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (route === "GET /api/scripts/reduck/a.com/s") {
      // Held until the CLI has opened the run's connection: it must do so while it waits here.
      if (accepted.length >= 2) answer(CONTRACT);
      else void once(server, "connection").then(() => answer(CONTRACT));
    } else req.on("end", () => answer({ result: { sent: true }, runId: RUN_ID }));
  });
  server.on("connection", (socket: net.Socket) => accepted.push(socket));
  const { url, close } = await listenOnLoopback(server);
  onTestFinished(close);
  const file = await makeFile("contract.pdf", "%PDF-1.7 a small one");

  const { code, stdout, stderr } = await runCli(["run", "--script", "reduck/a.com/s", `file:document=${file}`], {
    env: { REDUCK_API_URL: url, REDUCK_API_KEY: "rk_test_connection_ahead" },
  });
  expect(stderr).toContain(`run ${RUN_ID}`);
  expect(code).toBe(0);
  expect(JSON.parse(stdout)).toEqual({ sent: true });
  expect(requests).toEqual([
    { route: "GET /api/scripts/reduck/a.com/s", connection: 1 },
    { route: "POST /run", connection: 2 },
  ]);
  expect(accepted).toHaveLength(2);
});
