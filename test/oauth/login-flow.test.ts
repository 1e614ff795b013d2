/**
 * The edges of `reduck login`: the browser opener, a sign-in that never comes back or is
 * declined, an answer that is not ours, the registered client remembered, --client-id, the URL
 * remembered by --api-url, REDUCK_API_KEY's precedence, and commands refreshing at the same time.
 */
import { watch } from "node:fs";
import { readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createHandlers, createStore, startHttpServer } from "@reduck-client/sandbox";
import { signInInBrowser } from "./browser.js";
import { LINK, loginWithBrowser, readStoredConfig, registerNativeClient, runReduck, spawnReduck, startOAuthWorld, type OAuthWorld } from "./harness.js";
import { temporaryFolder } from "../support/files.js";
import { cliEnv } from "../support/sandbox.js";

let world: OAuthWorld;
let home: string;

beforeAll(async () => {
  world = await startOAuthWorld({ accessTokenTtl: 5 });
  home = temporaryFolder("reduck-oauth-flow-");
}, 30_000);

afterAll(async () => {
  await world?.close();
});

async function freshUser(extra: Record<string, string> = {}) {
  const { configDir, env } = cliEnv({ url: world.url, home });
  return { configDir, env: { ...env, ...extra } };
}

/** The contents of `file` once it exists: watched for, not polled (the opener runs when it runs). */
function fileWhenItAppears(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const watcher = watch(path.dirname(file), () => void look());
    const look = () =>
      readFile(file, "utf8").then(
        (text) => {
          watcher.close();
          resolve(text);
        },
        (err: NodeJS.ErrnoException) => {
          if (err.code !== "ENOENT") {
            watcher.close();
            reject(err);
          }
        },
      );
    // Watching first, then looking: a file that appeared in between is found either way.
    void look();
  });
}

describe("the browser", () => {
  test("without --no-browser the system's opener gets the link that is also printed", async () => {
    // Stand-ins for the system's openers, earlier on PATH: they note the link they were given, in a
    // file that appears whole (renamed into place), since they run detached from the CLI.
    const bin = temporaryFolder("bin-", { inside: home });
    const noted = path.join(bin, "opened.txt");
    for (const opener of ["xdg-open", "open"]) {
      await writeFile(path.join(bin, opener), `#!/bin/sh\nprintf '%s' "$1" > '${noted}.part' && mv '${noted}.part' '${noted}'\n`, { mode: 0o755 });
    }
    const { env } = await freshUser({ PATH: `${bin}${path.delimiter}${process.env.PATH}` });
    const opened = fileWhenItAppears(noted);
    const cli = spawnReduck(["login"], env);
    const [, link] = await cli.stderrMatch(LINK);
    await cli.stderrMatch(/Waiting for you to sign in/);
    expect(await opened).toBe(link);
    await signInInBrowser(link!, "demo");
    expect((await cli.done).code).toBe(0);
  });

  test("an opener that cannot start is reported, and the printed link still works", async () => {
    // A PATH that holds node and nothing else, whatever is installed beside it on this machine
    // (Node in /usr/bin sits next to xdg-utils on a Debian system).
    const bin = temporaryFolder("bin-", { inside: home });
    await symlink(process.execPath, path.join(bin, "node"));
    const { env } = await freshUser({ PATH: bin });
    const cli = spawnReduck(["login"], env);
    const [, link] = await cli.stderrMatch(LINK);
    await cli.stderrMatch(/Could not open a browser \((xdg-open|open): ENOENT\): open the link above yourself/);
    await signInInBrowser(link!, "demo");
    expect((await cli.done).code).toBe(0);
  });
});

