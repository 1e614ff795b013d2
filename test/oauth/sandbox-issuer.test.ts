// `npm run sandbox -- --oauth-issuer URL`: the sandbox as its own process, trusting a real
// authorization server's JWT access tokens.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { parseSandboxArgs, spawnSandbox } from "@reduck-client/sandbox";
import { freePort } from "@reduck-client/sandbox/internal";
import { temporaryFolder } from "../support/files.js";
import { refusedPort } from "../support/scripted-server.js";
import { startAuthorizationServer } from "./authorization-server.js";

/**
 * A sandbox process on a port of its own, trusting a fresh authorization server's tokens for it,
 * ready once it has printed its key; `stop()` ends both.
 */
async function sandboxTrustingIssuer(args: string[] = []) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const as = await startAuthorizationServer({ resources: [origin, `${origin}/mcp`] });
  const sandbox = spawnSandbox(["--port", String(port), ...args, "--oauth-issuer", as.issuer]);
  const stop = async () => {
    sandbox.child.kill("SIGTERM");
    await sandbox.exited;
    await as.close();
  };
  try {
    await new Promise<void>((resolve, reject) => {
      sandbox.exited.then((code) => reject(new Error(`the sandbox exited (${code}): ${sandbox.output().stderr}`)));
      sandbox.child.stdout!.on("data", () => sandbox.output().stdout.includes("REDUCK_API_KEY=") && resolve());
    });
  } catch (error) {
    await stop();
    throw error;
  }
  /** A JWT for subject `demo`, for this sandbox. */
  const demoToken = () => as.sign({ sub: "demo", aud: origin, scope: "profile" });
  return { origin, as, sandbox, demoToken, stop };
}

describe("npm run sandbox -- --oauth-issuer URL", () => {
  test("reads the issuer's metadata and keys, then accepts the JWTs it signs for the sandbox", async () => {
    const { origin, as, sandbox, demoToken, stop } = await sandboxTrustingIssuer();
    try {
      const me = await fetch(`${origin}/api/me`, { headers: { authorization: `Bearer ${await demoToken()}` } });
      expect(me.status).toBe(200);
      expect((await me.json()).handle).toBe("@demo");
      const metadata = await (await fetch(`${origin}/.well-known/oauth-protected-resource`)).json();
      expect(metadata).toMatchObject({ resource: origin, authorization_servers: [as.issuer] });
      expect(sandbox.output().stderr).toContain(`accepting JWT access tokens from ${as.issuer} for ${origin} and ${origin}/mcp`);
    } finally {
      await stop();
    }
  });

  test("with --scripts holding an @user folder, the token for subject demo is still the demo account, renamed", async () => {
    const scripts = temporaryFolder("reduck-issuer-scripts-");
    const folder = path.join(scripts, "@alice", "shop.example", "get_total");
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, "script.js"), "return {};");
    writeFileSync(
      path.join(folder, "contract.json"),
      JSON.stringify({ description: "Totals", input_schema: { type: "object" }, output_schema: { type: "object" } }),
    );
    const { origin, sandbox, demoToken, stop } = await sandboxTrustingIssuer(["--browser", "simulated", "--scripts", scripts]);
    try {
      const me = await fetch(`${origin}/api/me`, { headers: { authorization: `Bearer ${await demoToken()}` } });
      expect(me.status).toBe(200);
      const apiKey = /^REDUCK_API_KEY=(.*)$/m.exec(sandbox.output().stdout)![1]!;
      const byKey = await (await fetch(`${origin}/api/me`, { headers: { "x-api-key": apiKey } })).json();
      expect(await me.json()).toEqual(byKey);
      expect(byKey.handle).toBe("@alice");
    } finally {
      await stop();
    }
  });

  test("an issuer that cannot be read stops it with a message", async () => {
    const nowhere = `http://127.0.0.1:${await refusedPort()}`;
    const sandbox = spawnSandbox(["--port", "0", "--oauth-issuer", nowhere]);
    expect(await sandbox.exited).toBe(1);
    expect(sandbox.output().stderr).toContain(`sandbox: cannot trust ${nowhere}:`);
  });

  test("an issuer that is not a URL is a usage error", () => {
    expect(() => parseSandboxArgs(["--oauth-issuer", "reduck"])).toThrow(
      '--oauth-issuer must be the authorization server\'s URL, e.g. http://127.0.0.1:4020 (got "reduck")',
    );
    expect(parseSandboxArgs(["--oauth-issuer", "http://127.0.0.1:4020"])).toMatchObject({ oauthIssuer: "http://127.0.0.1:4020" });
  });
});
