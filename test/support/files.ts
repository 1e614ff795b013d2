import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { mkdir, open, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Bytes that differ from position to position, so a reordering or truncation shows. */
export function patterned(size: number): Buffer {
  const buf = Buffer.alloc(size);
  for (let i = 0; i < size; i += 4096) buf.writeUInt32LE(i, i);
  return buf;
}

/** A sparse file of `size` zero bytes in `folder`: fast to make, read from disk like any other. */
export async function sparseFile(folder: string, name: string, size: number): Promise<string> {
  const file = path.join(folder, name);
  const handle = await open(file, "w");
  await handle.truncate(size);
  await handle.close();
  return file;
}

const made = new Set<string>();

/**
 * A new folder in the temporary directory (or `inside` another folder), removed when the test file
 * ends (by test/support/sandbox-cleanup.ts). Its name starts with `prefix`: `reduck-...` in the
 * temporary directory, so a folder left behind is found (test/support/temporary-folders.ts).
 *
 * @example
 * const home = temporaryFolder("reduck-home-");
 * const out = temporaryFolder("out-", { inside: home });
 */
export function temporaryFolder(prefix: string, { inside = os.tmpdir() }: { inside?: string } = {}): string {
  const folder = mkdtempSync(path.join(inside, prefix));
  made.add(folder);
  return folder;
}

/** Removes every folder `temporaryFolder` made (and whatever the tests put in them). */
export function removeTemporaryFolders(): void {
  for (const folder of made) rmSync(folder, { recursive: true, force: true });
  made.clear();
}

/** A temporary simulated desktop with files in its reduck folder (removed when the test file ends). */
export async function makeDesktop(files: Record<string, Uint8Array | string> = {}): Promise<string> {
  const desktop = temporaryFolder("reduck-desktop-");
  await mkdir(path.join(desktop, "reduck"), { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(desktop, "reduck", ...name.split("/"));
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
  return desktop;
}

/** A temporary file anywhere on disk, outside any desktop (its folder removed when the test file ends). */
export async function makeFile(name: string, content: Uint8Array | string): Promise<string> {
  const dir = temporaryFolder("reduck-file-");
  const file = path.join(dir, name);
  await writeFile(file, content);
  return file;
}
