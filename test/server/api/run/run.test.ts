// POST /run in-process (msw): plain fetch with JSON or FormData, no client library, so these tests
// hold the server to the spec and openapi.json on their own. Set-up and helpers in fixtures/run-fixture.ts.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_JSON_BODY_BYTES } from "../../contract/service-rules.js";
import { SEED_IDS } from "../../index.js";
import {
  RUN_URL,
  store,
  type Answer,
  answer,
  runJson,
  runMultipart,
  sha256,
  sendEmail,
  uploadDocument,
  putOnDesktop,
  runCount,
  PNG,
  useRunFixture,
} from "./fixtures/run-fixture.js";

useRunFixture();

describe("POST /run: authentication", () => {
  it("refuses a request without a credential, or with an unknown key", async () => {
    expect(await runJson({ script: sendEmail() }, { key: null })).toMatchObject({ status: 401, body: { error: expect.stringMatching(/^Not authenticated/) } });
    expect((await runJson({ script: sendEmail() }, { key: "rk_nope" })).status).toBe(401);
  });

  it("accepts bearer tokens for either the API or the run (MCP) host, with run:write", async () => {
    expect((await runJson({ script: sendEmail() }, { token: store.demo.oauthToken })).status).toBe(200);
    expect((await runJson({ script: sendEmail() }, { token: store.demo.mcpToken })).status).toBe(200);
    const readOnly = await runJson({ script: sendEmail() }, { token: store.demo.readOnlyToken });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error).toContain('"run:write"');
  });

  it("serves /run at any origin", async () => {
    const response = await fetch("http://localhost:4010/run", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": store.demo.apiKey },
      body: JSON.stringify({ script: sendEmail() }),
    });
    expect(response.status).toBe(200);
  });
});

describe("POST /run: request checks (400, nothing recorded)", () => {
  let before: number;
  beforeEach(() => (before = runCount()));
  afterEach(() => expect(runCount()).toBe(before));

  it("refuses a body that is neither JSON nor multipart", async () => {
    const response = await fetch(RUN_URL, { method: "POST", headers: { "content-type": "text/plain", "x-api-key": store.demo.apiKey }, body: "hi" });
    const refused = await answer(response);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^Unsupported content type "text\/plain": send application\/json/);
  });

  it("refuses JSON that does not parse, and an empty body", async () => {
    expect(await runJson("{not json")).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^The run request is not valid JSON/) } });
    expect(await runJson("")).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^The run request is empty/) } });
  });

  it("checks the request against RunRequest, field by field", async () => {
    const refused = await runJson({ script: { host: "mail.google.com", slug: "Send Email" }, colour: "blue" });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^Invalid run request: /);
    expect(refused.body.variables).toMatchObject({ "script.slug": [expect.stringContaining("pattern")], body: ["must NOT have additional properties"] });
    const badFile = await runJson({ script: sendEmail({ files: { attachment: { path: "/etc/passwd" } } }) });
    expect(badFile.status).toBe(400);
    expect(await runJson({ browser: "firefox", script: sendEmail() })).toMatchObject({ status: 400, body: { variables: { browser: expect.any(Array) } } });
  });

  it("wants exactly one of script and scripts", async () => {
    const message = "Give exactly one of script (one run) or scripts (several steps)";
    expect(await runJson({ script: sendEmail(), scripts: [sendEmail()] })).toEqual({ status: 400, body: { error: message } });
    expect(await runJson({ browser: "extension" })).toEqual({ status: 400, body: { error: message } });
  });

  it("refuses a bad X-Reduck-Source", async () => {
    const refused = await runJson({ script: sendEmail() }, { headers: { "x-reduck-source": "carrier-pigeon" } });
    expect(refused.status).toBe(400);
    expect(refused.body.variables).toEqual({ "X-Reduck-Source": ['must be one of "cli", "mcp", "rest"'] });
  });

  it("wants a spec part holding JSON", async () => {
    const missing = await runMultipart(undefined, { "0:attachment": { bytes: PNG } });
    expect(missing).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^The spec part is missing/) } });
    const notJson = await runMultipart("{oops", { "0:attachment": { bytes: PNG } });
    expect(notJson).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^The spec part is not valid JSON/) } });
  });

  it("refuses an inline (b64) file inside a multipart request", async () => {
    const refused = await runMultipart({ script: sendEmail({ files: { attachment: { b64: "aGk=", mime: "text/plain" } } }) }, { "0:other": { bytes: PNG } });
    expect(refused).toEqual({
      status: 400,
      body: { error: "Inline (b64) files are not allowed in a multipart request: send file input attachment as a part named 0:attachment" },
    });
  });

  it("404s a script that is unknown, someone else's private one, or archived", async () => {
    expect(await runJson({ script: { host: "example.com", slug: "nope" } })).toEqual({
      status: 404,
      body: { error: "No such script @demo/example.com/nope" },
    });
    expect(await runJson({ script: { handle: "@alice", host: "example.com", slug: "secret_notes" } })).toEqual({
      status: 404,
      body: { error: "No such script @alice/example.com/secret_notes" },
    });
    const archived = await runJson({ script: { host: "example.com", slug: "old_scraper" } });
    expect(archived.status).toBe(404);
    expect(archived.body.error).toMatch(/^No such script @demo\/example.com\/old_scraper: it is archived/);
  });

  it("400s a version that is not the script's, or a script with no current version", async () => {
    const foreign = await runJson({
      browser: "extension",
      script: { host: "example.com", slug: "get_title", args: { url: "https://example.com" }, version_id: SEED_IDS.versions.topStoriesV1 },
    });
    expect(foreign).toEqual({
      status: 400,
      body: {
        error: `version_id ${SEED_IDS.versions.topStoriesV1} is not a version of @demo/example.com/get_title`,
        variables: { version_id: ["is not a version of @demo/example.com/get_title"] },
      },
    });
    store.addScript({ handle: "@demo", host: "example.com", slug: "unfinished", draft: true });
    const draftOnly = await runJson({ browser: "extension", script: { host: "example.com", slug: "unfinished" } });
    expect(draftOnly.status).toBe(400);
    expect(draftOnly.body.error).toMatch(/^@demo\/example.com\/unfinished has no current version/);
  });
});

