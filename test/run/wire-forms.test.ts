/**
 * Every documented form of POST /run goes out as one list, `scripts: [...]`, as the service's
 * own client sends every run: JSON with no files, with a named file (`relativePath`) and with an
 * inline one (`b64`), and multipart with a file's bytes in the part `0:<input>` beside the `spec`.
 * Each form is answered at the sandbox in run-script.test.ts; here, the bytes that leave.
 */
import { describe, expect, test } from "vitest";
import { createReduckClient, runScript, type ScriptToRun } from "../../src/index.js";
import { startScriptedServer } from "../support/scripted-server.js";

const RUN_ID = "00000000-0000-4000-8001-000000000001";
const SEND = { handle: "reduck", host: "mail.google.com", slug: "send_email", args: { to: "me@example.com", subject: "Hi" } };

describe("one script on the wire", () => {
  test.each([
    ["JSON, no files", SEND],
    ["JSON, a named file", { ...SEND, files: { attachment: { relativePath: "2026/banner.png" } } }],
    ["JSON, an inline file", { ...SEND, files: { attachment: { b64: "aGk=", mime: "text/plain" } } }],
  ] as Array<[string, ScriptToRun]>)("%s: { scripts: [script] }", async (_, script) => {
    const scripted = await startScriptedServer([{ body: JSON.stringify([{ status: "completed", runId: RUN_ID, result: 1 }]) }]);
    try {
      const client = createReduckClient({ apiKey: "k", baseUrl: scripted.url });
      const { data, error } = await runScript({ client, browser: "extension", script });
      expect(error).toBeUndefined();
      expect(data).toEqual({ result: 1, runId: RUN_ID });
      expect(scripted.seen[0]!.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(scripted.seen[0]!.body)).toEqual({ browser: "extension", scripts: [script] });
    } finally {
      await scripted.close();
    }
  });

  test("multipart, a file's bytes: the spec { scripts: [script] } and the part 0:<input>", async () => {
    const scripted = await startScriptedServer([{ body: JSON.stringify([{ status: "completed", runId: RUN_ID, result: 1 }]) }]);
    try {
      const client = createReduckClient({ apiKey: "k", baseUrl: scripted.url });
      const { error } = await runScript({ client, script: { ...SEND, files: { attachment: Buffer.from("png bytes") } } });
      expect(error).toBeUndefined();
      const { headers, body } = scripted.seen[0]!;
      expect(headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
      const spec = /name="spec"[^\r]*\r\n(?:[^\r]+\r\n)*\r\n([^\r]*)\r\n/.exec(body)?.[1];
      expect(JSON.parse(spec!)).toEqual({ scripts: [SEND] });
      expect(body).toMatch(/name="0:attachment"; filename="attachment"/);
      expect(body).toContain("png bytes");
    } finally {
      await scripted.close();
    }
  });
});
