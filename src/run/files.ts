/**
 * File bindings: what a caller may give for a file input, and how each is checked and
 * turned into either a JSON binding or a multipart part.
 */
import { access, constants, open as openFile, stat, type FileHandle } from "node:fs/promises";
import path from "node:path";
import type { Buffers } from "../core/wire/buffers.js";
import { formatBytes } from "../core/bytes.js";
import { MAX_FILE_BYTES } from "./limits.js";
import { mediaTypeFor } from "./media-types.js";
import type { ByteSource } from "./multipart.js";

export { mediaTypeFor } from "./media-types.js";
import { relativePathProblem } from "./relative-path.js";
import { isObject } from "../core/json.js";
import { count } from "../core/words/count.js";

/** A file the caller's own browser reads from `<desktop>/reduck`; it keeps its own name. */
export interface NamedFile {
  relativePath: string;
}
/** A very small file carried in the JSON body (which is limited to 100 KB). */
export interface InlineFile {
  b64: string;
  mime: string;
}
/** Bytes read from a file on this machine, streamed from disk. */
export interface PathFile {
  path: string;
  /** Media type; by default from the file name, else application/octet-stream. */
  type?: string;
}

/**
 * Bytes read from a file you opened (`await fs.promises.open(path)`): read from its start on
 * every attempt, never closed by the library (you close it once the run is over).
 */
export interface OpenFile {
  handle: FileHandle;
  /** How messages name the file (default: the input's name). */
  name?: string;
  /** Media type; by default from `name`, else application/octet-stream. */
  type?: string;
}

/**
 * What a file input can be bound to. Bytes (a path, an open file, a Blob, a Buffer) travel
 * as multipart parts and arrive named after the input; a named file keeps its own name.
 */
export type FileSource = NamedFile | InlineFile | PathFile | OpenFile | Blob | Uint8Array;
export type BytesSource = PathFile | OpenFile | Blob | Uint8Array;

export type JsonBinding = NamedFile | InlineFile;

export interface BytesPart {
  /** `<step>:<input>` */
  name: string;
  source: ByteSource;
  type: string;
}

/** A file's size differs from the one announced in Content-Length, or it could not be read when sent. */
export class FileChangedError extends Error {
  override name = "FileChangedError";
}

function changed(label: string, was: number, now: number): FileChangedError {
  return new FileChangedError(`${label} changed while it was being sent: it was ${was} bytes, now ${now}`);
}

/**
 * Exactly `size` bytes of an open file, read from its start chunk by chunk into the sender's
 * buffers (so memory stays flat however large the file). A file that is shorter or longer than
 * announced fails at once: the body must match its Content-Length, or the request would hang
 * (too short) or be cut (too long).
 */
async function* exactChunks(
  label: string,
  size: number,
  buffers: Buffers,
  acquire: () => Promise<FileHandle>,
  release: (handle: FileHandle) => Promise<void>,
): AsyncGenerator<Uint8Array> {
  let handle: FileHandle | undefined;
  const sizeNow = async (h: FileHandle) => Number((await h.stat()).size);
  try {
    try {
      handle = await acquire();
      const now = await sizeNow(handle);
      if (now !== size) throw changed(label, size, now);
      for (let position = 0; position < size; ) {
        const buffer = await buffers.take();
        const want = Math.min(buffer.byteLength, size - position);
        try {
          for (let filled = 0; filled < want; ) {
            const { bytesRead } = await handle.read(buffer, filled, want - filled, position + filled);
            if (bytesRead === 0) throw changed(label, size, await sizeNow(handle));
            filled += bytesRead;
          }
          position += want;
          // The last chunk goes out only if the file still has the announced size.
          if (position === size) {
            const last = await sizeNow(handle);
            if (last !== size) throw changed(label, size, last);
          }
        } catch (err) {
          buffers.give(buffer);
          throw err;
        }
        yield buffer.subarray(0, want);
      }
    } catch (err) {
      if (err instanceof FileChangedError) throw err;
      const code = (err as NodeJS.ErrnoException)?.code;
      // The pool closed: the attempt ended for another reason, which is reported instead.
      if (!code) throw err;
      throw new FileChangedError(`${label} could not be read while it was being sent (${code})`);
    }
  } finally {
    if (handle) await release(handle).catch(() => undefined);
  }
}

