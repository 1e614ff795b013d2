// Where a run's files come from, other than multipart parts: files the caller's browser reads from
// the reduck folder of their (simulated) desktop, and small inline base64 files. Each becomes the
// `{ name, size, type, sha256 }` a script sees; the bytes themselves are never kept.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { mediaTypeFor } from "../../../src/run/files.js";
import { SERVICE_FOLDER } from "../../../src/run/relative-path.js";
import type { FileDescriptor } from "../records.js";

/** Why a named file could not be read, in words for the end of "bound 0 bytes — ...". */
export type NamedFileResult = { file: FileDescriptor } | { problem: string };

async function sha256Of(file: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest("hex") };
}

/**
 * Reads `<desktopDir>/reduck/<relativePath>` as the paired browser would: only a regular file that
 * really lies inside the folder (a symbolic link out of it does not count). `relativePath` must
 * already have passed relativePathProblem. The file keeps its own name (the last path segment).
 *
 * @example
 * await readNamedFile("/home/me/Desktop", "2026/invoice.pdf");
 * // { file: { name: "invoice.pdf", size: 1234, type: "application/pdf", sha256: "..." } }
 */
export async function readNamedFile(desktopDir: string | null, relativePath: string): Promise<NamedFileResult> {
  if (!desktopDir) return { problem: "this reference server has no desktop folder set up" };
  let folder: string;
  try {
    folder = await realpath(path.join(desktopDir, SERVICE_FOLDER));
  } catch {
    return { problem: `there is no ${SERVICE_FOLDER} folder on the Desktop` };
  }
  let target: string;
  try {
    target = await realpath(path.join(folder, ...relativePath.split("/")));
  } catch {
    return { problem: `no such file in the ${SERVICE_FOLDER} folder on the Desktop` };
  }
  if (!target.startsWith(folder + path.sep)) {
    return { problem: `it leads outside the ${SERVICE_FOLDER} folder through a symbolic link` };
  }
  try {
    if (!(await stat(target)).isFile()) return { problem: "it is not a regular file" };
    const { size, sha256 } = await sha256Of(target);
    const name = path.posix.basename(relativePath);
    return { file: { name, size, type: await mediaTypeFor(name), sha256 } };
  } catch (error) {
    return { problem: `it cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;

/**
 * An inline file: named after its input, typed by its `mime`. Returns null when `b64` is not base64
 * (standard alphabet; whitespace and missing padding tolerated).
 */
export function inlineFile(input: string, b64: string, mime: string): FileDescriptor | null {
  const compact = b64.replace(/\s+/g, "");
  if (!BASE64.test(compact)) return null;
  const bytes = Buffer.from(compact, "base64");
  return { name: input, size: bytes.length, type: mime, sha256: createHash("sha256").update(bytes).digest("hex") };
}
