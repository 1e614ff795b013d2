// Where a run's files come from, other than multipart parts: files the caller's browser reads from
// the reduck folder of their (simulated) desktop, and small inline base64 files. Each becomes the
// `{ name, size, type, sha256 }` a script sees; for the real browser, which puts the bytes into a
// page, a named file's handle stays open for the run (read only through it) and inline bytes are kept.
import { createHash } from "node:crypto";
import { stat, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { mediaTypeOf } from "../../contract/media-types.js";
import { SERVICE_FOLDER } from "../../contract/service-rules.js";
import { openInFolder } from "./open-in-folder.js";
import type { FileDescriptor } from "../../store/records.js";

/**
 * The file, with its handle when asked to keep it open (the caller closes it); or why it could not
 * be read, in words for the end of "bound 0 bytes — ...".
 */
export type NamedFileResult = { file: FileDescriptor; handle?: FileHandle } | { problem: string };

/** Hashes what the handle holds, reading only from it. */
async function sha256Of(handle: FileHandle): Promise<{ size: number; sha256: string }> {
  const hash = createHash("sha256");
  const chunk = Buffer.alloc(1024 * 1024);
  let size = 0;
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, size);
    if (bytesRead === 0) break;
    hash.update(chunk.subarray(0, bytesRead));
    size += bytesRead;
  }
  return { size, sha256: hash.digest("hex") };
}

/**
 * Reads `<desktopDir>/reduck/<relativePath>` as the paired browser would: only a regular file that
 * really lies inside the folder (a symbolic link out of it does not count), opened once and read
 * only through that handle, so swapping the name for a link cannot race the check. `relativePath`
 * must already have passed relativePathProblem. The file keeps its own name (the last path segment).
 *
 * With `keepOpen`, the handle comes back open too: the browser later reads the very file checked
 * here, never a name looked up again.
 *
 * @example
 * await readNamedFile("/home/me/Desktop", "2026/invoice.pdf");
 * // { file: { name: "invoice.pdf", size: 1234, type: "application/pdf", sha256: "..." } }
 */
export async function readNamedFile(desktopDir: string | null, relativePath: string, { keepOpen = false } = {}): Promise<NamedFileResult> {
  if (!desktopDir) return { problem: "this sandbox has no desktop folder set up" };
  const folder = path.join(desktopDir, SERVICE_FOLDER);
  if (!(await stat(folder).catch(() => undefined))?.isDirectory()) return { problem: `there is no ${SERVICE_FOLDER} folder on the Desktop` };
  const opened = await openInFolder(folder, relativePath);
  if (!opened.ok) return { problem: opened.missing ? `no such file in the ${SERVICE_FOLDER} folder on the Desktop` : opened.problem };
  let kept = false;
  try {
    const { size, sha256 } = await sha256Of(opened.handle);
    const name = path.posix.basename(relativePath);
    const file = { name, size, type: mediaTypeOf(name), sha256 };
    kept = keepOpen;
    return kept ? { file, handle: opened.handle } : { file };
  } catch (error) {
    return { problem: `it cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  } finally {
    if (!kept) await opened.handle.close().catch(() => undefined);
  }
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;

/**
 * An inline file (at most the JSON body's 100 KB): named after its input, typed by its `mime`, and
 * its bytes. Returns null when `b64` is not base64 (standard alphabet; whitespace and missing
 * padding tolerated).
 */
export function inlineFile(input: string, b64: string, mime: string): { descriptor: FileDescriptor; bytes: Buffer } | null {
  const compact = b64.replace(/\s+/g, "");
  if (!BASE64.test(compact)) return null;
  const bytes = Buffer.from(compact, "base64");
  return { descriptor: { name: input, size: bytes.length, type: mime, sha256: createHash("sha256").update(bytes).digest("hex") }, bytes };
}
