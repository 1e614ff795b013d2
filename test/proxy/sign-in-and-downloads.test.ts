/**
 * The built CLI's requests that are not catalogue calls, behind a proxy: the OAuth sign-in of
 * `reduck login` (discovery, registration, the token request), the token refresh of a later
 * command, `reduck logout`'s revocation, and `--out` downloads. The sandbox and a real
 * authorization server (oidc-provider) are served over https under names only the loopback proxy
 * resolves, so an answer proves the request went through it; the proxy counts its tunnels, one per
 * request here (these requests never reuse a connection).
 *
 * The test's own browser and the sandbox reading the issuer's keys go through a second proxy, so
 * the first one counts only the CLI.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { connectionFetch } from "../../src/core/wire/fetch.js";
import { Connections } from "../../src/core/wire/http.js";
import { proxyFromEnv } from "../../src/core/wire/proxy.js";
import { loginWithBrowser, readStoredConfig, runReduck, spawnReduck, startOAuthWorld, LINK, type OAuthWorld } from "../oauth/harness.js";
import { refusedPort } from "../support/scripted-server.js";
import { makeCertificate, startProxy, type Certificate, type ProxyServer } from "./servers.js";
import { temporaryFolder } from "../support/files.js";
import { cliEnv } from "../support/sandbox.js";

const SANDBOX = "sandbox.reduck.test";
const ISSUER = "login.reduck.test";
let certificate: Certificate;
let proxy: ProxyServer;
let browserProxy: ProxyServer;
let browserFetch: typeof fetch;
let world: OAuthWorld;
let home: string;

beforeAll(async () => {
  certificate = await makeCertificate([SANDBOX, ISSUER]);
  const hosts = { [SANDBOX]: "127.0.0.1", [ISSUER]: "127.0.0.1" };
  proxy = await startProxy({ hosts });
  browserProxy = await startProxy({ hosts });
  // Loopback (the CLI's callback listener) goes direct, as a browser would reach it.
  browserFetch = connectionFetch(new Connections({ proxy: proxyFromEnv({ HTTPS_PROXY: browserProxy.url }), ca: certificate.cert }));
  // Tokens live 5 s, under the minute within which a command refreshes one: every command refreshes.
  world = await startOAuthWorld({ accessTokenTtl: 5, named: { tls: certificate, sandbox: SANDBOX, issuer: ISSUER, fetch: browserFetch } });
  home = temporaryFolder("reduck-proxy-oauth-");
}, 30_000);

afterAll(async () => {
  await world?.close();
  await proxy?.close();
  await browserProxy?.close();
});

async function user(extra: Record<string, string> = {}) {
  const { configDir, env: user } = cliEnv({ url: world.url, home });
  const env = {
    ...user,
    NODE_EXTRA_CA_CERTS: certificate.certFile,
    HTTPS_PROXY: proxy.url,
    HTTP_PROXY: proxy.url,
    ...extra,
  };
  return { configDir, env };
}

/** The tunnels the CLI's proxy opened while `work` ran, as "sandbox" and "issuer". */
async function tunnelsDuring<T>(work: () => Promise<T>): Promise<{ result: T; tunnels: string[] }> {
  const before = proxy.tunnels.length;
  const result = await work();
  const names = { [new URL(world.url).host]: "sandbox", [new URL(world.as.issuer).host]: "issuer" };
  return { result, tunnels: proxy.tunnels.slice(before).map((t) => names[t] ?? t) };
}

