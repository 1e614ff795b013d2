// POST /run in-process (msw): plain fetch with JSON or FormData, no client library, so these tests
// hold the server to the spec and openapi.json on their own.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_JSON_BODY_BYTES, RELATIVE_PATH_REFUSED } from "./service-rules.js";
import { createHandlers, createStore, SEED_IDS, validateResponse, type ReferenceStore } from "./index.js";

const RUN_URL = "https://mcp.reduck.ai/run";
const API = "https://reduck.ai";
const server = setupServer();
let store: ReferenceStore;
let desktop: string;

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
beforeEach(() => {
  desktop = mkdtempSync(path.join(os.tmpdir(), "reduck-desktop-"));
  mkdirSync(path.join(desktop, "reduck", "2026"), { recursive: true });
  store = createStore({ desktopDir: desktop, browser: "simulated" });
  server.resetHandlers(...createHandlers(store));
  vi.spyOn(console, "error");
});
// The self-check logs every answer outside openapi.json: no test may provoke one.
afterEach(() => {
  expect(console.error).not.toHaveBeenCalled();
  vi.restoreAllMocks();
  rmSync(desktop, { recursive: true, force: true });
});
afterAll(() => server.close());

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

interface Auth {
  key?: string | null;
  token?: string;
  headers?: Record<string, string>;
}

function authHeaders(auth: Auth): Record<string, string> {
  const headers: Record<string, string> = { ...auth.headers };
  if (auth.token) headers.authorization = `Bearer ${auth.token}`;
  else if (auth.key !== null) headers["x-api-key"] = auth.key ?? store.demo.apiKey;
  return headers;
}

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** POST /run as JSON (raw text sent as is). */
async function runJson(body: unknown, auth: Auth = {}): Promise<Answer> {
  const raw = typeof body === "string" ? body : JSON.stringify(body);
  return answer(await fetch(RUN_URL, { method: "POST", headers: { "content-type": "application/json", ...authHeaders(auth) }, body: raw }));
}

type Part = string | { bytes: Uint8Array | string; type?: string; filename?: string };

/** POST /run as multipart: the spec part first, then file parts by name. */
async function runMultipart(spec: unknown, parts: Record<string, Part> = {}, auth: Auth = {}): Promise<Answer> {
  const form = new FormData();
  if (spec !== undefined) form.append("spec", typeof spec === "string" ? spec : JSON.stringify(spec));
  for (const [name, part] of Object.entries(parts)) {
    if (typeof part === "string") form.append(name, part);
    else form.append(name, new Blob([part.bytes as BlobPart], { type: part.type ?? "application/octet-stream" }), part.filename ?? name.split(":")[1] ?? name);
  }
  return answer(await fetch(RUN_URL, { method: "POST", headers: authHeaders(auth), body: form }));
}

async function api(pathname: string): Promise<Answer> {
  return answer(await fetch(API + pathname, { headers: { "x-api-key": store.demo.apiKey } }));
}

const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

const sendEmail = (extra: Record<string, unknown> = {}) => ({
  handle: "reduck",
  host: "mail.google.com",
  slug: "send_email",
  args: { to: "me@example.com", subject: "Our new banner" },
  ...extra,
});
const uploadDocument = (extra: Record<string, unknown> = {}) => ({
  handle: "reduck",
  host: "docusign.com",
  slug: "upload_document",
  args: { documentName: "contract.pdf" },
  ...extra,
});

