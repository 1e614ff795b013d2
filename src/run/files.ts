/**
 * File bindings: what a caller may give for a file input, and how each is checked and
 * turned into either a JSON binding or a multipart part.
 */
import { constants } from "node:fs";
import { open as openFile, stat, type FileHandle } from "node:fs/promises";
import path from "node:path";
import type { Buffers } from "./buffers.js";
import { formatBytes } from "../core/bytes.js";
import { MAX_FILE_BYTES } from "./limits.js";
import { mediaTypeFor } from "./media-types.js";
import type { ByteSource } from "./multipart.js";

export { mediaTypeFor } from "./media-types.js";
import { relativePathProblem } from "./relative-path.js";

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
  sizeAtStart?: (handle: FileHandle) => Promise<number>,
): AsyncGenerator<Uint8Array> {
  let handle: FileHandle | undefined;
  const sizeNow = async (h: FileHandle) => Number((await h.stat()).size);
  try {
    try {
      handle = await acquire();
      const now = await (sizeAtStart ?? sizeNow)(handle);
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

/**
 * A file named by path, opened once when it was checked: the first attempt reads that handle;
 * a retry (only after a connection that was never made) opens the path again. Whatever is open
 * is closed when the attempt is released.
 */
function pathSource(file: string, checked: CheckedPath): ByteSource {
  const { size } = checked;
  const open = new Set<FileHandle>();
  let first: FileHandle | undefined = checked.handle;
  return {
    size,
    chunks: (buffers) =>
      exactChunks(
        file,
        size,
        buffers,
        async () => {
          const handle = first ?? (await openFile(file, "r"));
          first = undefined;
          open.add(handle);
          return handle;
        },
        async (handle) => {
          open.delete(handle);
          await handle.close();
        },
        // The checked handle still reads the file that was checked: the path must still name it
        // (a file replaced since, or a folder put in its place, is a change too).
        async (handle) => {
          if (handle !== checked.handle) return Number((await handle.stat()).size);
          const now = await stat(file);
          if (now.ino !== checked.ino || now.dev !== checked.dev) throw changed(file, size, now.size);
          return now.size;
        },
      ),
    // Whatever the request did not finish reading (a failed attempt, an early answer, no attempt at all).
    async release() {
      const unread = first ? [first] : [];
      first = undefined;
      await Promise.all([...unread, ...open].map((handle) => handle.close().catch(() => undefined)));
      open.clear();
    },
  };
}

/** A file the caller opened: read from its start with positional reads, never closed here. */
function handleSource(handle: FileHandle, label: string, size: number): ByteSource {
  return { size, chunks: (buffers) => exactChunks(label, size, buffers, async () => handle, async () => undefined) };
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

export class FileProblem extends Error {
  override name = "FileProblem";
  /** The file's size, when the problem is that it is over the limit. */
  overLimitSize?: number;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

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
  const kinds = "{ path } for a file on this disk, { relativePath } for one in the reduck folder, { b64, mime }, an open FileHandle as { handle }, a Blob or a Buffer";
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
    if (problem) throw new FileProblem(`file input ${input}: ${JSON.stringify(source.relativePath)} ${problem}`);
    return { relativePath: source.relativePath };
  }
  if (typeof source.b64 !== "string" || typeof source.mime !== "string" || !source.mime) {
    throw new FileProblem(`file input ${input}: an inline file needs b64 (base64 text) and mime (a media type)`);
  }
  return { b64: source.b64, mime: source.mime };
}

/**
 * Describes bytes for a multipart part, checking existence, kind and size first. A path is opened
 * here (once) and stays open for the request, which closes it when released.
 */
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
    let info;
    try {
      info = await source.handle.stat();
    } catch (err) {
      throw new FileProblem(`file input ${input}: cannot read ${label} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
    if (!info.isFile()) throw new FileProblem(`file input ${input}: ${label} is not a regular file`);
    checkSize(input, info.size, label);
    const type = source.type || (source.name ? await mediaTypeFor(path.basename(source.name)) : "application/octet-stream");
    return { name, source: handleSource(source.handle, label, info.size), type };
  }
  const file = source.path;
  const checked = checkedPaths.get(source);
  checkedPaths.delete(source);
  const opened = checked ?? (await openChecked(input, file));
  try {
    const type = source.type || (await mediaTypeFor(path.basename(file)));
    return { name, source: pathSource(file, opened), type };
  } catch (err) {
    await opened.handle.close().catch(() => undefined);
    throw err;
  }
}

/** Paths the CLI checked and opened before its contract lookups, with what was found; read once by openBytes. */
const checkedPaths = new WeakMap<PathFile, CheckedPath>();

/** A path opened and checked: its handle, size and identity (to see it was not replaced before it is sent). */
interface CheckedPath {
  handle: FileHandle;
  size: number;
  dev: number;
  ino: number;
}

// O_NONBLOCK: a named pipe given by mistake is refused as "not a regular file" instead of hanging the open.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Opens a file named by path and checks it, all on the one open handle: it exists, is readable,
 * is a regular file and is within the limit. The one place a path is checked; it is then read
 * from this same handle.
 */
async function openChecked(input: string, file: string): Promise<CheckedPath> {
  let handle: FileHandle;
  try {
    handle = await openFile(file, OPEN_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new FileProblem(`file input ${input}: ${file} does not exist`);
    if (code === "EACCES" || code === "EPERM") throw new FileProblem(`file input ${input}: ${file} is not readable (check its permissions)`);
    throw new FileProblem(`file input ${input}: cannot read ${file} (${code ?? String(err)})`);
  }
  try {
    let info;
    try {
      info = await handle.stat();
    } catch (err) {
      throw new FileProblem(`file input ${input}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
    if (!info.isFile()) throw new FileProblem(`file input ${input}: ${file} is not a regular file`);
    checkSize(input, info.size, file);
    return { handle, size: info.size, dev: info.dev, ino: info.ino };
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
}

/**
 * Checks a file named by path ahead of the run (the CLI does, before any request) and keeps it
 * open, so the run that sends it checks and opens nothing again: pass the returned `{ path }`
 * as the file's source. Throws a FileProblem in the words the run would use; close it with
 * {@link closeCheckedFile} if the run never takes it.
 *
 * @example
 * const source = await checkPathFile("document", "./contract.pdf");
 * try { await runScript({ client, script: { host, slug, files: { document: source } } }); }
 * finally { await closeCheckedFile(source); }
 */
export async function checkPathFile(input: string, file: string): Promise<PathFile> {
  const source: PathFile = { path: file };
  checkedPaths.set(source, await openChecked(input, file));
  return source;
}

/**
 * Checks a file named by path and closes it again: for checks far ahead of the run (a batch's
 * rows), which should not hold a file open each.
 *
 * @example
 * await checkPathFileOnly("document", "./contract.pdf"); // throws a FileProblem if it cannot be sent
 */
export async function checkPathFileOnly(input: string, file: string): Promise<void> {
  const { handle } = await openChecked(input, file);
  await handle.close();
}

/** Closes a file {@link checkPathFile} opened, if no run took it (a no-op otherwise). */
export async function closeCheckedFile(source: PathFile): Promise<void> {
  const checked = checkedPaths.get(source);
  checkedPaths.delete(source);
  await checked?.handle.close().catch(() => undefined);
}

function checkSize(input: string, size: number, file?: string) {
  if (size > MAX_FILE_BYTES) {
    // Exact byte counts: "50 MB, over the 50 MB limit" would not say why.
    const bytes = (n: number) => n.toLocaleString("en-US");
    const problem = new FileProblem(
      `file input ${input}: ${file ? `${file} is` : "the file is"} ${formatBytes(size)} (${bytes(size)} bytes), over the ${formatBytes(MAX_FILE_BYTES)} limit per file (${bytes(MAX_FILE_BYTES)} bytes)`,
    );
    problem.overLimitSize = size;
    throw problem;
  }
}
