/**
 * A caller's own fetch gets only standard RequestInit options: no undici dispatcher, which
 * another fetch (undici 8's, a browser-like polyfill) refuses or misreads.
 */
import { expect, test } from "vitest";
import { createReduckClient, getMe, runScript } from "../../src/index.js";
import { startScriptedServer } from "../support/scripted-server.js";

const STANDARD = new Set([
  "method",
  "headers",
  "body",
  "signal",
  "redirect",
  "duplex",
  "mode",
  "credentials",
  "cache",
  "referrer",
  "referrerPolicy",
  "integrity",
  "keepalive",
  "priority",
  "window",
]);

test.each([
  ["a JSON run", { host: "a.com", slug: "s" }],
  ["a multipart run", { host: "a.com", slug: "s", files: { a: Buffer.from("bytes") } }],
])("%s through the caller's fetch carries no foreign option", async (_label, script) => {
  const server = await startScriptedServer([{ body: '{"result":{"ok":true},"runId":"00000000-0000-4000-8001-0000000000a0","handle":"@me"}' }]);
  try {
    const seen: string[][] = [];
    const fetch: typeof globalThis.fetch = (input, init) => {
      seen.push(Object.keys(init ?? {}));
      return globalThis.fetch(input, init);
    };
    const client = createReduckClient({ apiKey: "k", baseUrl: server.url, fetch });
    const { data, error } = await runScript({ client, script });
    expect(error).toBeUndefined();
    expect(data).toMatchObject({ runId: "00000000-0000-4000-8001-0000000000a0" });
    expect((await getMe({ client })).error).toBeUndefined();
    expect(seen).toHaveLength(2);
    for (const keys of seen) expect(keys.filter((k) => !STANDARD.has(k))).toEqual([]);
  } finally {
    await server.close();
  }
});
