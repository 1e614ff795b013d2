/**
 * One redirect rule whoever sends: the caller's own fetch is asked for `redirect: "manual"` and
 * the client follows by its rule, as it does over node:http. A redirect to another origin never
 * carries X-API-Key or Authorization; a run is never sent a second time. Two real loopback
 * servers: the API and a second origin that records what reaches it.
 */
import { describe, expect, test } from "vitest";
import { createReduckClient, getMe, runScript, type ReduckClientOptions } from "../../src/index.js";
import { scriptedServer } from "../support/scripted-server.js";

/** A fetch of the caller's own (Node's, as a user would pass it) that records the options it was given. */
function recordingFetch() {
  const inits: RequestInit[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    inits.push(init ?? {});
    return globalThis.fetch(input, init);
  };
  return { fetch, inits };
}

const credentials: Array<[string, Pick<ReduckClientOptions, "apiKey" | "oauthToken">]> = [
  ["an API key", { apiKey: "rk_key_that_stays_home" }],
  ["an OAuth token", { oauthToken: "token_that_stays_home" }],
];

describe.each(credentials)("with the caller's fetch and %s", (_label, credential) => {
  test("a redirect to another origin is followed without the credential", async () => {
    const other = await scriptedServer({ body: '{"handle":"@elsewhere"}' });
    const api = await scriptedServer({ status: 302, headers: { location: `${other.url}/api/me` } });
    const { fetch, inits } = recordingFetch();
    const client = createReduckClient({ ...credential, baseUrl: api.url, fetch } as ReduckClientOptions);
    const { data, error, response } = await getMe({ client });
    expect(error).toBeUndefined();
    expect(data).toEqual({ handle: "@elsewhere" });
    expect(response?.url).toBe(`${other.url}/api/me`);
    expect(api.seen[0]!.headers["x-api-key"] ?? api.seen[0]!.headers.authorization).toBeDefined();
    expect(other.seen).toHaveLength(1);
    expect(other.seen[0]!.headers["x-api-key"]).toBeUndefined();
    expect(other.seen[0]!.headers.authorization).toBeUndefined();
    expect(inits.map((i) => i.redirect)).toEqual(["manual", "manual"]);
  });

  test("a redirect on the same origin keeps the credential", async () => {
    const api = await scriptedServer({ status: 307, headers: { location: "/api/me-too" } }, { body: '{"handle":"@ann"}' });
    const client = createReduckClient({ ...credential, baseUrl: api.url, ...recordingFetch() } as ReduckClientOptions);
    expect((await getMe({ client })).data).toEqual({ handle: "@ann" });
    expect(api.seen.map((s) => s.url)).toEqual(["/api/me", "/api/me-too"]);
    expect(api.seen[1]!.headers["x-api-key"] ?? api.seen[1]!.headers.authorization).toBeDefined();
  });
});

const senders = [
  ["the caller's fetch", () => recordingFetch().fetch],
  ["node:http", () => undefined],
] as const;

describe.each(senders)("POST /run over %s", (_label, fetchOf) => {
  test.each([307, 308])("a %i is not followed: the run (its key and body) reaches only the address it was sent to", async (status) => {
    const other = await scriptedServer({ body: '{"result":{"ok":true},"runId":"00000000-0000-4000-8001-0000000000b0"}' });
    const api = await scriptedServer({ status, headers: { location: `${other.url}/run` }, body: "" });
    const client = createReduckClient({ apiKey: "rk_key_that_stays_home", baseUrl: api.url, fetch: fetchOf() });
    const { data, error } = await runScript({ client, script: { host: "a.com", slug: "s", files: { a: Buffer.from("the body, once") } } });
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ kind: "http", status });
    expect(error?.error).toContain(`it points to ${other.url}/run: set runBaseUrl to that address`);
    expect(api.seen).toHaveLength(1);
    expect(api.seen[0]!.body).toContain("the body, once");
    expect(other.seen).toEqual([]);
  });
});