function putOnDesktop(relativePath: string, content: string | Uint8Array): string {
  const file = path.join(desktop, "reduck", ...relativePath.split("/"));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

function runCount(): number {
  return store.runsOf(store.demo.userId).length;
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5]);

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
    const foreign = await runJson({ browser: "extension", script: { host: "example.com", slug: "get_title", args: { url: "https://example.com" }, version_id: SEED_IDS.versions.topStoriesV1 } });
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
    const sent = await runJson({ browser: "extension", script: sendEmail({ args: { to: ["a@example.com", "b@example.com"], subject: "Hi", cc: "c@example.com" } }) });
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
    const nested = await runJson({ browser: { deviceId: store.demo.deviceId }, script: sendEmail({ files: { attachment: { relativePath: "2026/invoice.pdf" } } }) });
    expect(nested.status).toBe(200);
    expect(nested.body.result.attachment).toBe("invoice.pdf");
    expect(store.runs.get(nested.body.runId)!.files).toEqual([
      { input: "attachment", name: "invoice.pdf", size: 16, type: "application/pdf", sha256: sha256("%PDF-1.7 in 2026"), via: "named" },
    ]);
  });

  it("attaches an inline file under the input's name with its media type", async () => {
    const sent = await runJson({ browser: "extension", script: sendEmail({ files: { attachment: { b64: Buffer.from("hello").toString("base64"), mime: "text/plain" } } }) });
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

describe("POST /run: run failures (recorded, with runId)", () => {
  /** The answer is a failure of a run that was recorded as `error` with the same message. */
  function expectRecordedFailure(failed: Answer, status: number): void {
    expect(failed.status).toBe(status);
    expect(failed.body.runId).toEqual(expect.any(String));
    const run = store.runs.get(failed.body.runId)!;
    expect(run.status).toBe("error");
    expect(run.result).toEqual({ error: failed.body.error });
  }

  it("400s arguments that do not fit the schema, with variables", async () => {
    const failed = await runJson({ browser: "extension", script: sendEmail({ args: { to: "me@example.com" } }) });
    expectRecordedFailure(failed, 400);
    expect(failed.body.error).toBe("Invalid arguments for reduck/mail.google.com/send_email: subject is required");
    expect(failed.body.variables).toEqual({ subject: ["is required"] });

    // get_title says additionalProperties: false, so unknown arguments are refused there only.
    const unknown = await runJson({ browser: "extension", script: { host: "example.com", slug: "get_title", args: { url: "https://example.com", depth: 2 } } });
    expectRecordedFailure(unknown, 400);
    expect(unknown.body.variables).toEqual({ depth: ["is not an argument of this script"] });
    const extra = await runJson({ browser: "extension", script: sendEmail({ args: { to: "me@example.com", subject: "x", mood: "happy" } }) });
    expect(extra.status).toBe(200);
  });

  it("400s a binding for an input that is not a file input", async () => {
    const json = await runJson({ browser: "extension", script: sendEmail({ files: { photo: { b64: "aGk=", mime: "text/plain" } } }) });
    expectRecordedFailure(json, 400);
    expect(json.body.error).toBe("unknown file input photo");
    expect(json.body.variables).toEqual({ "files.photo": ["is not a file input of reduck/mail.google.com/send_email (its file inputs: attachment)"] });

    const part = await runMultipart({ browser: "extension", script: sendEmail() }, { "0:subject": { bytes: PNG } });
    expectRecordedFailure(part, 400);
    expect(part.body.error).toBe("unknown file input subject");
  });

  it("400s a required file input with no file", async () => {
    const failed = await runJson({ browser: "extension", script: uploadDocument() });
    expectRecordedFailure(failed, 400);
    expect(failed.body).toMatchObject({ error: "missing file input document", variables: { "files.document": ["is required"] } });
  });

  it("400s a named file on a managed browser", async () => {
    putOnDesktop("invoice.pdf", "%PDF");
    for (const browser of [undefined, "managed"]) {
      const failed = await runJson({ browser, script: sendEmail({ files: { attachment: { relativePath: "invoice.pdf" } } }) });
      expectRecordedFailure(failed, 400);
      expect(failed.body.error).toMatch(/^a managed browser can't read a file from your machine: send the bytes of attachment instead/);
    }
  });

  it("400s a name outside the reduck folder with the shared rule's message", async () => {
    for (const relativePath of ["../secrets.txt", "/etc/passwd", "2026/../../x.pdf"]) {
      const failed = await runJson({ browser: "extension", script: sendEmail({ files: { attachment: { relativePath } } }) });
      expectRecordedFailure(failed, 400);
      expect(failed.body.error).toContain(`file input attachment: ${JSON.stringify(relativePath)} ${RELATIVE_PATH_REFUSED}`);
    }
  });

  it("422s a named file when the browser may not read file URLs, saying how to allow it", async () => {
    putOnDesktop("invoice.pdf", "%PDF");
    store.setDemoFileAccess(false);
    const failed = await runJson({ browser: "extension", script: sendEmail({ files: { attachment: { relativePath: "invoice.pdf" } } }) });
    expectRecordedFailure(failed, 422);
    expect(failed.body.error).toMatch(/^This paired browser can't read local files: turn on "Allow access to file URLs"/);
    // Bytes still work: only named files need file access.
    expect((await runMultipart({ browser: "extension", script: sendEmail() }, { "0:attachment": { bytes: PNG } })).status).toBe(200);
    store.setDemoFileAccess(true);
    expect((await runJson({ browser: "extension", script: sendEmail({ files: { attachment: { relativePath: "invoice.pdf" } } }) })).status).toBe(200);
  });

  it("422s a named file the browser cannot read: missing, a folder, or a link out of the folder", async () => {
    const outside = path.join(desktop, "secret.txt");
    writeFileSync(outside, "secret");
    symlinkSync(outside, path.join(desktop, "reduck", "link.txt"));
    const cases: Array<[string, string]> = [
      ["missing.pdf", "no such file in the reduck folder on the Desktop"],
      ["2026", "it is not a regular file"],
      ["link.txt", "it leads outside the reduck folder through a symbolic link"],
    ];
    for (const [relativePath, why] of cases) {
      const failed = await runJson({ browser: "extension", script: sendEmail({ files: { attachment: { relativePath } } }) });
      expectRecordedFailure(failed, 422);
      expect(failed.body.error).toBe(`bound 0 bytes — the browser could not read ${relativePath} (${why})`);
    }
    store.desktopDir = null;
    const noDesktop = await runJson({ browser: "extension", script: sendEmail({ files: { attachment: { relativePath: "missing.pdf" } } }) });
    expect(noDesktop.body.error).toMatch(/^bound 0 bytes — the browser could not read missing.pdf/);
  });

  it("400s a device that is not one of the caller's", async () => {
    const failed = await runJson({ browser: { deviceId: SEED_IDS.devices.alice }, script: sendEmail() });
    expectRecordedFailure(failed, 400);
    expect(failed.body.error).toBe(`No paired browser ${SEED_IDS.devices.alice} on this account: list yours with GET /api/devices`);
  });

  it("422s a managed run without a connector for the host, saying how to fix it", async () => {
    const failed = await runMultipart({ script: uploadDocument() }, { "0:document": { bytes: PNG } });
    expectRecordedFailure(failed, 422);
    expect(failed.body.error).toMatch(/^no connector for docusign.com: a managed browser starts signed out/);
    expect(failed.body.error).toContain('browser: "extension"');
    expect(store.runs.get(failed.body.runId)!.browser).toEqual({ type: "managed", region: "eu-central-1", country: "" });
  });

  it("checks in order: arguments before files before the browser", async () => {
    const failed = await runJson({ script: uploadDocument({ args: {}, files: { nope: { relativePath: "../x" } } }) });
    expect(failed.body.error).toMatch(/^Invalid arguments/);
    const files = await runJson({ script: uploadDocument({ files: { nope: { relativePath: "../x" } } }) });
    expect(files.body.error).toBe("unknown file input nope");
    const named = await runJson({ script: uploadDocument({ files: { document: { relativePath: "x.pdf" } } }) });
    expect(named.body.error).toMatch(/^a managed browser can't read/);
  });

  it("422s a script that throws, with Error: <message>, and keeps its trace", async () => {
    const failed = await runJson({ browser: "extension", script: sendEmail({ args: { to: [], subject: "Hi" } }) });
    expectRecordedFailure(failed, 422);
    expect(failed.body.error).toBe("Error: to needs at least one address");
    const trace = await api(`/api/runs/${failed.body.runId}/trace`);
    expect(trace.body.steps.at(-1)).toMatchObject({ ok: false, error: "Error: to needs at least one address" });
  });

  it("fails uploadFile for an input with no file bound", async () => {
    store.addScript({
      handle: "@demo",
      host: "example.org",
      slug: "careless_upload",
      language: "javascript",
      inputSchema: { type: "object", properties: { attachment: { type: "string", format: "file" } } },
      content: "await builtins.uploadFile('input[type=file]', 'attachment');\nreturn { uploaded: true };\n",
    });
    const failed = await runJson({ browser: "extension", script: { host: "example.org", slug: "careless_upload" } });
    expectRecordedFailure(failed, 422);
    expect(failed.body.error).toBe("Error: uploadFile: no file bound to attachment");
  });
});

describe("POST /run: the simulated page", () => {
  it("records steps as the trace and fills the schema's defaults into args", async () => {
    store.addScript({
      handle: "@demo",
      host: "example.org",
      slug: "tour",
      language: "javascript",
      inputSchema: {
        type: "object",
        properties: { query: { type: "string", default: "ducks" }, upload: { type: "string", format: "file" } },
      },
      content: [
        "await builtins.goto('https://example.org/search');",
        "await builtins.waitFor('form', 'attached');",
        "await builtins.paste([{ kind: 'role', body: 'textbox' }, { kind: 'last' }], args.query);",
        "await builtins.pressKey('Enter');",
        "await builtins.uploadFile('#file', 'upload');",
        "const before = page.fileInput('#file');",
        "page.renameFile('#file', 'renamed.txt');",
        "return { url: page.url(), query: args.query, before, after: page.fileInput('#file'), empty: page.fileInput('#other'), files };",
      ].join("\n"),
    });
    const ran = await runMultipart({ browser: "extension", script: { host: "example.org", slug: "tour" } }, { "0:upload": { bytes: "hello", type: "text/plain" } });
    expect(ran.status).toBe(200);
    const file = { name: "upload", size: 5, type: "text/plain", sha256: sha256("hello") };
    expect(ran.body.result).toEqual({
      url: "https://example.org/search",
      query: "ducks",
      before: file,
      after: { ...file, name: "renamed.txt" },
      empty: null,
      files: { upload: file },
    });
    const run = await api(`/api/runs/${ran.body.runId}`);
    expect(run.body.args).toEqual({}); // recorded as given
    const trace = await api(`/api/runs/${ran.body.runId}/trace`);
    expect(trace.body.steps.map((s: { action: string }) => s.action)).toEqual([
      "goto https://example.org/search",
      "waitFor form (attached)",
      "paste into role=textbox >> last",
      "pressKey Enter",
      "uploadFile #file ← upload",
      "renameFile #file → renamed.txt",
      "return",
    ]);
  });

  it("runs the seeded demo script, and gives a script that never ends a time limit", async () => {
    const title = await runJson({ browser: "extension", script: { host: "example.com", slug: "get_title", args: { url: "https://example.com" } } });
    expect(title.body.result).toEqual({ title: "Example Domain" });
    store.runTimeoutMs = 50;
    store.addScript({ handle: "@demo", host: "example.org", slug: "forever", language: "javascript", content: "await new Promise(() => {});" });
    const stuck = await runJson({ browser: "extension", script: { host: "example.org", slug: "forever" } });
    expect(stuck).toMatchObject({ status: 422, body: { error: "script timed out after 0.05 s" } });
  });

  it("runs a version by version_id", async () => {
    const v1 = await runJson({ browser: "extension", script: { host: "example.com", slug: "get_title", args: { url: "https://example.com" }, version_id: SEED_IDS.versions.getTitleV1 } });
    expect(v1.status).toBe(200);
    expect((await api(`/api/runs/${v1.body.runId}`)).body.script).toMatchObject({ version_id: SEED_IDS.versions.getTitleV1, version_number: "1" });
  });
});

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
      { status: "failed", error: "No such script @demo/example.com/nope", errorType: "invalid_input", externalMessage: "No such script @demo/example.com/nope" },
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
      { status: "failed", runId: expect.any(String), error: "missing file input document", errorType: "invalid_input", externalMessage: "missing file input document" },
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
    const batch = await runJson({ browser: "extension", sequential: true, scripts: [{ host: "example.com", slug: "get_title", args: { url: "https://example.com/a" } }, { host: "example.org", slug: "where" }] });
    expect(batch.body[1].result).toEqual({ url: "https://example.com/a" });
    const parallel = await runJson({ browser: "extension", scripts: [{ host: "example.com", slug: "get_title", args: { url: "https://example.com/a" } }, { host: "example.org", slug: "where" }] });
    expect(parallel.body[1].result).toEqual({ url: "about:blank" });
  });

  it("still fails the whole request on a request-level problem", async () => {
    const refused = await runMultipart({ browser: "extension", scripts: [sendEmail(), sendEmail()] }, { "0:attachment": { bytes: PNG }, "x:attachment": { bytes: PNG } });
    expect(refused.status).toBe(400);
    expect(refused.body.runId).toBeUndefined();
    // Both steps had started (recorded) when the bad part came: both fail with its message.
    const failed = store.runsOf(store.demo.userId).filter((r) => r.status === "error" && r.source === "rest" && r.result && "error" in r.result && r.result.error === refused.body.error);
    expect(failed).toHaveLength(2);
  });
});

describe("POST /run: what is recorded", () => {
  it("records every run with status, args, result or error, browser, version and source", async () => {
    const ok = await runMultipart(
      { browser: "extension", script: sendEmail() },
      { "0:attachment": { bytes: PNG } },
      { headers: { "x-reduck-source": "cli" } },
    );
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
    expect(trace.body.steps).toContainEqual(expect.objectContaining({ action: 'uploadFile input[type="file"][name="Filedata"] ← attachment', ok: true }));
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
    } as RequestInit).then((r) => r.text(), () => undefined);
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
    expect(validateResponse("runScript", 200, [{ status: "failed", error: "not run", errorType: "not_run" }, { status: "completed", runId, result: null }])).toBeNull();
    expect(validateResponse("runScript", 202, { batchId: runId, status: "running", runs: [{ status: "running", runId, retryAfterMs: 1000 }], retryAfterMs: 1000 })).toBeNull();
    expect(validateResponse("runScript", 202, { status: "running", runId, retryAfterMs: 1000 })).toBeNull();
    expect(validateResponse("runScript", 200, { runId })).toBeNull(); // a run that ended with no outcome
    expect(validateResponse("runScript", 422, { error: "Error: boom", runId })).toBeNull();
    expect(validateResponse("runScript", 200, { result: {}, runId: "not-a-uuid" })).toMatch(/^runScript 200: /);
    expect(validateResponse("runScript", 200, [{ status: "skipped", runId: null }])).toMatch(/^runScript 200: /);
    expect(validateResponse("runScript", 202, { batchId: runId, status: "partial", runs: [] })).toMatch(/^runScript 202: /);
    expect(validateResponse("runScript", 500, { error: "x" })).toBe("runScript does not declare status 500");
  });
});