describe("POST /run: bad parts after the spec (request-level, the run already recorded)", () => {
  /** A 400 for the whole request; the run recorded when the spec arrived failed with the same message. */
  function expectRefused(refused: Answer, message: string): void {
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(message);
    const run = store.runs.get(refused.body.runId)!;
    expect(run.status).toBe("error");
    expect(run.result).toEqual({ error: message });
  }

  it("refuses a part name that is not <step>:<input> with a step in range", async () => {
    expectRefused(
      await runMultipart({ script: sendEmail() }, { attachment: { bytes: PNG } }),
      'Unexpected multipart part "attachment": parts are spec (the run request) and files named <step>:<input>, e.g. 0:attachment',
    );
    expectRefused(
      await runMultipart({ script: sendEmail() }, { "1:attachment": { bytes: PNG } }),
      "Part 1:attachment names step 1, but a run of one script has only step 0: name it 0:attachment",
    );
    const batch = await runMultipart({ scripts: [sendEmail(), sendEmail()] }, { "2:attachment": { bytes: PNG } });
    expect(batch).toEqual({ status: 400, body: { error: "Part 2:attachment names step 2, but the request has 2 steps (0 to 1)" } });
    const textPart = await runMultipart({ script: sendEmail() }, { "0:attachment": "not a file" });
    expect(textPart.body.error).toMatch(/^Part 0:attachment carries no file/);
  });

  it("checks a file part sent before the spec once the spec has arrived", async () => {
    const form = new FormData();
    form.append("9:attachment", new Blob([PNG]), "attachment");
    form.append("spec", JSON.stringify({ script: sendEmail() }));
    expectRefused(
      await answer(await fetch(RUN_URL, { method: "POST", headers: { "x-api-key": store.demo.apiKey }, body: form })),
      "Part 9:attachment names step 9, but a run of one script has only step 0: name it 0:attachment",
    );
  });

  it("accepts file parts before the spec", async () => {
    const form = new FormData();
    form.append("0:attachment", new Blob([PNG]), "attachment");
    form.append("spec", JSON.stringify({ browser: "extension", script: sendEmail() }));
    const sent = await answer(await fetch(RUN_URL, { method: "POST", headers: { "x-api-key": store.demo.apiKey }, body: form }));
    expect(sent.status).toBe(200);
    expect(sent.body.result.attachment).toBe("attachment");
  });
});

describe("POST /run: JSON body limit", () => {
  /** A valid run request padded with trailing whitespace to exactly `size` bytes. */
  function paddedRequest(size: number): string {
    const text = JSON.stringify({ browser: "extension", script: sendEmail() });
    return text + " ".repeat(size - Buffer.byteLength(text));
  }

  it("accepts exactly the limit", async () => {
    expect((await runJson(paddedRequest(MAX_JSON_BODY_BYTES))).status).toBe(200);
  });

  it("413s one byte more, counted while reading", async () => {
    const before = runCount();
    const refused = await runJson(paddedRequest(MAX_JSON_BODY_BYTES + 1));
    expect(refused.status).toBe(413);
    expect(refused.body.error).toBe(
      "Payload Too Large: the JSON run request is over 100 KiB, over the 100 KiB limit: send files as bytes (multipart parts) instead of inline b64",
    );
    expect(runCount()).toBe(before);
  });

  it("413s from Content-Length without reading", async () => {
    const refused = await runJson(paddedRequest(MAX_JSON_BODY_BYTES + 1), { headers: { "content-length": String(MAX_JSON_BODY_BYTES + 1) } });
    expect(refused.status).toBe(413);
    expect(refused.body.error).toMatch(/^Payload Too Large: the JSON run request is 102,401 bytes, over the 100 KiB limit/);
  });

  it("413s a big inline file", async () => {
    const b64 = Buffer.alloc(90 * 1024).toString("base64");
    const refused = await runJson({ browser: "extension", script: sendEmail({ files: { attachment: { b64, mime: "image/png" } } }) });
    expect(refused.status).toBe(413);
  });
});

