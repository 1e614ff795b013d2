// `oauthToken` as a function: asked before each request, told which resource the request goes to,
// and its failures are error values, never exceptions and never a request sent without a token.
import { describe, expect, test } from "vitest";
import { createReduckClient, getPing, runScript } from "../../src/index.js";
import { startScriptedServer } from "../support/scripted-server.js";

const RUN_OK = '{"result":{"ok":true},"runId":"86b0479f-a68f-4fcd-92d1-b68f485ee3d9"}';
const script = { handle: "reduck", host: "example.com", slug: "noop" };

describe("oauthToken as a function", () => {
  test("is called before each request, catalogue calls and runs, with the resource each goes to", async () => {
    const api = await startScriptedServer([{ body: '{"message":"pong"}' }]);
    const runs = await startScriptedServer([{ body: RUN_OK }]);
    try {
      const asked: string[] = [];
      let n = 0;
      const client = createReduckClient({
        baseUrl: api.url,
        runBaseUrl: runs.url,
        oauthToken: async ({ resource }) => {
          asked.push(resource);
          return `tok_${++n}`;
        },
      });
      expect((await getPing({ client })).error).toBeUndefined();
      expect((await getPing({ client })).error).toBeUndefined();
      expect((await runScript({ client, script })).error).toBeUndefined();
      expect(asked).toEqual([api.url, api.url, runs.url]);
      expect(api.seen.map((r) => r.headers.authorization)).toEqual(["Bearer tok_1", "Bearer tok_2"]);
      expect(runs.seen[0]!.headers.authorization).toBe("Bearer tok_3");
    } finally {
      await api.close();
      await runs.close();
    }
  });

  test("a plain synchronous function works too", async () => {
    const api = await startScriptedServer([{ body: '{"message":"pong"}' }]);
    try {
      const client = createReduckClient({ baseUrl: api.url, oauthToken: () => "tok_sync" });
      expect((await getPing({ client })).error).toBeUndefined();
      expect(api.seen[0]!.headers.authorization).toBe("Bearer tok_sync");
    } finally {
      await api.close();
    }
  });

  test("a function that throws gives a credential error and sends nothing", async () => {
    const api = await startScriptedServer([{ body: '{"message":"pong"}' }]);
    try {
      const failing = () => {
        throw Object.assign(new Error("your sign-in has expired"), { code: undefined });
      };
      const client = createReduckClient({ baseUrl: api.url, runBaseUrl: api.url, oauthToken: failing });
      const ping = await getPing({ client });
      expect(ping.error).toMatchObject({ kind: "credential", error: "your sign-in has expired" });
      const run = await runScript({ client, script });
      expect(run.error).toMatchObject({ kind: "credential", error: "your sign-in has expired" });
      expect(api.seen).toHaveLength(0);
    } finally {
      await api.close();
    }
  });

  test("a rejected promise keeps its system code as the cause", async () => {
    const client = createReduckClient({
      oauthToken: () => Promise.reject(Object.assign(new Error("could not reach the sign-in server"), { code: "ECONNREFUSED" })),
    });
    const { error } = await getPing({ client });
    expect(error).toMatchObject({ kind: "credential", cause: "ECONNREFUSED", error: "could not reach the sign-in server" });
  });

  test("a function that gives no token is a credential error", async () => {
    const client = createReduckClient({ oauthToken: (() => "") as () => string });
    expect((await getPing({ client })).error).toMatchObject({ kind: "credential", error: expect.stringMatching(/empty string instead of an access token/) });
    const undef = createReduckClient({ oauthToken: (() => undefined) as unknown as () => string });
    expect((await getPing({ client: undef })).error).toMatchObject({ kind: "credential", error: expect.stringMatching(/gave undefined/) });
  });

  test("the exactly-one-credential rule still holds", () => {
    // @ts-expect-error both credentials are refused by the types too
    expect(() => createReduckClient({ apiKey: "k", oauthToken: () => "t" })).toThrow(/exactly one credential/);
    expect(() => createReduckClient({ oauthToken: 42 as unknown as string })).toThrow(/oauthToken must be a non-empty string or a function giving one/);
  });
});
