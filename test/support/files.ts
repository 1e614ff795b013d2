import { createHash } from "node:crypto";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Bytes that differ from position to position, so a reordering or truncation shows. */
export function patterned(size: number): Buffer {
  const buf = Buffer.alloc(size);
  for (let i = 0; i < size; i += 4096) buf.writeUInt32LE(i, i);
  return buf;
}

/** A temporary simulated desktop with files in its reduck folder. */
export async function makeDesktop(files: Record<string, Uint8Array | string> = {}): Promise<string> {
  const desktop = await mkdtemp(path.join(os.tmpdir(), "reduck-desktop-"));
  await mkdir(path.join(desktop, "reduck"), { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(desktop, "reduck", ...name.split("/"));
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
  return desktop;
}

/** A temporary file anywhere on disk, outside any desktop. */
export async function makeFile(name: string, content: Uint8Array | string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "reduck-file-"));
  const file = path.join(dir, name);
  await writeFile(file, content);
  return file;
}
