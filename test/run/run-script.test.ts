import { describe, expect, test, beforeAll } from "vitest";
import { runScript, getRun, MAX_FILE_BYTES, MAX_JSON_BODY_BYTES } from "../../src/index.js";
import { useSandboxClient } from "../support/sandbox-client.js";
import { makeDesktop, makeFile, patterned, sha256 } from "../support/files.js";

const ref = useSandboxClient({ fresh: true });
const sendEmail = { handle: "reduck", host: "mail.google.com", slug: "send_email" };
const uploadDocument = { handle: "reduck", host: "docusign.com", slug: "upload_document" };
const banner = patterned(64 * 1024);
let desktop: string;

beforeAll(async () => {
  desktop = await makeDesktop({ "banner.png": banner, "2026/invoice.pdf": "%PDF-1.7 invoice" });
});
const withDesktop = () => (ref.store.desktopDir = desktop);
const runsNow = () => [...ref.store.runs.values()].length;

describe("bytes (multipart)", () => {
  test("a Buffer arrives named after its input without a name argument", async () => {
    const { data, error } = await runScript({
      client: ref.client,
      browser: "extension",
      script: { ...sendEmail, args: { to: "me@example.com", subject: "Hi" }, files: { attachment: banner } },
    });
    expect(error).toBeUndefined();
    expect(data!.result).toEqual({ sent: true, to: ["me@example.com"], cc: [], bcc: [], subject: "Hi", attachment: "attachment" });
    const run = ref.store.runs.get(data!.runId)!;
    expect(run.files).toEqual([expect.objectContaining({ input: "attachment", via: "bytes", size: banner.length, sha256: sha256(banner) })]);
  });

  test("a name argument gives the file the name the recipient sees", async () => {
    const file = await makeFile("banner.png", banner);
    const { data } = await runScript({
      client: ref.client,
      browser: "extension",
      script: {
        ...sendEmail,
        args: { to: ["a@example.com", "b@example.com"], subject: "Our new banner", attachmentName: "banner.png" },
        files: { attachment: { path: file } },
      },
    });
    expect(data!.result).toMatchObject({ attachment: "banner.png", to: ["a@example.com", "b@example.com"] });
    const received = ref.store.runs.get(data!.runId)!.files[0]!;
    expect(received.type).toBe("image/png"); // from the file name
  });

  test("bytes from a path arrive intact and progress reaches the total", async () => {
    const bytes = patterned(3 * 1024 * 1024 + 17);
    const file = await makeFile("contract.pdf", bytes);
    const seen: Array<{ sent: number; total: number }> = [];
    const { data, error } = await runScript({
      client: ref.client,
      browser: "extension",
      script: { ...uploadDocument, args: { documentName: "contract.pdf" }, files: { document: { path: file } } },
      onUploadProgress: (p) => seen.push(p),
    });
    expect(error).toBeUndefined();
    expect((data!.result as any).document).toMatchObject({ name: "contract.pdf", size: bytes.length, sha256: sha256(bytes), type: "application/pdf" });
    const last = seen.at(-1)!;
    expect(last.sent).toBe(last.total);
    expect(last.total).toBeGreaterThan(bytes.length);
    expect(seen.length).toBeGreaterThan(2);
  });
});

describe("named and inline files (JSON)", () => {
  test("a named file keeps its own name, in a sub-folder too", async () => {
    withDesktop();
    const top = await runScript({
      client: ref.client,
      browser: "extension",
      script: { ...sendEmail, args: { to: "me@example.com", subject: "x" }, files: { attachment: { relativePath: "banner.png" } } },
    });
    expect(top.data?.result).toMatchObject({ attachment: "banner.png" });
    const sub = await runScript({
      client: ref.client,
      browser: "extension",
      script: { ...sendEmail, args: { to: "me@example.com", subject: "x" }, files: { attachment: { relativePath: "2026/invoice.pdf" } } },
    });
    expect(sub.data?.result).toMatchObject({ attachment: "invoice.pdf" });
    expect(ref.store.runs.get(sub.data!.runId)!.files[0]).toMatchObject({ via: "named", name: "invoice.pdf" });
  });

  test("an inline file travels in the JSON body", async () => {
    const { data } = await runScript({
      client: ref.client,
      browser: "extension",
      script: {
        ...sendEmail,
        args: { to: "me@example.com", subject: "x" },
        files: { attachment: { b64: Buffer.from("hello").toString("base64"), mime: "text/plain" } },
      },
    });
    expect(data?.result).toMatchObject({ attachment: "attachment" });
    expect(ref.store.runs.get(data!.runId)!.files[0]).toMatchObject({ via: "inline", size: 5, sha256: sha256(Buffer.from("hello")) });
  });
});

