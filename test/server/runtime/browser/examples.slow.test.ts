// The example scripts (example-scripts, linked from the repository's examples/scripts) in the real browser against the simulated web: they
// return their documented results, and the pages show what the scripts say they did.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, open, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BrowserHost } from "./index.js";
import { runBody } from "./script.js";

const example = (address: string) => readFileSync(new URL(`../../store/example-scripts/${address}.js`, import.meta.url), "utf8");
const sendEmail = example("mail.google.com/send_email");
const uploadDocument = example("docusign.com/upload_document");

const host = new BrowserHost();
let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "reduck-browser-examples-"));
  await (await host.newRun()).finish();
}, 120_000);

afterAll(async () => {
  await host.close();
  await rm(work, { recursive: true, force: true });
});

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

/** What the compose page shows the recipient will get, row by row. */
async function preview(page: import("playwright-core").Page): Promise<Record<string, string>> {
  return page
    .locator("#preview [data-preview]")
    .evaluateAll((cells) => Object.fromEntries(cells.map((c) => [(c as HTMLElement).dataset.preview!, c.textContent!])));
}

describe("mail.google.com/send_email in the real browser", () => {
  test("with attachmentName: the page attaches the file under that name, and that is the result's attachment", async () => {
    let shown: Record<string, string> = {};
    const { result, error, end } = await runBody(host, sendEmail, {
      args: {
        to: ["a@example.com", "b@example.com"],
        cc: "c@example.com",
        bcc: "d@example.com",
        subject: "Our new banner",
        body: "Hello",
        attachmentName: "banner.png",
      },
      files: { attachment: { via: "bytes", bytes: PNG } },
      inspect: async (page) => void (shown = await preview(page)),
    });
    expect(error).toBeUndefined();
    expect(result).toEqual({
      sent: true,
      to: ["a@example.com", "b@example.com"],
      cc: ["c@example.com"],
      bcc: ["d@example.com"],
      subject: "Our new banner",
      attachment: "banner.png",
    });
    expect(shown).toEqual({
      status: "sent",
      to: "a@example.com, b@example.com",
      cc: "c@example.com",
      bcc: "d@example.com",
      subject: "Our new banner",
      body: "Hello",
      attachment: `banner.png (${PNG.length} B)`,
    });
    expect(end.steps.every((s) => s.ok && typeof s.duration_ms === "number")).toBe(true);
    expect(end.screenshots.map((s) => s.kind)).toEqual(["last"]);
  });

  test("bytes without attachmentName arrive named after the input", async () => {
    let shown: Record<string, string> = {};
    const { result } = await runBody(host, sendEmail, {
      args: { to: "me@example.com", subject: "x" },
      files: { attachment: { via: "bytes", bytes: Buffer.alloc(2048, 1) } },
      inspect: async (page) => void (shown = await preview(page)),
    });
    expect(result).toEqual({ sent: true, to: ["me@example.com"], cc: [], bcc: [], subject: "x", attachment: "attachment" });
    expect(shown.attachment).toBe("attachment (2 KB)");
  });

  test("a named file keeps its own name; no file, no attachment", async () => {
    const file = path.join(work, "invoice.pdf");
    await writeFile(file, "%PDF-1.7 top");
    const handle = await open(file, "r");
    try {
      const named = await runBody(host, sendEmail, {
        args: { to: "me@example.com", subject: "Invoice" },
        files: { attachment: { via: "named", name: "invoice.pdf", handle } },
      });
      expect(named.result).toMatchObject({ sent: true, attachment: "invoice.pdf" });
    } finally {
      await handle.close();
    }
    const bare = await runBody(host, sendEmail, { args: { to: "me@example.com", subject: "No file" } });
    expect(bare.result).toEqual({ sent: true, to: ["me@example.com"], cc: [], bcc: [], subject: "No file" });
  });

  test("a failing script: its error, the trace up to there, a screenshot at the failure", async () => {
    const { error, end } = await runBody(host, sendEmail, { args: { to: [], subject: "x" } });
    expect(error?.message).toBe("to needs at least one address");
    expect(end.steps).toEqual([]);
    expect(end.screenshots).toEqual([{ kind: "failure", afterStep: -1, png: expect.any(Buffer) }]);
  });
});

describe("docusign.com/upload_document in the real browser", () => {
  test("the document is listed under documentName, with its size, the type its extension gives, and the same bytes", async () => {
    const bytes = Buffer.from("%PDF-1.4\n" + "x".repeat(5000));
    const { result, error } = await runBody(host, uploadDocument, { args: { documentName: "contract.pdf" }, files: { document: { via: "bytes", bytes } } });
    expect(error).toBeUndefined();
    expect(result).toMatchObject({
      status: "created",
      accountId: "sandbox-account",
      envelopeId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      document: { name: "contract.pdf", size: bytes.length, type: "application/pdf", sha256: createHash("sha256").update(bytes).digest("hex") },
    });
  });
});
