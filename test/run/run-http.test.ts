/** runScript over real loopback HTTP: the sandbox's HTTP server, and scripted servers (50 MB sent whole: run-http-50mb.slow.test.ts). */
import { describe, expect, test } from "vitest";
import { createReduckClient, runScript, MAX_FILE_BYTES } from "../../src/index.js";
import { startScriptedServer } from "../support/scripted-server.js";
import { waitFor } from "../support/wait.js";
import { uploadDocument, useUploadSandbox } from "./upload-sandbox.js";

const { sandbox, bigFile, sendDocument } = useUploadSandbox();

describe("the 50 MB limit", () => {
  test("one byte more is refused before sending", async () => {
    const file = await bigFile("over.bin", MAX_FILE_BYTES + 1);
    const before = sandbox.store.runs.size;
    const { error } = await sendDocument(file);
    expect(error?.kind).toBe("invalid_request");
    expect(error?.error).toBe(`file input document: ${file} is 52,428,801 bytes, over the 50 MiB limit per file (52,428,800 bytes)`);
    expect(sandbox.store.runs.size).toBe(before);
  });
});

test("a run cut off mid-upload is recorded exactly once, as failed", async () => {
  const file = await bigFile("cut.bin", 20 * 2 ** 20);
  const before = new Set(sandbox.store.runs.keys());
  const controller = new AbortController();
  const { error } = await sendDocument(file, {
    signal: controller.signal,
    onUploadProgress: ({ sent }) => {
      if (sent > 4 * 2 ** 20) controller.abort();
    },
  });
  expect(error?.kind).toBe("aborted");
  // The server notices the broken upload a moment later.
  const added = await waitFor("the server to record the broken upload's run as an error", () => {
    const ids = [...sandbox.store.runs.keys()].filter((id) => !before.has(id));
    return ids.length > 0 && sandbox.store.runs.get(ids[0]!)!.status === "error" && ids;
  });
  expect(added).toHaveLength(1);
  expect(sandbox.store.runs.get(added[0]!)).toMatchObject({ status: "error" });
});

describe("a run is never sent twice", () => {
  test("a 502 is not retried", async () => {
    const scripted = await startScriptedServer([{ status: 502, body: '{"error":"upstream went away"}' }]);
    try {
      const c = createReduckClient({ apiKey: "k", baseUrl: scripted.url });
      const { error } = await runScript({ client: c, script: { ...uploadDocument, files: { document: Buffer.from("x") } } });
      expect(error).toMatchObject({ status: 502, error: "upstream went away" });
      expect(scripted.seen).toHaveLength(1);
      expect(scripted.seen[0]!.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    } finally {
      await scripted.close();
    }
  });

  test("the catalogue timeout does not cut a long run short", async () => {
    const scripted = await startScriptedServer([{ delayMs: 1_200, body: '{"result":{"ok":true},"runId":"00000000-0000-4000-8001-000000000001"}' }]);
    try {
      const c = createReduckClient({ apiKey: "k", baseUrl: scripted.url, timeoutMs: 200 });
      const { data, error } = await runScript({ client: c, script: { host: "a.com", slug: "slow" } });
      expect(error).toBeUndefined();
      expect(data).toEqual({ result: { ok: true }, runId: "00000000-0000-4000-8001-000000000001" });
      expect(JSON.parse(scripted.seen[0]!.body)).toEqual({ scripts: [{ host: "a.com", slug: "slow" }] });
    } finally {
      await scripted.close();
    }
  });
});