describe("POST /run: send_email and upload_document with files", () => {
  it("sends without an attachment (the file input is optional)", async () => {
    const sent = await runJson({
      browser: "extension",
      script: sendEmail({ args: { to: ["a@example.com", "b@example.com"], subject: "Hi", cc: "c@example.com" } }),
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({
      result: { sent: true, to: ["a@example.com", "b@example.com"], cc: ["c@example.com"], bcc: [], subject: "Hi" },
      runId: expect.any(String),
    });
  });

  it("attaches bytes under the input's name, or under attachmentName", async () => {
    const bare = await runMultipart({ browser: "extension", script: sendEmail() }, { "0:attachment": { bytes: PNG, type: "image/png" } });
    expect(bare.status).toBe(200);
    expect(bare.body.result.attachment).toBe("attachment");
    expect(store.runs.get(bare.body.runId)!.files).toEqual([
      { input: "attachment", name: "attachment", size: PNG.length, type: "image/png", sha256: sha256(PNG), via: "bytes" },
    ]);

    const named = await runMultipart(
      { browser: "extension", script: sendEmail({ args: { to: "me@example.com", subject: "Our new banner", attachmentName: "banner.png" } }) },
      { "0:attachment": { bytes: PNG, type: "image/png" } },
    );
    expect(named.body.result).toEqual({ sent: true, to: ["me@example.com"], cc: [], bcc: [], subject: "Our new banner", attachment: "banner.png" });
  });

  it("attaches a named file under its own name, sub-folders included", async () => {
    putOnDesktop("invoice.pdf", "%PDF-1.7 top");
    const top = await runJson({ browser: "extension", script: sendEmail({ files: { attachment: { relativePath: "invoice.pdf" } } }) });
    expect(top.status).toBe(200);
    expect(top.body.result.attachment).toBe("invoice.pdf");

    putOnDesktop("2026/invoice.pdf", "%PDF-1.7 in 2026");
    const nested = await runJson({
      browser: { deviceId: store.demo.deviceId },
      script: sendEmail({ files: { attachment: { relativePath: "2026/invoice.pdf" } } }),
    });
    expect(nested.status).toBe(200);
    expect(nested.body.result.attachment).toBe("invoice.pdf");
    expect(store.runs.get(nested.body.runId)!.files).toEqual([
      { input: "attachment", name: "invoice.pdf", size: 16, type: "application/pdf", sha256: sha256("%PDF-1.7 in 2026"), via: "named" },
    ]);
  });

  it("attaches an inline file under the input's name with its media type", async () => {
    const sent = await runJson({
      browser: "extension",
      script: sendEmail({ files: { attachment: { b64: Buffer.from("hello").toString("base64"), mime: "text/plain" } } }),
    });
    expect(sent.status).toBe(200);
    expect(sent.body.result.attachment).toBe("attachment");
    expect(store.runs.get(sent.body.runId)!.files).toEqual([
      { input: "attachment", name: "attachment", size: 5, type: "text/plain", sha256: sha256("hello"), via: "inline" },
    ]);
  });

  it("uploads a document whose sha256 is the sent bytes' sha256", async () => {
    const bytes = new Uint8Array(4096).map((_, i) => (i * 31) % 256);
    const uploaded = await runMultipart({ browser: "extension", script: uploadDocument() }, { "0:document": { bytes, type: "application/pdf" } });
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.result).toMatchObject({
      status: "created",
      document: { name: "contract.pdf", size: 4096, type: "application/pdf", sha256: sha256(bytes) },
      envelopeId: expect.any(String),
    });
  });

  it("runs on a managed browser when a connector covers the host (mail.google.com)", async () => {
    const sent = await runMultipart({ script: sendEmail() }, { "0:attachment": { bytes: PNG } });
    expect(sent.status).toBe(200);
    expect(store.runs.get(sent.body.runId)!.browser).toEqual({ type: "managed", region: "eu-central-1", country: "" });
  });
});
