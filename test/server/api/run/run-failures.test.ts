// POST /run in-process (msw), continued from run.test.ts: run failures (recorded, with runId) and
// the simulated page. Set-up and helpers in fixtures/run-fixture.ts.
import { symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RELATIVE_PATH_REFUSED } from "../../contract/service-rules.js";
import { SEED_IDS } from "../../index.js";
import {
  store,
  desktop,
  type Answer,
  runJson,
  runMultipart,
  api,
  sha256,
  sendEmail,
  uploadDocument,
  putOnDesktop,
  PNG,
  useRunFixture,
} from "./fixtures/run-fixture.js";

useRunFixture();

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
        "await page.setContent('<form><label>Search <input name=q></label><textarea></textarea><input type=file id=file></form>');",
        "await builtins.waitFor('form', 'attached');",
        "await builtins.paste([{ kind: 'role', body: 'textbox' }, { kind: 'last' }], args.query);",
        "await builtins.pressKey('Enter');",
        "await builtins.uploadFile('#file', 'upload');",
        "const held = await page.locator('#file').evaluate((input) => { const [f] = input.files; return { name: f.name, size: f.size, type: f.type, sha256: f.sha256 }; });",
        "return { url: page.url(), query: args.query, typed: await page.locator('textarea').inputValue(), held, files };",
      ].join("\n"),
    });
    const ran = await runMultipart(
      { browser: "extension", script: { host: "example.org", slug: "tour" } },
      { "0:upload": { bytes: "hello", type: "text/plain" } },
    );
    expect(ran.status).toBe(200);
    const file = { name: "upload", size: 5, type: "text/plain", sha256: sha256("hello") };
    expect(ran.body.result).toEqual({ url: "https://sandbox.invalid/", query: "ducks", typed: "ducks\n", held: file, files: { upload: file } });
    const run = await api(`/api/runs/${ran.body.runId}`);
    expect(run.body.args).toEqual({}); // recorded as given
    const trace = await api(`/api/runs/${ran.body.runId}/trace`);
    expect(trace.body.steps.map((s: { action: string }) => s.action)).toEqual([
      // A long first argument is shown cut at 80 characters.
      'page.setContent("<form><label>Search <input name=q></label><textarea></textarea><input type=file…")',
      "waitFor form (attached)",
      "paste into role=textbox >> last",
      "pressKey Enter",
      "uploadFile #file ← upload",
      "locator('#file').evaluate()",
      "locator('textarea').inputValue()",
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
    const v1 = await runJson({
      browser: "extension",
      script: { host: "example.com", slug: "get_title", args: { url: "https://example.com" }, version_id: SEED_IDS.versions.getTitleV1 },
    });
    expect(v1.status).toBe(200);
    expect((await api(`/api/runs/${v1.body.runId}`)).body.script).toMatchObject({ version_id: SEED_IDS.versions.getTitleV1, version_number: "1" });
  });
});