/** A file named by path: opened when the request is sent (again on a retry), closed when read. */
export function pathSource(file: string, size: number): ByteSource {
  const open = new Set<FileHandle>();
  return {
    size,
    chunks: (buffers) =>
      exactChunks(
        file,
        size,
        buffers,
        async () => {
          const handle = await openFile(file, "r");
          open.add(handle);
          return handle;
        },
        async (handle) => {
          open.delete(handle);
          await handle.close();
        },
      ),
    // Whatever the request did not finish reading (a failed attempt, an early answer).
    async release() {
      await Promise.all([...open].map((handle) => handle.close().catch(() => undefined)));
      open.clear();
    },
  };
}

/** A file the caller opened: read from its start with positional reads, never closed here. */
function handleSource(handle: FileHandle, label: string, size: number): ByteSource {
  return {
    size,
    chunks: (buffers) =>
      exactChunks(
        label,
        size,
        buffers,
        async () => handle,
        async () => undefined,
      ),
  };
}

function memorySource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.byteLength,
    async *chunks() {
      yield bytes;
    },
  };
}

function blobSource(blob: Blob): ByteSource {
  return {
    size: blob.size,
    async *chunks() {
      for await (const chunk of blob.stream() as unknown as AsyncIterable<Uint8Array>) yield chunk;
    },
  };
}

/** A file the run cannot send, said before anything is sent: `code` what is wrong, `input` the file input. */
export class FileProblem extends Error {
  override name = "FileProblem";
  constructor(
    message: string,
    readonly code: "file_missing" | "file_unreadable" | "file_too_large" | "invalid_file",
    readonly input: string,
  ) {
    super(message);
  }
}

export function isBytes(source: unknown): source is BytesSource {
  return source instanceof Blob || source instanceof Uint8Array || (isObject(source) && ("path" in source || "handle" in source));
}

export function isInline(source: unknown): source is InlineFile {
  return isObject(source) && "b64" in source;
}

/**
 * Why a value a JavaScript caller passed is not a file binding at all (checked before its
 * kind is looked at), or undefined when it has a usable shape.
 */
export function fileSourceProblem(input: string, source: unknown): string | undefined {
  const kinds =
    "{ path } for a file on this disk, { relativePath } for one in the reduck folder, { b64, mime }, an open FileHandle as { handle }, a Blob or a Buffer";
  if (typeof source === "string") {
    return `file input ${input}: give { path: ${JSON.stringify(source)} } to send a file from this disk, or { relativePath: ${JSON.stringify(source)} } for a file in the reduck folder`;
  }
  if (source instanceof Blob || source instanceof Uint8Array) return undefined;
  if (!isObject(source) || Array.isArray(source)) return `file input ${input}: expected ${kinds}`;
  if ("path" in source) {
    if (typeof source.path !== "string" || !source.path) return `file input ${input}: path must be the file's path as a non-empty string`;
  } else if ("handle" in source) {
    const handle = source.handle as Partial<FileHandle> | undefined;
    if (typeof handle?.read !== "function" || typeof handle?.stat !== "function") {
      return `file input ${input}: handle must be an open file from fs.promises.open()`;
    }
  } else if (!("relativePath" in source) && !("b64" in source)) {
    return `file input ${input}: expected ${kinds}`;
  }
  if ("type" in source && source.type !== undefined && typeof source.type !== "string") return `file input ${input}: type must be a media type string`;
  return undefined;
}

/** Checks a JSON binding before anything is sent. */
export function checkJsonBinding(input: string, source: JsonBinding): JsonBinding {
  if ("relativePath" in source) {
    const problem = relativePathProblem(source.relativePath);
    if (problem) throw new FileProblem(`file input ${input}: ${JSON.stringify(source.relativePath)} ${problem}`, "invalid_file", input);
    return { relativePath: source.relativePath };
  }
  if (typeof source.b64 !== "string" || typeof source.mime !== "string" || !source.mime) {
    throw new FileProblem(`file input ${input}: an inline file needs b64 (base64 text) and mime (a media type)`, "invalid_file", input);
  }
  return { b64: source.b64, mime: source.mime };
}