describe("OAuth through HTTPS_PROXY", () => {
  test("login, a later command's refresh and logout's revocation all go through the proxy", async () => {
    expect(world.url).toMatch(new RegExp(`^https://${SANDBOX.replace(/\./g, "\\.")}:\\d+$`));
    expect(world.as.issuer).toMatch(new RegExp(`^https://${ISSUER.replace(/\./g, "\\.")}:\\d+$`));
    const { configDir, env } = await user();

    const login = await tunnelsDuring(() => loginWithBrowser(env, { fetch: browserFetch }));
    expect(login.result.code, login.result.stderr).toBe(0);
    expect(login.result.stderr).toContain(`Signed in to ${world.url} as @demo with OAuth via ${world.as.issuer}.`);
    expect(login.tunnels).toEqual([
      "sandbox", // its protected-resource metadata, naming the issuer
      "issuer", // RFC 8414 metadata (oidc-provider has none: 404)
      "issuer", // OpenID discovery
      "issuer", // dynamic registration
      "issuer", // the token request, after the browser came back
      "sandbox", // GET /api/me with the new token, for the account's name
    ]);
    const signedIn = (await readStoredConfig(configDir)).credentials[world.url].oauth;
    expect(signedIn).toMatchObject({ issuer: world.as.issuer, account: "@demo", refreshToken: expect.any(String) });

    const later = await tunnelsDuring(() => runReduck(["scripts", "list", "reduck", "--json"], env));
    expect(later.result.code, later.result.stderr).toBe(0);
    expect(later.tunnels).toEqual(["issuer", "issuer", "issuer", "sandbox"]); // discovery twice, the refresh, the call
    const refreshed = (await readStoredConfig(configDir)).credentials[world.url].oauth;
    expect(refreshed.tokens[world.url].accessToken).not.toBe(signedIn.tokens[world.url].accessToken);

    const logout = await tunnelsDuring(() => runReduck(["logout"], env));
    expect(logout.result.code, logout.result.stderr).toBe(0);
    expect(logout.result.stderr).toContain(`the sign-in is revoked at ${world.as.issuer} and forgotten here`);
    expect(logout.tunnels).toEqual(["issuer", "issuer", "issuer"]); // discovery twice, the revocation
    // Revoked at the server: the refresh token no longer works.
    const grant = await browserFetch(`${world.as.issuer}/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshed.refreshToken, client_id: refreshed.clientId }),
    });
    expect(await grant.json()).toMatchObject({ error: "invalid_grant" });
  });

  test("a proxy that is not there: login says which, and where it came from (exit 1)", async () => {
    const port = await refusedPort();
    const { env } = await user({ HTTPS_PROXY: `http://127.0.0.1:${port}` });
    const r = await runReduck(["login", "--no-browser"], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `Error: reading the sign-in details: could not connect to the proxy http://127.0.0.1:${port} (ECONNREFUSED). The proxy comes from HTTPS_PROXY (HTTP_PROXY for http:// URLs); NO_PROXY lists hosts to reach directly.\n`,
    );
  });

  test("a proxy that refuses the tunnel: said with its answer", async () => {
    const guarded = await startProxy({ hosts: { [SANDBOX]: "127.0.0.1" }, credentials: "ann:right" });
    try {
      const { env } = await user({ HTTPS_PROXY: guarded.url.replace("http://", "http://ann:wrong@") });
      const r = await runReduck(["login", "--no-browser"], env);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`the proxy ${guarded.url} would not open a connection to ${world.url} (it answered 407 Proxy Authentication Required)`);
      expect(r.stderr).not.toContain("wrong");
    } finally {
      await guarded.close();
    }
  });

  test("a certificate that is not trusted: said, with how to trust it", async () => {
    const { NODE_EXTRA_CA_CERTS: _, ...env } = (await user()).env;
    const r = await runReduck(["login", "--no-browser"], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^Error: reading the sign-in details: the certificate of .* through the proxy .* was not accepted .* In the CLI: NODE_EXTRA_CA_CERTS=FILE/,
    );
  });

  test("NO_PROXY for the sign-in's hosts sends them direct, where their names do not resolve", async () => {
    const { env } = await user({ NO_PROXY: ".reduck.test" });
    const before = proxy.tunnels.length;
    const cli = spawnReduck(["login", "--no-browser"], env);
    const r = await cli.done;
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("(ENOTFOUND)");
    expect(r.stderr).not.toMatch(LINK);
    expect(proxy.tunnels.length).toBe(before);
  });
});

describe("--out downloads through HTTPS_PROXY", () => {
  beforeAll(() => {
    // A managed browser needs the site's session; the script hands back what it downloaded.
    world.store.putConnector(world.store.demo.userId, "admin.atlassian.com", [
      { name: "session", value: "s", domain: "admin.atlassian.com", path: "/", expires: 4102444800, httpOnly: true, secure: true },
    ]);
    const text = { type: "string" };
    world.store.addScript({
      handle: "@demo",
      host: "admin.atlassian.com",
      slug: "fetch_invoice",
      content: "return await builtins.download('https://admin.atlassian.com/invoices/' + args.id + '/download', { filename: args.name });",
      inputSchema: { type: "object", properties: { id: text, name: text } },
    });
  });

  test("reduck run --out fetches a managed browser's download through the proxy; runs get --out too", async () => {
    const { env } = await user({ REDUCK_API_KEY: world.store.demo.apiKey });
    const dir = temporaryFolder("out-", { inside: home });
    const run = await tunnelsDuring(() =>
      runReduck(["run", "--browser", "managed", "--out", dir, "--json", "--script", "admin.atlassian.com/fetch_invoice", "id=inv_7", "name=invoice.pdf"], env),
    );
    expect(run.result.code, run.result.stderr).toBe(0);
    const { runId, result } = JSON.parse(run.result.stdout);
    expect(result).toEqual({
      filename: "invoice.pdf",
      url: expect.stringMatching(new RegExp(`^${world.url}/downloads/`)),
      path: path.join(dir, "invoice.pdf"),
    });
    // The contract, the run (a connection of its own), and the download.
    expect(run.tunnels).toEqual(["sandbox", "sandbox", "sandbox"]);
    const served = Buffer.from(await (await browserFetch(result.url)).arrayBuffer());
    expect(served.subarray(0, 5).toString()).toBe("%PDF-");
    expect(await readFile(result.path)).toEqual(served);

    const again = temporaryFolder("out-", { inside: home });
    const get = await tunnelsDuring(() => runReduck(["runs", "get", runId, "--out", again, "--json"], env));
    expect(get.result.code, get.result.stderr).toBe(0);
    expect(await readFile(path.join(again, "invoice.pdf"))).toEqual(served);
    expect(get.tunnels).toEqual(["sandbox", "sandbox"]); // the calls reading the run and its contract (one kept-alive connection), the download
  });
});
