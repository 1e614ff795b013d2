// POST /run in-process (msw), continued from run.test.ts: several steps in one request, in parallel
// or sequential. Set-up and helpers in fixtures/run-fixture.ts.
import { describe, expect, it, vi } from "vitest";
import { validateResponse } from "../../contract/openapi.js";
import { RUN_URL, store, runJson, runMultipart, api, sha256, sendEmail, uploadDocument, runCount, PNG, useRunFixture } from "./fixtures/run-fixture.js";

useRunFixture();

describe("POST /run: several steps", () => {
  it("runs every step with its own files and answers in order", async () => {
    const bytes = new TextEncoder().encode("step one's file");
    const batch = await runMultipart(
      {
        browser: "extension",
        scripts: [
          { host: "example.com", slug: "get_title", args: { url: "https://example.com" } },
          sendEmail({ args: { to: "me@example.com", subject: "Second", attachmentName: "notes.txt" } }),
        ],
      },
      { "1:attachment": { bytes, type: "text/plain" } },
    );
    expect(batch.status).toBe(200);
    // The service's answer to `scripts`: an array of envelopes, one per script, in order.
    expect(batch.body).toEqual([
      { status: "completed", runId: expect.any(String), result: { title: "Example Domain" } },
      { status: "completed", runId: expect.any(String), result: expect.objectContaining({ subject: "Second", attachment: "notes.txt" }) },
    ]);
    expect(store.runs.get(batch.body[0].runId)!.files).toEqual([]);
    expect(store.runs.get(batch.body[1].runId)!.files).toEqual([expect.objectContaining({ input: "attachment", sha256: sha256(bytes), via: "bytes" })]);
  });

  it("runs every step even when one fails, without sequential", async () => {
    const batch = await runJson({
      browser: "extension",
      scripts: [sendEmail({ args: { to: "me@example.com" } }), { host: "example.com", slug: "nope" }, sendEmail()],
    });
    expect(batch.status).toBe(200);
    const invalidArgs = "Invalid arguments for reduck/mail.google.com/send_email: subject is required";
    expect(batch.body).toEqual([
      { status: "failed", runId: expect.any(String), error: invalidArgs, errorType: "invalid_input", externalMessage: invalidArgs },
      // Never recorded (no such script): no runId.
      {
        status: "failed",
        error: "No such script @demo/example.com/nope",
        errorType: "invalid_input",
        externalMessage: "No such script @demo/example.com/nope",
      },
      { status: "completed", runId: expect.any(String), result: expect.objectContaining({ sent: true }) },
    ]);
  });

  it("stops at the first failure with sequential, skipping (and not recording) the rest", async () => {
    const before = runCount();
    const batch = await runJson({
      browser: "extension",
      sequential: true,
      scripts: [sendEmail(), uploadDocument(), sendEmail()],
    });
    expect(batch.status).toBe(200);
    // One entry per script still: the never-run one is a failed envelope of kind not_run, without a runId.
    expect(batch.body).toEqual([
      { status: "completed", runId: expect.any(String), result: expect.objectContaining({ sent: true }) },
      {
        status: "failed",
        runId: expect.any(String),
        error: "missing file input document",
        errorType: "invalid_input",
        externalMessage: "missing file input document",
      },
      {
        status: "failed",
        error: "not run: script 1 of this sequential chain failed, and a chain stops at its first failure",
        errorType: "not_run",
        externalMessage: "reduck/mail.google.com/send_email did not run, because reduck/docusign.com/upload_document before it failed.",
      },
    ]);
    expect(runCount()).toBe(before + 2);
  });

  it("shares one page between sequential steps", async () => {
    store.addScript({ handle: "@demo", host: "example.org", slug: "where", language: "javascript", content: "return { url: page.url() };" });
    const batch = await runJson({
      browser: "extension",
      sequential: true,
      scripts: [
        { host: "example.com", slug: "get_title", args: { url: "https://example.com/a" } },
        { host: "example.org", slug: "where" },
      ],
    });
    expect(batch.body[1].result).toEqual({ url: "https://example.com/a" });
    const parallel = await runJson({
      browser: "extension",
      scripts: [
        { host: "example.com", slug: "get_title", args: { url: "https://example.com/a" } },
        { host: "example.org", slug: "where" },
      ],
    });
    expect(parallel.body[1].result).toEqual({ url: "about:blank" });
  });

  it("still fails the whole request on a request-level problem", async () => {
    const refused = await runMultipart(
      { browser: "extension", scripts: [sendEmail(), sendEmail()] },
      { "0:attachment": { bytes: PNG }, "x:attachment": { bytes: PNG } },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.runId).toBeUndefined();
    // Both steps had started (recorded) when the bad part came: both fail with its message.
    const failed = store
      .runsOf(store.demo.userId)
      .filter((r) => r.status === "error" && r.source === "rest" && r.result && "error" in r.result && r.result.error === refused.body.error);
    expect(failed).toHaveLength(2);
  });
});