/** Describes bytes for a multipart part, checking existence, kind and size first (once: a path the CLI checked is not checked again). Leaves nothing open. */
export async function openBytes(step: number, input: string, source: BytesSource): Promise<BytesPart> {
  const name = `${step}:${input}`;
  if (source instanceof Blob) {
    checkSize(input, source.size);
    return { name, source: blobSource(source), type: source.type || "application/octet-stream" };
  }
  if (source instanceof Uint8Array) {
    checkSize(input, source.byteLength);
    return { name, source: memorySource(source), type: "application/octet-stream" };
  }
  if ("handle" in source) {
    const label = source.name ?? input;
    let info: Awaited<ReturnType<FileHandle["stat"]>>;
    try {
      info = await source.handle.stat();
    } catch (err) {
      throw new FileProblem(`file input ${input}: cannot read ${label} (${(err as NodeJS.ErrnoException).code ?? String(err)})`, "file_unreadable", input);
    }
    if (!info.isFile()) throw new FileProblem(`file input ${input}: ${label} is not a regular file`, "file_unreadable", input);
    checkSize(input, info.size, label);
    const type = source.type || (source.name ? await mediaTypeFor(path.basename(source.name)) : "application/octet-stream");
    return { name, source: handleSource(source.handle, label, info.size), type };
  }
  const file = source.path;
  const checked = checkedPaths.get(source);
  checkedPaths.delete(source);
  const size = checked?.size ?? (await checkPath(input, file));
  const type = source.type || (await mediaTypeFor(path.basename(file)));
  // Opened when the request is sent (and again on a retry), streamed from disk.
  return { name, source: pathSource(file, size), type };
}

/** Paths the CLI checked before its contract lookups, with the size found; read once by openBytes. */
const checkedPaths = new WeakMap<PathFile, { size: number }>();

/**
 * Checks a file named by path: it exists, is a regular file within the limit, and is readable.
 * The one place a path is checked; its size is what the request announces.
 */
async function checkPath(input: string, file: string): Promise<number> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new FileProblem(
      code === "ENOENT" ? `file input ${input}: ${file} does not exist` : `file input ${input}: cannot read ${file} (${code ?? String(err)})`,
      code === "ENOENT" ? "file_missing" : "file_unreadable",
      input,
    );
  }
  if (!info.isFile()) throw new FileProblem(`file input ${input}: ${file} is not a regular file`, "file_unreadable", input);
  checkSize(input, info.size, file);
  await access(file, constants.R_OK).catch(() => {
    throw new FileProblem(`file input ${input}: ${file} is not readable (check its permissions)`, "file_unreadable", input);
  });
  return info.size;
}

/**
 * Checks a file named by path ahead of the run (the CLI does, before any request), so the run
 * that sends it checks nothing again: pass the returned `{ path }` as the file's source. Throws
 * a FileProblem in the words the run would use.
 *
 * @example
 * const source = await checkPathFile("document", "./contract.pdf");
 * await runScript({ client, script: { host, slug, files: { document: source } } });
 */
export async function checkPathFile(input: string, file: string): Promise<PathFile> {
  const source: PathFile = { path: file };
  checkedPaths.set(source, { size: await checkPath(input, file) });
  return source;
}

/**
 * Checks a file named by path, for checks far ahead of the run (a batch's rows).
 *
 * @example
 * await checkPathFileOnly("document", "./contract.pdf"); // throws a FileProblem if it cannot be sent
 */
export async function checkPathFileOnly(input: string, file: string): Promise<void> {
  await checkPath(input, file);
}

function checkSize(input: string, size: number, file?: string) {
  if (size > MAX_FILE_BYTES) {
    // Exact byte counts: a file one byte over is "50 MiB" when rounded, which would not say why.
    throw new FileProblem(
      `file input ${input}: ${file ? `${file} is` : "the file is"} ${count(size)} bytes, over the ${formatBytes(MAX_FILE_BYTES)} limit per file (${count(MAX_FILE_BYTES)} bytes)`,
      "file_too_large",
      input,
    );
  }
}
