// builtins.uploadFile in a real Chromium: what the page holds afterwards, read and hashed inside the
// page, equals the local file, for bytes (named after the input) and named files (their own name).
import { createHash } from "node:crypto";
import { mkdtemp, open, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MAX_FILE_BYTES } from "../../contract/service-rules.js";
import { BrowserHost, type RunFile } from "./index.js";

const host = new BrowserHost();
let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "reduck-browser-uploads-"));
  await (await host.newRun()).finish(); // the first launch (and, on a new machine, unpacking Chromium)
}, 120_000);

afterAll(async () => {
  await host.close();
  await rm(work, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Bytes that differ from position to position, so a shifted or truncated copy shows. */
function patterned(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + (i >> 8)) & 0xff;
  return bytes;
}

/**
 * Uploads `input` into `#f` of a bare page, then reads name, size and SHA-256 of the file inside the
 * page. The page first goes to a simulated https page: a new page's about:blank is no secure context
 * in this Chromium, so it has no crypto.subtle.
 */
async function uploadAndHash(files: Record<string, RunFile>, input: string) {
  const run = await host.newRun({ files });
  try {
    await run.builtins.goto("https://example.com/");
    await run.page.setContent("<input type=file id=f>");
    await run.builtins.uploadFile("#f", input);
    return await run.page.evaluate(async () => {
      const file = (document.getElementById("f") as HTMLInputElement).files?.[0];
      if (!file) throw new Error("uploadFile chose no file for #f");
      const digest = await crypto.subtle.digest("SHA-256", await file.arrayBuffer());
      return { name: file.name, size: file.size, sha256: [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("") };
    });
  } finally {
    await run.finish();
  }
}

describe("uploadFile puts the run's file into a real file field", () => {
  test.each([
    ["0 B", 0],
    ["1 byte", 1],
    ["1 MiB", 2 ** 20],
  ])("bytes in memory, %s: named after the input, the same bytes", async (_label, size) => {
    const bytes = patterned(size);
    expect(await uploadAndHash({ doc: { via: "bytes", bytes } }, "doc")).toEqual({ name: "doc", size, sha256: sha256(bytes) });
  });

  test("bytes of 50 MiB in a temporary file (as a multipart part arrives): the same bytes", async () => {
    const bytes = patterned(MAX_FILE_BYTES);
    const part = path.join(work, "part-0");
    await writeFile(part, bytes);
    expect(await uploadAndHash({ doc: { via: "bytes", path: part } }, "doc")).toEqual({ name: "doc", size: MAX_FILE_BYTES, sha256: sha256(bytes) });
  });

  test("an input named like a file arrives under that name", async () => {
    const bytes = Buffer.from("%PDF-1.4 tiny");
    expect(await uploadAndHash({ "test-upload.pdf": { via: "bytes", bytes } }, "test-upload.pdf")).toEqual({
      name: "test-upload.pdf",
      size: bytes.length,
      sha256: sha256(bytes),
    });
  });

  test("a named file, opened by the caller, keeps its own name", async () => {
    const bytes = patterned(300_001);
    const file = path.join(work, "invoice 2026.pdf");
    await writeFile(file, bytes);
    const handle = await open(file, "r");
    try {
      expect(await uploadAndHash({ doc: { via: "named", name: "invoice 2026.pdf", handle } }, "doc")).toEqual({
        name: "invoice 2026.pdf",
        size: bytes.length,
        sha256: sha256(bytes),
      });
    } finally {
      await handle.close();
    }
  });

  test("a named file given by path keeps its own name", async () => {
    const bytes = Buffer.from("quarterly numbers\n");
    const file = path.join(work, "q3.csv");
    await writeFile(file, bytes);
    expect(await uploadAndHash({ attachment: { via: "named", name: "q3.csv", path: file } }, "attachment")).toEqual({
      name: "q3.csv",
      size: bytes.length,
      sha256: sha256(bytes),
    });
  });

  test("the simulated page's rules and errors: no file bound, no selector, and a name no file can have", async () => {
    const run = await host.newRun({
      files: { "a/b": { via: "bytes", bytes: Buffer.from("x") }, doc: { via: "bytes", bytes: Buffer.from("y") } },
      actionTimeoutMs: 500,
    });
    try {
      await run.page.setContent("<input type=file id=f>");
      await expect(run.builtins.uploadFile("#f", "attachment")).rejects.toThrow("uploadFile: no file bound to attachment");
      await expect(run.builtins.uploadFile("", "attachment")).rejects.toThrow("uploadFile: give a CSS selector (a non-empty string)");
      await expect(run.builtins.uploadFile("#f", "a/b")).rejects.toThrow(
        'uploadFile: the file for a/b cannot be named "a/b" in the browser: it holds "/" or a NUL character',
      );
      await expect(run.builtins.uploadFile("#missing", "doc")).rejects.toThrow("uploadFile: Timeout 500ms exceeded. (waiting for locator('#missing').first())");
    } finally {
      const { steps } = await run.finish();
      expect(steps.map((s) => [s.action, s.ok])).toEqual([
        ["uploadFile #f ← attachment", false],
        ["uploadFile  ← attachment", false],
        ["uploadFile #f ← a/b", false],
        ["uploadFile #missing ← doc", false],
      ]);
    }
  });

  test("the same input uploaded twice is laid out once; the run's copies are removed when it finishes", async () => {
    const run = await host.newRun({ files: { doc: { via: "bytes", bytes: Buffer.from("twice") } } });
    await run.page.setContent("<input type=file id=a><input type=file id=b>");
    await run.builtins.uploadFile("#a", "doc");
    await run.builtins.uploadFile("#b", "doc");
    const names = await run.page.evaluate(() => ["a", "b"].map((id) => (document.getElementById(id) as HTMLInputElement).files?.[0]?.name));
    expect(names).toEqual(["doc", "doc"]);
    const { steps } = await run.finish();
    expect(steps.map((s) => s.detail)).toEqual([{ file: { name: "doc", size: 5 } }, { file: { name: "doc", size: 5 } }]);
  });
});
