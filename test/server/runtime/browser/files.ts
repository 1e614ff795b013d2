// A run's files, laid out on disk the way the browser must see them: the file chooser takes a path
// and names the file after its last segment, so each file gets a folder of its own holding it under
// the name the page should see (bytes: the input's name; a named file: its own name). Paths rather
// than buffers also because Playwright refuses buffers of 50 MiB, our limit.
import { createWriteStream } from "node:fs";
import { copyFile, link, mkdir, mkdtemp, rm, stat, writeFile, type FileHandle } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";

/** Where a file's bytes are: in memory, in a file (a multipart part's temp file), or an open handle. */
export type FileContent = { bytes: Uint8Array } | { path: string } | { handle: FileHandle };

/**
 * A file bound to a run's input. Bytes (a multipart part) and inline files arrive named after the
 * input; a named file (`<desktop>/reduck/<relativePath>`, opened and checked by the caller) keeps
 * its own name.
 */
export type RunFile = FileContent & ({ via: "bytes" | "inline" } | { via: "named"; name: string });

/** A file ready for the file chooser. */
export interface StagedFile {
  path: string;
  /** The name the page sees. */
  name: string;
  size: number;
}

/** Why `name` cannot be a file name the browser shows, or null. */
function badFileName(name: string): string | null {
  if (!name || name === "." || name === "..") return "it is empty or a dot name";
  if (/[/\0]/.test(name)) return 'it holds "/" or a NUL character';
  if (Buffer.byteLength(name) > 255) return "it is longer than 255 bytes";
  return null;
}

export class RunFiles {
  private folder?: Promise<string>;
  private readonly staged = new Map<string, Promise<StagedFile>>();

  constructor(private readonly files: Readonly<Record<string, RunFile>>) {}

  /** Whether a file is bound to `input`. */
  has(input: unknown): input is string {
    return typeof input === "string" && Object.hasOwn(this.files, input);
  }

  /** The file bound to `input` on disk under the name the page should see (laid out once per input). */
  stage(input: string): Promise<StagedFile> {
    let staged = this.staged.get(input);
    if (!staged) {
      staged = this.layOut(input, this.staged.size);
      this.staged.set(input, staged);
    }
    return staged;
  }

  private async layOut(input: string, index: number): Promise<StagedFile> {
    const file = this.files[input];
    if (!file) throw new Error(`uploadFile: no file bound to ${input}`);
    const name = file.via === "named" ? file.name : input;
    const problem = badFileName(name);
    if (problem) throw new Error(`the file for ${input} cannot be named ${JSON.stringify(name)} in the browser: ${problem}`);
    this.folder ??= mkdtemp(path.join(os.tmpdir(), "reduck-run-files-"));
    const dir = path.join(await this.folder, String(index));
    await mkdir(dir);
    const target = path.join(dir, name);
    if ("bytes" in file) {
      await writeFile(target, file.bytes);
    } else if ("path" in file) {
      // A hard link costs nothing and keeps the bytes if the original goes; across file systems, copy.
      await link(file.path, target).catch(() => copyFile(file.path, target));
    } else {
      await pipeline(file.handle.createReadStream({ start: 0, autoClose: false }), createWriteStream(target));
    }
    return { path: target, name, size: (await stat(target)).size };
  }

  /** Removes what was laid out. */
  async remove(): Promise<void> {
    const folder = await this.folder?.catch(() => undefined);
    if (folder) await rm(folder, { recursive: true, force: true });
  }
}
