import { describe, expect, test } from "vitest";
import { inspect } from "node:util";
import { createReduckClient, getPing, PACKAGE_VERSION } from "../../src/index.js";
import { startScriptedServer } from "../support/scripted-server.js";
import { present } from "../support/present.js";

describe("the credential rule", () => {
  test("both credentials is an error that names the rule", () => {
    // @ts-expect-error both credentials are refused by the types too
    expect(() => createReduckClient({ apiKey: "a", oauthToken: "b" })).toThrow(/exactly one credential, apiKey or oauthToken: both were given/);
  });

  test("neither credential is an error that names the rule", () => {
    // @ts-expect-error a credential is required by the types too
    expect(() => createReduckClient({})).toThrow(/exactly one credential, apiKey or oauthToken: neither was given/);
  });

  test("an API key from an unset environment variable compiles under strict, and throws naming it at creation", () => {
    const fromEnv: string | undefined = undefined;
    expect(() => createReduckClient({ apiKey: fromEnv })).toThrow(/exactly one credential, apiKey or oauthToken: apiKey is undefined/);
    expect(createReduckClient({ apiKey: "k" as string | undefined }).credentialKind).toBe("apiKey");
  });

  test("an empty key is refused", () => {
    expect(() => createReduckClient({ apiKey: " " })).toThrow(/apiKey must be a non-empty string/);
  });

  test("a base URL that is not a URL is refused", () => {
    expect(() => createReduckClient({ apiKey: "k", baseUrl: "reduck.ai" })).toThrow(/baseUrl must be an absolute http\(s\) URL/);
  });

  test("the key never shows when a client is logged or serialised", () => {
    const client = createReduckClient({ apiKey: "rk_secret_value" });
    expect(inspect(client)).not.toContain("rk_secret_value");
    expect(JSON.stringify(client)).not.toContain("rk_secret_value");
    expect(inspect(client)).toContain("https://reduck.ai");
  });
});

describe("what goes on the wire", () => {
  test("an API key is sent as X-API-Key with our user agent", async () => {
    const server = await startScriptedServer([{ body: '{"message":"pong"}' }]);
    try {
      const client = createReduckClient({ apiKey: "rk_1", baseUrl: server.url, headers: { "X-Trace": "t1" } });
      const { data, error } = await getPing({ client });
      expect(error).toBeUndefined();
      expect(data).toEqual({ message: "pong" });
      const req = present(server.seen[0], "the request the server saw");
      expect(req.headers["x-api-key"]).toBe("rk_1");
      expect(req.headers.authorization).toBeUndefined();
      expect(req.headers["user-agent"]).toBe(`reduck-client/${PACKAGE_VERSION} node/${process.versions.node}`);
      expect(req.headers["x-trace"]).toBe("t1");
    } finally {
      await server.close();
    }
  });

  test("an OAuth token is sent as a bearer token", async () => {
    const server = await startScriptedServer([{ body: '{"message":"pong"}' }]);
    try {
      const client = createReduckClient({ oauthToken: "tok_1", baseUrl: server.url });
      await getPing({ client });
      const req = present(server.seen[0], "the request the server saw");
      expect(req.headers.authorization).toBe("Bearer tok_1");
      expect(req.headers["x-api-key"]).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  test("runs go to the API base URL when only that one is overridden", () => {
    expect(createReduckClient({ apiKey: "k" }).runBaseUrl).toBe("https://mcp.reduck.ai");
    expect(createReduckClient({ apiKey: "k", baseUrl: "http://127.0.0.1:9/" }).runBaseUrl).toBe("http://127.0.0.1:9");
    expect(createReduckClient({ apiKey: "k", baseUrl: "https://a.test", runBaseUrl: "https://b.test" }).runBaseUrl).toBe("https://b.test");
  });
});
