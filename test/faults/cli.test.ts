/**
 * The built CLI against misbehaving servers: it always ends, says what happened in one line,
 * exits with the documented code, and never sends a run twice.
 */
import { truncateSync } from "node:fs";
import http from "node:http";
import { fileURLToPath } from "node:url";
import { afterEach, expect, test } from "vitest";
import { runCli } from "../support/cli.js";
import { makeFile } from "../support/files.js";
import { startFaultServer, type Fault, type FaultServer } from "./fault-server.js";
import { listenOnLoopback } from "../support/loopback.js";
import { waitFor } from "../support/wait.js";

const contract = {
  json: {
    handle: "reduck",
    host: "a.com",
    slug: "s",
    current_version: { id: "v1", input_schema: { type: "object", properties: { document: { type: "string", format: "file" } } } },
  },
};
const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(routes: Record<string, Fault | Fault[]>): Promise<FaultServer> {
  const server = await startFaultServer(routes);
  servers.push(server);
  return server;
}

// A short timeout through the documented variable: the CLI must end, not wait a minute per try.
const env = (server: { url: string }) => ({ REDUCK_API_URL: server.url, REDUCK_API_KEY: "rk_test_key_for_faults", REDUCK_TIMEOUT_MS: "300" });

test("whoami against a server that never answers ends, after its two retries (said under --verbose)", async () => {
  const server = await serve({ "*": "silent" });
  const { code, stdout, stderr } = await runCli(["whoami", "--verbose"], { env: env(server) });
  expect(code).toBe(1);
  expect(stdout).toBe("");
  expect(stderr.match(/timeout: retrying in/g)).toHaveLength(2);
  expect(stderr).toContain(`Error: no answer from ${server.url} within 300 ms`);
  // Under load the CLI may give up on its last try before this server has read that request:
  // wait for it to arrive, then check there was no fourth.
  await waitFor("the third request to reach the server", () => server.count("GET /api/me") >= 3);
  expect(server.count("GET /api/me")).toBe(3);
});

test("REDUCK_TIMEOUT_MS that is not a number is a usage error", async () => {
  const server = await serve({ "*": "silent" });
  const { code, stderr } = await runCli(["whoami"], { env: { ...env(server), REDUCK_TIMEOUT_MS: "soon" } });
  expect(code).toBe(2);
  expect(stderr).toContain('REDUCK_TIMEOUT_MS must be a whole number of milliseconds (0 for none), got "soon"');
  expect(server.count("GET /api/me")).toBe(0);
});

test("a list whose answer is truncated JSON says so", async () => {
  const server = await serve({ "*": "truncated-json" });
  const { code, stderr } = await runCli(["runs", "list"], { env: env(server) });
  expect(code).toBe(1);
  expect(stderr).toMatch(/HTTP 200 OK but the body is not JSON/);
  expect(server.count("GET /api/runs")).toBe(1);
});

test("a 429 with Retry-After is waited out, with a notice under --verbose", async () => {
  const server = await serve({ "GET /api/me": [{ status: 429, retryAfter: "0" }, { json: { name: "Ann", email: "a@b.c", handle: "@ann", projects: [] } }] });
  const { code, stdout, stderr } = await runCli(["whoami", "--verbose"], { env: env(server) });
  expect(code).toBe(0);
  expect(stdout).toContain("@ann");
  expect(stderr).toBe("HTTP 429: retrying in 0.0 s (attempt 1)\n");
  expect(server.count("GET /api/me")).toBe(2);
});

test.each([
  ["reset-mid-answer", /reset while the answer was arriving|closed the connection before the whole answer arrived/],
  ["close-before-answer", /closed the connection before answering|was reset before the answer arrived/],
  ["html-502", /HTTP 502 Bad Gateway: the server answered with text\/html instead of JSON/],
] as const)("run against POST /run that fails (%s): one line, exit 1, sent once", async (fault, message) => {
  const server = await serve({ "GET /api/scripts/reduck/a.com/s": contract, "POST /run": fault });
  const file = await makeFile("doc.txt", "hello");
  const { code, stdout, stderr } = await runCli(["run", "--script", "reduck/a.com/s", `file:document=${file}`], { env: env(server) });
  expect(code).toBe(1);
  expect(stdout).toBe("");
  expect(stderr).toMatch(message);
  expect(stderr).not.toMatch(/could not connect/);
  expect(server.count("POST /run")).toBe(1);
});

test("run with a file that shrinks while it is uploaded fails at once (exit 2), instead of hanging", async () => {
  const file = await makeFile("big.bin", Buffer.alloc(50 * 1024 * 1024, 1));
  let runs = 0;
  const server = http.createServer((req, res) => {
    req.on("error", () => undefined);
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "application/json" });
      return void res.end(JSON.stringify(contract.json));
    }
    runs++;
    // The upload has begun: cut the file on disk short, as a user's editor or a sync tool might.
    req.once("data", () => truncateSync(file, 1000));
    req.resume();
  });
  const { url, close } = await listenOnLoopback(server);
  servers.push({ close });

  const { code, stderr } = await runCli(["run", "--script", "reduck/a.com/s", `file:document=${file}`], { env: env({ url }) });
  expect(code).toBe(2);
  expect(stderr).toContain(`Error: ${file} changed while it was being sent: it was 52428800 bytes, now 1000`);
  expect(runs).toBe(1);
});

test("run needs no npm undici: with the package unresolvable, a run with a file still works", async () => {
  const server = await serve({
    "GET /api/scripts/reduck/a.com/s": contract,
    "POST /run": { json: { result: { ok: true }, runId: "0d4e8619-5b1c-4c1e-9d55-0000000000a1" } },
  });
  const file = await makeFile("doc.txt", "hello");
  const withoutUndici = fileURLToPath(new URL("./without-undici.mjs", import.meta.url));
  const { code, stdout, stderr } = await runCli(["run", "--script", "reduck/a.com/s", `file:document=${file}`], {
    env: { ...env(server), NODE_OPTIONS: `--import=${withoutUndici}` },
  });
  expect(stderr).toBe("run 0d4e8619-5b1c-4c1e-9d55-0000000000a1\n");
  expect(code).toBe(0);
  expect(JSON.parse(stdout)).toEqual({ ok: true });
  expect(server.count("POST /run")).toBe(1);
});
