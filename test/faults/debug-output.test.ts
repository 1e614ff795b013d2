/**
 * `DEBUG=*` turns on oclif's debug lines, which print the whole command line. No API key (from
 * --api-key in either form, or REDUCK_API_KEY), no OAuth token and no `flock secrets set` value
 * appears in anything the built CLI prints under it.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runCli } from "../support/cli.js";
import { temporaryFolder } from "../support/files.js";
import { startFaultServer, type FaultServer } from "./fault-server.js";

const KEY = "rk_debug_4f8a9c2e71d05b36";
const ME = { id: "u1", name: "Ann", email: "ann@example.com", handle: "@ann", role: null, projects: [], usage: null };
const servers: FaultServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function service(): Promise<FaultServer> {
  const server = await startFaultServer({ "GET /api/me": { json: ME } });
  servers.push(server);
  return server;
}

/** The CLI under DEBUG=*, all it printed on both streams. */
async function debugRun(args: string[], env: Record<string, string>, cwd?: string) {
  const result = await runCli(args, { env: { DEBUG: "*", REDUCK_CONFIG_DIR: temporaryFolder("reduck-debug-config-"), ...env }, cwd });
  const output = result.stdout + result.stderr;
  // The debug lines are there: the test would prove nothing without them.
  expect(output).toContain("oclif:");
  return { ...result, output };
}

describe("under DEBUG=*", () => {
  test.each([
    ["--api-key VALUE", ["whoami", "--api-key", KEY]],
    ["--api-key=VALUE", ["whoami", `--api-key=${KEY}`]],
  ])("an API key given as %s is not printed", async (_, args) => {
    const server = await service();
    const { code, output } = await debugRun(args, { REDUCK_API_URL: server.url });
    expect(code).toBe(0);
    expect(output).toContain("Ann <ann@example.com>");
    expect(output).not.toContain(KEY);
    expect(output).not.toContain("4f8a9c2e71d05b36");
    expect(output).toContain("[redacted]");
  });

  test("nor one from REDUCK_API_KEY", async () => {
    const server = await service();
    const { code, output } = await debugRun(["whoami"], { REDUCK_API_URL: server.url, REDUCK_API_KEY: KEY });
    expect(code).toBe(0);
    expect(output).not.toContain("4f8a9c2e71d05b36");
  });

  test.each(["flock secrets set", "flock secrets:set"])("nor the values given to `%s`", async (command) => {
    const words = command.split(" ");
    const server = await service();
    // No app here: the command stops before sending anything, after oclif has printed its argv.
    const { output } = await debugRun(
      [...words, "STRIPE_KEY=sk_live_value_9d1c7e", "PIN=Zq7", "--api-key", KEY],
      { REDUCK_API_URL: server.url },
      temporaryFolder("reduck-debug-app-"),
    );
    for (const secret of ["sk_live_value_9d1c7e", "Zq7", "4f8a9c2e71d05b36"]) expect(output).not.toContain(secret);
    expect(output).toContain("STRIPE_KEY=[redacted]");
  });

  test("nor a stored OAuth sign-in's tokens", async () => {
    const server = await service();
    const config = temporaryFolder("reduck-debug-config-");
    const accessToken = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbm4ifQ.c2lnbmF0dXJlLWRlYnVn";
    const refreshToken = "refresh-debug-7c0e55a1b2";
    const signIn = {
      issuer: `${server.url}/`,
      clientId: "cli",
      refreshToken,
      account: "@ann",
      tokens: { [server.url]: { resource: server.url, accessToken, expiresAt: new Date(Date.now() + 3_600_000).toISOString() } },
    };
    writeFileSync(path.join(config, "config.json"), JSON.stringify({ credentials: { [server.url]: { oauth: signIn } } }), { mode: 0o600 });
    const { code, output } = await debugRun(["whoami", "--verbose"], { REDUCK_API_URL: server.url, REDUCK_CONFIG_DIR: config });
    expect(code).toBe(0);
    expect(output).toContain("OAuth, as @ann");
    expect(output).not.toContain(accessToken);
    expect(output).not.toContain("c2lnbmF0dXJlLWRlYnVn");
    expect(output).not.toContain(refreshToken);
  });
});
