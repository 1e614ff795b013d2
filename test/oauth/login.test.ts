/**
 * `reduck login` with OAuth, end to end: the built CLI spawned against the sandbox, which trusts a
 * real authorization server (oidc-provider) on loopback; the sign-in pages are driven over HTTP.
 * Access tokens live 5 seconds, so every command below has to refresh them.
 */
import { stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { patterned, sha256, temporaryFolder } from "../support/files.js";
import { cliEnv } from "../support/sandbox.js";
import { loginWithBrowser, readStoredConfig, runReduck, startOAuthWorld, type OAuthWorld } from "./harness.js";

let world: OAuthWorld;
let home: string;
const attachment = patterned(20_000);

beforeAll(async () => {
  world = await startOAuthWorld({ accessTokenTtl: 5 });
  home = temporaryFolder("reduck-oauth-");
  await writeFile(path.join(home, "banner.png"), attachment);
}, 30_000);

afterAll(async () => {
  await world?.close();
});

/** A fresh config folder, and the environment a user without any API key would have. */
async function freshUser(extra: Record<string, string> = {}) {
  const { configDir, env } = cliEnv({ url: world.url, home });
  return { configDir, env: { ...env, ...extra } };
}

describe("reduck login with OAuth", () => {
  test("signs in through the browser pages; whoami, scripts list and a run with a file work with no API key anywhere", async () => {
    const { configDir, env } = await freshUser();
    const login = await loginWithBrowser(env);
    expect(login.stderr).toContain(`To sign in to ${world.url}, open this link`);
    expect(login.browser.page).toContain("Signed in to Reduck: you can close this tab");
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain(`Signed in to ${world.url} as @demo with OAuth via ${world.as.issuer}`);

    // The request: PKCE S256, state, the API as resource, the CLI's scopes.
    const asked = new URL(login.link).searchParams;
    expect(asked.get("code_challenge_method")).toBe("S256");
    expect(asked.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(asked.get("state")).toMatch(/^[\w-]{43}$/); // 32 random bytes, base64url
    expect(asked.getAll("resource")).toEqual([world.url]);
    // Written out rather than imported, so the test can disagree with the code it checks; the
    // sandbox's ALL_SCOPES (test/server/store/records.ts) names the same scopes, a twin on purpose.
    expect(asked.get("scope")!.split(" ")).toEqual([
      "script:read",
      "script:write",
      "run:read",
      "run:write",
      "device:read",
      "connector:read",
      "app:read",
      "app:write",
      "profile",
      "offline_access",
    ]);
    expect(asked.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);

    // Stored readable only by the owner: refresh token, the API's token and its resource, issuer, client.
    const file = path.join(configDir, "config.json");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const stored = await readStoredConfig(configDir);
    const signIn = stored.credentials[world.url].oauth;
    expect(signIn).toMatchObject({ issuer: world.as.issuer, account: "@demo", refreshToken: expect.any(String) });
    expect(signIn.tokens[world.url]).toMatchObject({ resource: world.url, accessToken: expect.any(String), expiresAt: expect.any(String) });
    expect(stored.oauthClients[world.as.issuer].clientId).toBe(signIn.clientId);
    expect(asked.get("client_id")).toBe(signIn.clientId);

    const whoami = await runReduck(["whoami"], env);
    expect(whoami.code, whoami.stderr).toBe(0);
    expect(whoami.stdout).toMatch(
      new RegExp(`Signed in with:\\s+OAuth, as @demo via ${world.as.issuer}; access token valid until \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC`),
    );
    expect(whoami.stdout).toMatch(new RegExp(`API:\\s+${world.url} \\(from REDUCK_API_URL\\)`));

    // A 5 s token is always within a minute of expiring: each command refreshed it, rotating the refresh token.
    const afterWhoami = (await readStoredConfig(configDir)).credentials[world.url].oauth;
    expect(afterWhoami.refreshToken).not.toBe(signIn.refreshToken);
    expect(afterWhoami.tokens[world.url].accessToken).not.toBe(signIn.tokens[world.url].accessToken);

    const list = await runReduck(["scripts", "list", "reduck", "--json"], env);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).data.length).toBeGreaterThan(0);
    const afterList = (await readStoredConfig(configDir)).credentials[world.url].oauth;
    expect(afterList.refreshToken).not.toBe(afterWhoami.refreshToken);

    const before = world.seen.length;
    const run = await runReduck(
      ["run", "--script", "reduck/mail.google.com/send_email", "to=me@example.com", "subject=Hi", "attachmentName=banner.png", "file:attachment=~/banner.png"],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ sent: true, attachment: "banner.png" });
    const lastRun = [...world.store.runs.values()].sort((a, b) => b.startedAt.localeCompare(a.startedAt))[0]!;
    expect(lastRun.files).toEqual([expect.objectContaining({ sha256: sha256(attachment), via: "bytes" })]);
    // Sandbox and run host are one origin here: the run carried the API's token.
    expect(world.seen.slice(before).find((r) => r.path === "/run")).toMatchObject({ method: "POST", audience: world.url });

    // flock's app operations need app:read (and app:write to change anything): the sign-in asked for both.
    const apps = await runReduck(["flock", "list", "--json"], env);
    expect(apps.code, apps.stderr).toBe(0);
    expect(JSON.parse(apps.stdout)).toMatchObject({ data: [] });
  });
});

