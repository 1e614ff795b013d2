// When OAuthSession refreshes, and when it must not.
import { describe, expect, test } from "vitest";
import { OAuthSession, type SignInStore } from "../../src/auth/session.js";
import type { OAuthSignIn } from "../../src/auth/types.js";
import { refusedPort } from "../support/scripted-server.js";
import { registerNativeClient, startOAuthWorld } from "../oauth/harness.js";

function memoryStore(signIn: OAuthSignIn | undefined): SignInStore & { saved: number } {
  const store = {
    saved: 0,
    read: async () => (signIn ? structuredClone(signIn) : undefined),
    exclusive: <T>(work: () => Promise<T>) => work(),
    save: async (s: OAuthSignIn) => {
      signIn = structuredClone(s);
      store.saved++;
    },
  };
  return store;
}

const NOW = Date.parse("2026-01-01T12:00:00Z");
const at = (ms: number) => new Date(NOW + ms).toISOString();

/** A login whose API token expires `ms` after NOW; its issuer is a port nobody listens on, so any refresh attempt fails. */
async function signedInUntil(ms: number) {
  const issuer = `http://127.0.0.1:${await refusedPort()}`;
  const store = memoryStore({
    issuer,
    clientId: "c",
    refreshToken: "r",
    tokens: { "https://api": { resource: "https://api", accessToken: "at_1", expiresAt: at(ms) } },
  });
  return { issuer, store };
}

describe("OAuthSession", () => {
  test("a token valid for more than a minute is used as it is: no request at all", async () => {
    const { store } = await signedInUntil(61_000);
    expect(await new OAuthSession(store, () => NOW).accessToken("https://api")).toBe("at_1");
    expect(store.saved).toBe(0);
  });

  test("a token within a minute of expiring is refreshed; an unreachable server is said so, with its code", async () => {
    const { issuer, store } = await signedInUntil(59_000);
    const error = await new OAuthSession(store, () => NOW).accessToken("https://api").catch((e) => e);
    expect(error).toMatchObject({ reason: "unreachable", code: "ECONNREFUSED" });
    expect(error.message).toContain(`could not connect to ${issuer} (ECONNREFUSED)`);
  });

  test("signed out, or no refresh token: run reduck login", async () => {
    await expect(new OAuthSession(memoryStore(undefined)).accessToken("https://api")).rejects.toThrow("you are signed out: run `reduck login`");
    const noRefresh = memoryStore({
      issuer: "https://as",
      clientId: "c",
      tokens: { "https://api": { resource: "https://api", accessToken: "a", expiresAt: at(0) } },
    });
    await expect(new OAuthSession(noRefresh, () => NOW).accessToken("https://api")).rejects.toThrow("your sign-in has expired: run `reduck login`");
  });

  test("a base URL without a token yet is asked for its resource; a refresh token the server refuses is an expired sign-in", async () => {
    const world = await startOAuthWorld();
    try {
      const client_id = await registerNativeClient(`${world.as.issuer}/reg`);
      const store = memoryStore({ issuer: world.as.issuer, clientId: client_id, refreshToken: "not-a-real-one", tokens: {} });
      const error = await new OAuthSession(store).accessToken(`${world.url}/mcp`).catch((e) => e);
      expect(error).toMatchObject({ reason: "expired", message: "your sign-in has expired: run `reduck login`" });
    } finally {
      await world.close();
    }
  });
});
