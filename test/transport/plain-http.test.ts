/**
 * A key or token never goes over plain http to a host other than this machine's loopback, unless
 * the user opts in by a setting named for the risk (allowInsecureHttp, REDUCK_ALLOW_INSECURE_HTTP).
 * No test sends anything off this machine: the far host is a name, and what would have been sent
 * is seen by a fetch that records calls, or by a loopback proxy the CLI is told to use (which
 * answers itself, forwarding nothing).
 */
import { existsSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { describe, expect, onTestFinished, test } from "vitest";
import { AttemptGuard } from "../../src/core/wire/abort.js";
import { exchange } from "../../src/core/wire/exchange.js";
import { Connections } from "../../src/core/wire/http.js";
import { createReduckClient, getMe, type ReduckClientOptions } from "../../src/index.js";
import { runCli } from "../support/cli.js";
import { listenOnLoopback } from "../support/loopback.js";
import { temporaryFolder } from "../support/files.js";

const FAR = "http://reduck.example:8080";

/** A fetch that answers every call itself and records it: nothing leaves the process. */
function recorder() {
  const calls: Array<{ url: string; headers: Record<string, string> }> = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    calls.push({ url: String(input), headers: Object.fromEntries(new Headers(init?.headers)) });
    return new Response('{"handle":"@far","email":"far@example.com"}', { status: 200, headers: { "content-type": "application/json" } });
  };
  return { fetch, calls };
}

describe("the library", () => {
  test.each<[string, Partial<ReduckClientOptions>]>([
    ["an API key, baseUrl", { apiKey: "rk_key", baseUrl: FAR }],
    ["an OAuth token, baseUrl", { oauthToken: "token", baseUrl: FAR }],
    ["an API key, runBaseUrl only", { apiKey: "rk_key", baseUrl: "https://reduck.ai", runBaseUrl: FAR }],
  ])("%s: plain http to a name that is not loopback is refused when the client is made, before anything is sent", (_label, options) => {
    const { fetch, calls } = recorder();
    expect(() => createReduckClient({ ...options, fetch } as ReduckClientOptions)).toThrow(
      new RegExp(`^createReduckClient: (baseUrl|runBaseUrl) ${FAR} is plain http to another machine, .* or set allowInsecureHttp: true to send it anyway$`),
    );
    expect(calls).toEqual([]);
  });

  test("plain http on loopback is fine: 127.0.0.0/8, ::1, localhost", () => {
    for (const baseUrl of ["http://127.0.0.1:9", "http://127.8.9.10:9", "http://[::1]:9", "http://localhost:9", "http://LOCALHOST:9"])
      expect(createReduckClient({ apiKey: "rk_key", baseUrl }).baseUrl).toBe(baseUrl);
  });

  test("allowInsecureHttp: true opts in, and the key goes", async () => {
    const { fetch, calls } = recorder();
    const client = createReduckClient({ apiKey: "rk_key", baseUrl: FAR, fetch, allowInsecureHttp: true });
    expect((await getMe({ client })).data).toMatchObject({ handle: "@far" });
    expect(calls).toEqual([{ url: `${FAR}/api/me`, headers: expect.objectContaining({ "x-api-key": "rk_key" }) }]);
  });

  test("the exchange itself refuses a credential bound for plain http elsewhere (whatever built the request), and lets one without a credential go", async () => {
    const { fetch, calls } = recorder();
    const route = { fetch, connections: new Connections() };
    const send = (headers: Record<string, string>) => {
      const guard = new AttemptGuard(0);
      return exchange(route, { method: "GET", url: `${FAR}/files/report.pdf`, headers }, guard, { redirects: 5 }).finally(() => guard.dispose());
    };
    for (const headers of [{ "X-API-Key": "rk_key" }, { authorization: "Bearer token" }] as Array<Record<string, string>>)
      await expect(send(headers)).rejects.toThrow(`refusing to send the credential to ${FAR} over plain http`);
    expect(calls).toEqual([]);
    expect((await send({ accept: "*/*" })).status).toBe(200);
    expect(calls).toHaveLength(1);
  });
});

describe("the CLI", () => {
  /** A loopback proxy the CLI is pointed at (HTTP_PROXY): whatever the CLI sends to FAR reaches it, and it answers itself. */
  async function listeningProxy() {
    const seen: Array<{ url: string; key?: string }> = [];
    const proxy = http.createServer((req, res) => {
      seen.push({ url: req.url!, key: req.headers["x-api-key"] as string | undefined });
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"handle":"@far","email":"far@example.com","name":"Far","projects":[]}');
    });
    const { url, close } = await listenOnLoopback(proxy);
    onTestFinished(close);
    const configDir = temporaryFolder("reduck-config-");
    return { seen, env: { HTTP_PROXY: url, REDUCK_CONFIG_DIR: configDir, HOME: configDir }, configDir };
  }

  test("a key for plain http elsewhere is refused (exit 2) before anything is sent; REDUCK_ALLOW_INSECURE_HTTP=1 opts in", async () => {
    const { seen, env } = await listeningProxy();
    const refused = await runCli(["whoami"], { env: { ...env, REDUCK_API_URL: FAR, REDUCK_API_KEY: "rk_key_kept_home" } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `Error: ${FAR} is plain http to another machine: your API key would cross the network unencrypted, readable by anyone on the way. Use https (plain http is for this machine's loopback only), or set REDUCK_ALLOW_INSECURE_HTTP=1 to send it anyway\n`,
    );
    expect(seen).toEqual([]);

    // The proxy sees what is sent once the user opts in: so its silence above means something.
    const allowed = await runCli(["whoami"], { env: { ...env, REDUCK_API_URL: FAR, REDUCK_API_KEY: "rk_key_kept_home", REDUCK_ALLOW_INSECURE_HTTP: "1" } });
    expect(allowed.code).toBe(0);
    expect(seen).toEqual([{ url: `${FAR}/api/me`, key: "rk_key_kept_home" }]);
  });

  test("login --with-api-key --api-url http://<elsewhere> stores nothing and sends nothing", async () => {
    const { seen, env, configDir } = await listeningProxy();
    const login = await runCli(["login", "--with-api-key", "--api-url", FAR], { env, input: "rk_key_kept_home\n" });
    expect(login.code).toBe(2);
    expect(login.stderr).toContain(`Error: ${FAR} is plain http to another machine: your API key would cross the network unencrypted`);
    expect(seen).toEqual([]);
    expect(existsSync(path.join(configDir, "config.json"))).toBe(false);
  });
});
