/**
 * A credential is never printed: not when it is pasted as an argument by mistake, not when a
 * server echoes it back in a message.
 */
import { afterEach, describe, expect, test } from "vitest";
import { createReduckClient, getMe, runScript } from "../../src/index.js";
import { runCli } from "../support/cli.js";
import { startFaultServer, type FaultServer } from "./fault-server.js";

const KEY = "rk_live_4f8a9c2e71d05b36";
const servers: FaultServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A server that refuses every request, quoting the key it was given and another one. */
async function echoingServer(): Promise<FaultServer> {
  const server = await startFaultServer({
    "*": { status: 401, json: { error: `Invalid API key ${KEY}`, variables: { key: [`${KEY} is revoked; rk_other_0123456789 too`] } } },
  });
  servers.push(server);
  return server;
}

describe("the CLI", () => {
  test.each([[["login", KEY]], [["scripts", "get", KEY]], [[KEY]], [["runs", "list", `--api-key=${KEY}`, "extra", KEY]]])(
    "never echoes a key given as an argument: %j",
    async (args) => {
      const { code, stdout, stderr } = await runCli(args, { env: { REDUCK_API_URL: "http://127.0.0.1:9", REDUCK_API_KEY: "rk_env_0123456789" } });
      expect(code).toBe(2);
      expect(stdout + stderr).not.toContain(KEY);
      expect(stdout + stderr).not.toContain("4f8a9c2e71d05b36");
      expect(stderr).toContain("[redacted]");
    },
  );

  test.each([[[]], [["--json"]]])("redacts the key from a server's message (%j)", async (extra) => {
    const server = await echoingServer();
    const { code, stdout, stderr } = await runCli(["whoami", ...extra], { env: { REDUCK_API_URL: server.url, REDUCK_API_KEY: KEY } });
    expect(code).toBe(4);
    expect(stdout + stderr).not.toContain(KEY);
    expect(stdout + stderr).not.toContain("rk_other_0123456789");
    expect(stdout + stderr).toContain("Invalid API key [redacted]");
  });
});

describe("the library", () => {
  test("redacts its own credential and anything key-shaped from a server's messages", async () => {
    const server = await echoingServer();
    const client = createReduckClient({ apiKey: KEY, baseUrl: server.url });
    const { error } = await getMe({ client });
    expect(error).toMatchObject({ status: 401, error: "Invalid API key [redacted]", variables: { key: ["[redacted] is revoked; [redacted] too"] } });
    const run = await runScript({ client, script: { host: "a.com", slug: "s" } });
    expect(run.error).toMatchObject({ status: 401, error: "Invalid API key [redacted]" });
  });

  test("an OAuth token echoed back is redacted too", async () => {
    const token = "opaque-oauth-token-1234567890";
    const server = await startFaultServer({ "*": { status: 403, json: { error: `token ${token} lacks a scope` } } });
    servers.push(server);
    const { error } = await getMe({ client: createReduckClient({ oauthToken: token, baseUrl: server.url }) });
    expect(error?.error).toBe("token [redacted] lacks a scope");
  });
});
