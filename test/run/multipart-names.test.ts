/**
 * Input names and file names that are not ASCII, or hold a colon, arrive as they were written:
 * runScript sends part headers as UTF-8, and the sandbox parses them as UTF-8.
 */
import { expect, test } from "vitest";
import { createReduckClient, runScript } from "../../src/index.js";
import { readMultipartBody, type ReceivedPart } from "@reduck-client/sandbox/internal";
import { startScriptedServer } from "../support/scripted-server.js";

test("pièce-jointe, a Japanese name and a name with a colon survive the trip", async () => {
  const server = await startScriptedServer([{ body: '{"result":{},"runId":"00000000-0000-4000-8001-0000000000a0"}' }]);
  try {
    const client = createReduckClient({ apiKey: "k", baseUrl: server.url });
    const files = { "pièce-jointe": Buffer.from("a"), 添付ファイル: Buffer.from("bb"), "scan:front": Buffer.from("ccc") };
    const { error } = await runScript({ client, script: { host: "a.com", slug: "s", files } });
    expect(error).toBeUndefined();

    const sent = server.seen[0]!;
    expect(sent.body).toContain('name="0:scan:front"; filename="scan:front"');
    const parts: ReceivedPart[] = [];
    let spec = "";
    const request = new Request("http://sandbox/run", { method: "POST", body: sent.body, headers: { "content-type": sent.headers["content-type"]! } });
    await readMultipartBody(request, sent.headers["content-type"]!, {
      onSpec: (text) => (spec = text),
      onPartStart: () => undefined,
      onPart: (p) => parts.push(p),
    });

    expect(JSON.parse(spec)).toEqual({ scripts: [{ host: "a.com", slug: "s" }] });
    expect(parts.map(({ input, filename, size }) => ({ input, filename, size }))).toEqual([
      { input: "pièce-jointe", filename: "pièce-jointe", size: 1 },
      { input: "添付ファイル", filename: "添付ファイル", size: 2 },
      { input: "scan:front", filename: "scan:front", size: 3 },
    ]);
  } finally {
    await server.close();
  }
});