describe("POST /run: what is recorded", () => {
  it("records every run with status, args, result or error, browser, version and source", async () => {
    const ok = await runMultipart({ browser: "extension", script: sendEmail() }, { "0:attachment": { bytes: PNG } }, { headers: { "x-reduck-source": "cli" } });
    const failed = await runJson({ script: uploadDocument() }, { headers: { "x-reduck-source": "mcp" } });
    const rest = await runJson({ browser: "extension", script: sendEmail() });
    const listed = await api("/api/runs?pageSize=3");
    expect(listed.body.data.map((r: { id: string }) => r.id)).toEqual([rest.body.runId, failed.body.runId, ok.body.runId]);

    const sendEmailVersion = store.findScriptByAddress("reduck", "mail.google.com", "send_email")!.currentVersionId;
    expect((await api(`/api/runs/${ok.body.runId}`)).body).toMatchObject({
      status: "success",
      args: { to: "me@example.com", subject: "Our new banner" },
      result: { result: { sent: true, attachment: "attachment" } },
      browser: { type: "extension" },
      source: "cli",
      finished_at: expect.any(String),
      script: { handle: "reduck", host: "mail.google.com", slug: "send_email", version_id: sendEmailVersion, version_number: "1" },
    });
    expect((await api(`/api/runs/${failed.body.runId}`)).body).toMatchObject({
      status: "error",
      result: { error: "missing file input document" },
      browser: { type: "managed", region: "eu-central-1", country: "" },
      source: "mcp",
    });
    expect((await api(`/api/runs/${rest.body.runId}`)).body.source).toBe("rest");
    const trace = await api(`/api/runs/${ok.body.runId}/trace`);
    expect(trace.body.steps).toContainEqual(
      expect.objectContaining({ action: 'uploadFile div[role="dialog"] input[type="file"][name="Filedata"] ← attachment', ok: true }),
    );
  });

  it("marks the run `upload interrupted` when the upload breaks after the spec, recording exactly one run", async () => {
    const before = runCount();
    const boundary = "----reduck-test-boundary";
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="spec"\r\nContent-Type: application/json\r\n\r\n` +
      JSON.stringify({ browser: "extension", script: sendEmail() }) +
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="0:attachment"; filename="attachment"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(head));
        controller.enqueue(new Uint8Array(1024));
        setTimeout(() => controller.error(new Error("cable unplugged")), 20);
      },
    });
    await fetch(RUN_URL, {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}`, "x-api-key": store.demo.apiKey },
      body,
      duplex: "half",
    } as RequestInit).then(
      (r) => r.text(),
      () => undefined,
    );
    await vi.waitFor(() => expect(runCount()).toBe(before + 1));
    const run = store.runsOf(store.demo.userId).find((r) => r.status !== "success" && r.script?.slug === "send_email" && r.source === "rest")!;
    await vi.waitFor(() => expect(run.status).toBe("error"));
    expect(run.result).toEqual({ error: "upload interrupted" });
  });
});

describe("POST /run: response self-check", () => {
  it("holds runScript answers to openapi.json", () => {
    const runId = "00000000-0000-4000-8000-000000000001";
    expect(validateResponse("runScript", 200, { result: { sent: true }, runId })).toBeNull();
    expect(
      validateResponse("runScript", 200, [
        { status: "failed", error: "not run", errorType: "not_run" },
        { status: "completed", runId, result: null },
      ]),
    ).toBeNull();
    expect(
      validateResponse("runScript", 202, { batchId: runId, status: "running", runs: [{ status: "running", runId, retryAfterMs: 1000 }], retryAfterMs: 1000 }),
    ).toBeNull();
    expect(validateResponse("runScript", 202, { status: "running", runId, retryAfterMs: 1000 })).toBeNull();
    expect(validateResponse("runScript", 200, { runId })).toBeNull(); // a run that ended with no outcome
    expect(validateResponse("runScript", 422, { error: "Error: boom", runId })).toBeNull();
    expect(validateResponse("runScript", 200, { result: {}, runId: "not-a-uuid" })).toMatch(/^runScript 200: /);
    expect(validateResponse("runScript", 200, [{ status: "skipped", runId: null }])).toMatch(/^runScript 200: /);
    expect(validateResponse("runScript", 202, { batchId: runId, status: "partial", runs: [] })).toMatch(/^runScript 202: /);
    expect(validateResponse("runScript", 500, { error: "x" })).toBe("runScript does not declare status 500");
  });
});