describe("two resources: the API and the run host", () => {
  test("with REDUCK_MCP_URL=<origin>/mcp, runs carry the run host's token and catalogue calls the API's", async () => {
    const runHost = `${world.url}/mcp`;
    const { configDir, env } = await freshUser({ REDUCK_MCP_URL: runHost });
    const login = await loginWithBrowser(env);
    expect(login.code, login.stderr).toBe(0);
    expect(new URL(login.link).searchParams.getAll("resource")).toEqual([world.url, runHost]);
    const tokens = (await readStoredConfig(configDir)).credentials[world.url].oauth.tokens;
    expect(tokens[world.url].resource).toBe(world.url);
    expect(tokens[runHost].resource).toBe(runHost);

    const before = world.seen.length;
    const run = await runReduck(
      ["run", "--script", "reduck/mail.google.com/send_email", "to=me@example.com", "subject=Hi", "file:attachment=~/banner.png"],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    const seen = world.seen.slice(before);
    expect(seen.find((r) => r.method === "POST")).toEqual({ method: "POST", path: "/mcp/run", audience: runHost });
    const catalogue = seen.filter((r) => r.path.startsWith("/api/"));
    expect(catalogue.length).toBeGreaterThan(0); // the CLI reads the script's contract first
    for (const call of catalogue) expect(call.audience).toBe(world.url);

    // The run host's token is refused by the catalogue, in words that say why.
    const runHostToken = (await readStoredConfig(configDir)).credentials[world.url].oauth.tokens[runHost].accessToken;
    const refused = await fetch(`${world.url}/api/scripts/reduck`, { headers: { authorization: `Bearer ${runHostToken}` } });
    expect(refused.status).toBe(401);
    expect((await refused.json()).error).toBe(
      `This access token was issued for the Reduck MCP server (${runHost}), not this API: request a token with resource ${world.url}`,
    );
  });
});

describe("the sandbox checks JWT access tokens as a protected resource", () => {
  const api = () => `${world.url}/api/scripts/reduck`;
  const call = async (token: string) => {
    const response = await fetch(api(), { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, error: (await response.json()).error as string, challenge: response.headers.get("www-authenticate") };
  };

  test("a token the server signed for this API, subject demo, with the scope, is accepted", async () => {
    const token = await world.as.sign({ sub: "demo", aud: world.url, scope: "script:read" });
    expect((await fetch(api(), { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  test("a tampered token is refused", async () => {
    const token = await world.as.sign({ sub: "demo", aud: world.url, scope: "script:read" });
    const [header, payload, signature] = token.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
    const altered = Buffer.from(JSON.stringify({ ...claims, scope: "script:read script:write" })).toString("base64url");
    const r = await call(`${header}.${altered}.${signature}`);
    expect(r.status).toBe(401);
    expect(r.error).toBe(`This access token's signature does not verify with ${world.as.issuer}'s keys: it was altered, or not issued there`);
  });

  test("an expired token is refused", async () => {
    const r = await call(await world.as.sign({ sub: "demo", aud: world.url, scope: "script:read" }, { expiresIn: -60 }));
    expect(r).toMatchObject({ status: 401, error: "This access token has expired: refresh it, or sign in again" });
  });

  test("a token from another authorization server is refused", async () => {
    const { startAuthorizationServer } = await import("./authorization-server.js");
    const foreign = await startAuthorizationServer({ resources: [world.url] });
    try {
      const r = await call(await foreign.sign({ sub: "demo", aud: world.url, scope: "script:read" }));
      expect(r.status).toBe(401);
      expect(r.error).toBe(`This access token was issued by ${foreign.issuer}, not by the authorization server this API trusts (${world.as.issuer})`);
    } finally {
      await foreign.close();
    }
  });

  test("an unknown subject is refused, and a missing scope is forbidden", async () => {
    const stranger = await call(await world.as.sign({ sub: "nobody", aud: world.url, scope: "script:read" }));
    expect(stranger).toMatchObject({ status: 401, error: expect.stringContaining(`subject "nobody" is not an account on this server`) });
    const narrow = await call(await world.as.sign({ sub: "demo", aud: world.url, scope: "run:read" }));
    expect(narrow).toMatchObject({ status: 403, error: expect.stringContaining(`lacks the "script:read" scope`) });
  });

  test("a 401 says where the resource's metadata is, and the metadata names the authorization server", async () => {
    const r = await call(await world.as.sign({ sub: "demo", aud: world.url, scope: "script:read" }, { expiresIn: -60 }));
    expect(r.challenge).toBe(`Bearer resource_metadata="${world.url}/.well-known/oauth-protected-resource", error="invalid_token"`);
    const runHost = await fetch(`${world.url}/mcp/run`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(runHost.status).toBe(401);
    expect(runHost.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${world.url}/.well-known/oauth-protected-resource/mcp"`);
    const metadata = await (await fetch(`${world.url}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(metadata).toMatchObject({ resource: `${world.url}/mcp`, authorization_servers: [world.as.issuer] });
  });
});

describe("signing out", () => {
  test("logout revokes the refresh token at the server; a copy kept from before says the sign-in has expired (exit 4)", async () => {
    const { configDir, env } = await freshUser();
    expect((await loginWithBrowser(env)).code).toBe(0);
    const kept = await readStoredConfig(configDir);
    const { refreshToken, clientId } = kept.credentials[world.url].oauth;

    const logout = await runReduck(["logout"], env);
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stderr).toContain(`Signed out of ${world.url}: the sign-in is revoked at ${world.as.issuer} and forgotten here.`);
    expect((await readStoredConfig(configDir).catch(() => ({}))).credentials?.[world.url]).toBeUndefined();

    // The old refresh token no longer works at the server itself.
    const metadata = await (await fetch(`${world.as.issuer}/.well-known/openid-configuration`)).json();
    const refresh = await fetch(metadata.token_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId, resource: world.url }),
    });
    expect(refresh.status).toBe(400);
    expect((await refresh.json()).error).toBe("invalid_grant");

    // A command holding the revoked sign-in cannot refresh: it says what to do.
    await writeFile(path.join(configDir, "config.json"), JSON.stringify(kept), { mode: 0o600 });
    const list = await runReduck(["scripts", "list", "reduck"], env);
    expect(list.code).toBe(4);
    expect(list.stderr).toContain("your sign-in has expired: run `reduck login`");
  });
});