describe("refused before anything is sent", () => {
  test("a file over 50 MB", async () => {
    const before = runsNow();
    const { error } = await runScript({
      client: ref.client,
      browser: "extension",
      script: { ...uploadDocument, args: { documentName: "x" }, files: { document: new Uint8Array(MAX_FILE_BYTES + 1) } },
    });
    expect(error).toMatchObject({ kind: "invalid_request" });
    expect(error!.error).toMatch(/over the 50 MiB limit/);
    expect(runsNow()).toBe(before);
  });

  test("a JSON body over 100 KB, with the advice to send bytes", async () => {
    const before = runsNow();
    const b64 = Buffer.alloc(MAX_JSON_BODY_BYTES).toString("base64");
    const { error } = await runScript({
      client: ref.client,
      browser: "extension",
      script: { ...sendEmail, args: { to: "a@b.c", subject: "x" }, files: { attachment: { b64, mime: "image/png" } } },
    });
    expect(error?.kind).toBe("invalid_request");
    expect(error!.error).toMatch(/over the 100 KiB limit: send files as bytes/);
    expect(runsNow()).toBe(before);
  });

  test("an inline file beside bytes", async () => {
    const { error } = await runScript({
      client: ref.client,
      scripts: [
        { ...uploadDocument, args: { documentName: "a" }, files: { document: banner } },
        { ...sendEmail, args: { to: "a@b.c", subject: "x" }, files: { attachment: { b64: "aGk=", mime: "text/plain" } } },
      ],
    });
    expect(error?.error).toMatch(/inline \(b64\) files can't travel with files sent as bytes \(1:attachment\)/);
  });

  test.each(["/etc/passwd", "../x.png", "C:\\x.png", "a/../../x.png"])("a relativePath of %j", async (name) => {
    const { error } = await runScript({
      client: ref.client,
      browser: "extension",
      script: { ...sendEmail, args: { to: "a@b.c", subject: "x" }, files: { attachment: { relativePath: name } } },
    });
    expect(error?.kind).toBe("invalid_request");
    expect(error!.error).toMatch(/must be a plain name inside the reduck folder/);
  });

  test("a path that does not exist, or is a folder", async () => {
    const missing = await runScript({
      client: ref.client,
      script: { ...uploadDocument, args: { documentName: "a" }, files: { document: { path: "/no/such/file.pdf" } } },
    });
    expect(missing.error?.error).toBe("file input document: /no/such/file.pdf does not exist");
    const folder = await runScript({ client: ref.client, script: { ...uploadDocument, args: { documentName: "a" }, files: { document: { path: desktop } } } });
    expect(folder.error?.error).toMatch(/is not a regular file/);
  });
});

describe("the service's run failures reach the caller, with the recorded run", () => {
  /** send_email with `relativePath`, a file of the desktop, as its attachment. */
  const sendNamedFile = (browser: "managed" | "extension", relativePath: string) =>
    runScript({ client: ref.client, browser, script: { ...sendEmail, args: { to: "a@b.c", subject: "x" }, files: { attachment: { relativePath } } } });
  const expectFailure = async (result: { data: unknown; error?: { kind: string; error: string } }, _status: number, text: string) => {
    expect(result.data).toBeUndefined();
    // The service recorded the run and it failed: the run's failure, in its envelope, as when it fails later.
    expect(result.error).toMatchObject({ kind: "run_failed", runId: expect.any(String), errorType: expect.any(String) });
    expect(result.error!.error).toContain(text);
    const runId = (result.error as { runId?: string }).runId!;
    const run = await getRun({ client: ref.client, path: { runId } });
    expect(run.data).toMatchObject({ status: "error", result: { error: expect.stringContaining(text) } });
  };

  test("unknown file input", async () => {
    await expectFailure(
      await runScript({ client: ref.client, browser: "extension", script: { ...sendEmail, args: { to: "a@b.c", subject: "x" }, files: { photo: banner } } }),
      400,
      "unknown file input",
    );
  });

  test("missing file input", async () => {
    await expectFailure(
      await runScript({ client: ref.client, browser: "extension", script: { ...uploadDocument, args: { documentName: "a" } } }),
      400,
      "missing file input document",
    );
  });

  test("a named file on a managed browser", async () => {
    withDesktop();
    await expectFailure(await sendNamedFile("managed", "banner.png"), 400, "a managed browser can't read a file from your machine");
  });

  test("file access off", async () => {
    withDesktop();
    ref.store.setDemoFileAccess(false);
    await expectFailure(await sendNamedFile("extension", "banner.png"), 422, "This paired browser can't read local files");
  });

  test("a named file that is not there", async () => {
    withDesktop();
    await expectFailure(await sendNamedFile("extension", "nope.png"), 422, "bound 0 bytes — the browser could not read");
  });

  test("a managed browser with no connector for the host; with one, the run works", async () => {
    await expectFailure(
      await runScript({ client: ref.client, browser: "managed", script: { ...uploadDocument, args: { documentName: "a.pdf" }, files: { document: banner } } }),
      422,
      "connector",
    );
    const ok = await runScript({
      client: ref.client,
      browser: "managed",
      script: { ...sendEmail, args: { to: "a@b.c", subject: "x" }, files: { attachment: banner } },
    });
    expect(ok.error).toBeUndefined();
    expect((await getRun({ client: ref.client, path: { runId: ok.data!.runId } })).data?.browser).toMatchObject({ type: "managed" });
  });
});

describe("several steps", () => {
  test("files in step 1 reach step 1", async () => {
    const doc = patterned(20_000);
    const { data, error } = await runScript({
      client: ref.client,
      browser: "extension",
      scripts: [
        { ...sendEmail, args: { to: "a@b.c", subject: "first" } },
        { ...uploadDocument, args: { documentName: "second.pdf" }, files: { document: doc } },
      ],
    });
    expect(error).toBeUndefined();
    expect(data).toMatchObject({ status: "completed", totalSteps: 2 });
    expect(data!.runs[0]).toMatchObject({ status: "completed", result: { subject: "first" } });
    expect(data!.runs[1]).toMatchObject({ status: "completed", result: { document: { name: "second.pdf", sha256: sha256(doc) } } });
  });

  test("sequential stops at the first failure", async () => {
    const { data } = await runScript({
      client: ref.client,
      browser: "extension",
      sequential: true,
      scripts: [
        { ...uploadDocument, args: { documentName: "a" } }, // missing its required file
        { ...sendEmail, args: { to: "a@b.c", subject: "never" } },
      ],
    });
    expect(data).toMatchObject({ status: "failed", totalSteps: 2 });
    expect(data!.runs[0]).toMatchObject({ status: "failed", error: expect.stringContaining("missing file input document") });
    expect(data!.runs[1]).toMatchObject({ status: "skipped", runId: null });
  });
});