describe("a sign-in that goes wrong", () => {
  test("nothing comes back within --timeout: a clear message, exit 4, nothing stored", async () => {
    const { configDir, env } = await freshUser();
    const r = await runReduck(["login", "--no-browser", "--timeout", "1"], env);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain("Error: no sign-in came back from the browser within 1 second: run `reduck login` again");
    await expect(readStoredConfig(configDir)).rejects.toThrow(/ENOENT/);
  });

  test("declined on the consent page: the tab and the terminal both say so", async () => {
    const { env } = await freshUser();
    const r = await loginWithBrowser(env, { consent: false });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/the sign-in was declined in the browser \(access_denied/);
    expect(r.browser.page).toContain("Sign-in failed");
  });

  test("an answer without our state is turned away and the real one still signs in", async () => {
    const { env } = await freshUser();
    const cli = spawnReduck(["login", "--no-browser"], env);
    const [, link] = await cli.stderrMatch(LINK);
    const redirect = new URL(link!).searchParams.get("redirect_uri")!;
    const forged = await fetch(`${redirect}?code=stolen&state=not-ours`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain("This is not the sign-in the reduck command is waiting for");
    const elsewhere = await fetch(new URL("/other", redirect));
    expect(elsewhere.status).toBe(404);
    await signInInBrowser(link!, "demo");
    expect((await cli.done).code).toBe(0);
  });

  test("an API that offers no OAuth sign-in says to use an API key", async () => {
    const plain = await startHttpServer({ handlers: createHandlers(createStore()) });
    try {
      const { env } = await freshUser({ REDUCK_API_URL: plain.url });
      const r = await runReduck(["login", "--no-browser"], env);
      expect(r.code).toBe(4);
      expect(r.stderr).toContain(`${plain.url} names no authorization server to sign in with: sign in with an API key, \`reduck login --with-api-key\``);
    } finally {
      await plain.close();
    }
  });
});

describe("the client", () => {
  test("registered once per authorization server, then remembered", async () => {
    const { configDir, env } = await freshUser();
    const first = await loginWithBrowser(env);
    const clientId = (await readStoredConfig(configDir)).oauthClients[world.as.issuer].clientId;
    const second = await loginWithBrowser(env);
    expect(second.code).toBe(0);
    expect(new URL(first.link).searchParams.get("client_id")).toBe(clientId);
    expect(new URL(second.link).searchParams.get("client_id")).toBe(clientId);
  });

  test("--client-id (or REDUCK_OAUTH_CLIENT_ID) is used instead of registering", async () => {
    const metadata = await (await fetch(`${world.as.issuer}/.well-known/openid-configuration`)).json();
    const client_id = await registerNativeClient(metadata.registration_endpoint);
    const { configDir, env } = await freshUser({ REDUCK_OAUTH_CLIENT_ID: client_id });
    const r = await loginWithBrowser(env);
    expect(r.code, r.stderr).toBe(0);
    expect(new URL(r.link).searchParams.get("client_id")).toBe(client_id);
    const stored = await readStoredConfig(configDir);
    expect(stored.credentials[world.url].oauth.clientId).toBe(client_id);
    expect(stored.oauthClients).toBeUndefined(); // nothing was registered
  });
});

describe("URLs and precedence", () => {
  test("a run host the sign-in did not cover (REDUCK_MCP_URL set after login) asks for a new login", async () => {
    const { env } = await freshUser();
    expect((await loginWithBrowser(env)).code).toBe(0);
    const r = await runReduck(["run", "--script", "reduck/mail.google.com/send_email", "to=me@example.com", "subject=Hi"], {
      ...env,
      REDUCK_MCP_URL: `${world.url}/mcp`,
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`your sign-in does not cover ${world.url}/mcp: run \`reduck login\` again with the same --api-url and REDUCK_MCP_URL`);
  });

  test("login --api-url remembers the URL for later commands; whoami says so; logout forgets it", async () => {
    const { configDir, env } = await freshUser();
    const { REDUCK_API_URL: _, ...noUrl } = env;
    const login = await loginWithBrowser(noUrl, { args: ["--api-url", world.url] });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain(`Later commands use ${world.url} until you run \`reduck logout\` for it.`);
    expect((await readStoredConfig(configDir)).apiUrl).toBe(world.url);

    const whoami = await runReduck(["whoami"], noUrl);
    expect(whoami.code, whoami.stderr).toBe(0);
    expect(whoami.stdout).toMatch(new RegExp(`API:\\s+${world.url} \\(remembered by \`reduck login --api-url\`\\)`));
    expect(whoami.stdout).toMatch(new RegExp(`Run host:\\s+${world.url}\\n`));
    const json = JSON.parse((await runReduck(["whoami", "--json"], noUrl)).stdout);
    expect(json.credential).toMatchObject({
      kind: "oauth",
      account: "@demo",
      issuer: world.as.issuer,
      apiUrl: world.url,
      apiUrlSource: "login",
      runUrl: world.url,
    });

    const logout = await runReduck(["logout"], noUrl);
    expect(logout.stderr).toContain("Later commands use https://reduck.ai again");
    expect(await readStoredConfig(configDir).catch(() => ({}))).not.toHaveProperty("apiUrl");
  });

  test("REDUCK_API_KEY takes precedence: login says so, whoami names it", async () => {
    const { env } = await freshUser();
    const withKey = { ...env, REDUCK_API_KEY: world.store.demo.apiKey };
    const login = await loginWithBrowser(withKey);
    expect(login.code).toBe(0);
    expect(login.stderr).toContain("REDUCK_API_KEY is set, and it takes precedence over the sign-in stored here");
    const whoami = await runReduck(["whoami"], withKey);
    expect(whoami.stdout).toMatch(/Signed in with:\s+an API key from REDUCK_API_KEY \(it takes precedence over the sign-in stored for this URL\)/);
    const signedIn = await runReduck(["whoami"], env);
    expect(signedIn.stdout).toMatch(/Signed in with:\s+OAuth, as @demo/);
  });
});

test("commands refreshing at the same moment share the sign-in instead of spending one refresh token twice", async () => {
  // Refresh tokens rotate, and oidc-provider treats a spent one coming back as theft: it revokes
  // the whole grant. Without the lock, two commands refreshing together would sign the user out.
  const { configDir, env } = await freshUser();
  expect((await loginWithBrowser(env)).code).toBe(0);
  for (let round = 0; round < 2; round++) {
    const results = await Promise.all([1, 2, 3].map(() => runReduck(["scripts", "list", "reduck", "--json"], env)));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
  }
  expect((await runReduck(["whoami"], env)).code).toBe(0);
  expect((await readStoredConfig(configDir)).credentials[world.url].oauth.refreshToken).toEqual(expect.any(String));
});

test("logout when the authorization server cannot be reached: warned, and forgotten all the same", async () => {
  const { configDir, env } = await freshUser();
  const { refusedPort } = await import("../support/scripted-server.js");
  const issuer = `http://127.0.0.1:${await refusedPort()}`;
  const signIn = { issuer, clientId: "c", refreshToken: "r", tokens: {} };
  await writeFile(path.join(configDir, "config.json"), JSON.stringify({ credentials: { [world.url]: { oauth: signIn } } }), { mode: 0o600 });
  const r = await runReduck(["logout"], env);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(
    `Warning: reading the authorization server's metadata: could not connect to ${issuer} (ECONNREFUSED). It is forgotten here all the same.`,
  );
  await expect(readStoredConfig(configDir)).rejects.toThrow(/ENOENT/);
});
