/**
 * `reduck login` with OAuth, end to end: the built CLI spawned against the sandbox, which trusts a
 * real authorization server (oidc-provider) on loopback; the sign-in pages are driven over HTTP.
 * Access tokens live 5 seconds, so every command below has to refresh them.
 */
import { mkdir, mkdtemp, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { patterned, sha256 } from "../support/files.js";
import { loginWithBrowser, readStoredConfig, runReduck, startOAuthWorld, type OAuthWorld } from "./harness.js";

let world: OAuthWorld;
let home: string;
const attachment = patterned(20_000);

beforeAll(async () => {
  world = await startOAuthWorld({ accessTokenTtl: 5 });
  home = await mkdtemp(path.join(os.tmpdir(), "reduck-oauth-"));
  await writeFile(path.join(home, "banner.png"), attachment);
}, 30_000);

afterAll(async () => {
  await world?.close();
});

/** A fresh config folder, and the environment a user without any API key would have. */
async function freshUser(extra: Record<string, string> = {}) {
  const configDir = await mkdtemp(path.join(home, "config-"));
  const env = { HOME: home, REDUCK_API_URL: world.url, REDUCK_CONFIG_DIR: configDir, ...extra };
  return { configDir, env };
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
    expect(asked.get("state")).toBeTruthy();
    expect(asked.getAll("resource")).toEqual([world.url]);
    expect(asked.get("scope")!.split(" ")).toEqual(["script:read", "script:write", "run:read", "run:write", "device:read", "connector:read", "profile", "offline_access"]);
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
    expect(whoami.stdout).toMatch(new RegExp(`Signed in with:\\s+OAuth, as @demo via ${world.as.issuer}; access token valid until \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC`));
    expect(whoami.stdout).toMatch(new RegExp(`API:\\s+${world.url} \\(from REDUCK_API_URL\\)`));

    // A 5 s token is always within a minute of expiring: each command refreshed it, rotating the refresh token.
    const afterWhoami = (await readStoredConfig(configDir)).credentials[world.url].oauth;
    expect(afterWhoami.refreshToken).not.toBe(signIn.refreshToken);
    expect(afterWhoami.tokens[world.url].accessToken).not.toBe(signIn.tokens[world.url].accessToken);

    const list = await runReduck(["scripts", "list", "reduck", "--json"], env);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).length).toBeGreaterThan(0);
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
  });
});
