/**
 * File bindings: what a caller may give for a file input, and how each is checked and
 * turned into either a JSON binding or a multipart part.
 */
import { open as openFile } from "node:fs/promises";
import { access, constants, stat } from "node:fs/promises";
import path from "node:path";
import { MAX_FILE_BYTES, formatBytes } from "./limits.js";
import type { ByteSource } from "./multipart.js";
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
 * What a file input can be bound to. Bytes (a path, a Blob, a Buffer) travel as multipart
 * parts and arrive named after the input; a named file keeps its own name.
 */
export type FileSource = NamedFile | InlineFile | PathFile | Blob | Uint8Array;

export type JsonBinding = NamedFile | InlineFile;

export interface BytesPart {
  /** `<step>:<input>` */
  name: string;
  source: ByteSource;
  type: string;
}

/**
 * Files are read in 1 MiB chunks: `fs.openAsBlob(...).stream()` reads 64 KiB at a time,
 * which measured about 5x slower for a 50 MB upload (see npm run bench).
 */
const READ_CHUNK = 1024 * 1024;

/**
 * Reads a file chunk by chunk as the request pulls: one chunk in flight, so memory stays flat
 * however large the file. (`Readable.toWeb` on Node 20 reads ahead without backpressure.)
 */
function fileSource(file: string, size: number): ByteSource {
  return {
    size,
    open() {
      let handle: Awaited<ReturnType<typeof openFile>> | undefined;
      return new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            handle ??= await openFile(file, "r");
            const chunk = new Uint8Array(READ_CHUNK);
            const { bytesRead } = await handle.read(chunk, 0, READ_CHUNK, null);
            if (bytesRead === 0) {
              await handle.close();
              controller.close();
              return;
            }
            controller.enqueue(bytesRead === READ_CHUNK ? chunk : chunk.subarray(0, bytesRead));
          },
          async cancel() {
            await handle?.close();
          },
        },
        { highWaterMark: 0 },
      );
    },
  };
}

function memorySource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.byteLength,
    open: () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes);
          controller.close();
        },
      }),
  };
}

function blobSource(blob: Blob): ByteSource {
  return { size: blob.size, open: () => blob.stream() as ReadableStream<Uint8Array> };
}

export class FileProblem extends Error {
  override name = "FileProblem";
}

export function isBytes(source: FileSource): source is PathFile | Blob | Uint8Array {
  return source instanceof Blob || source instanceof Uint8Array || (typeof source === "object" && source !== null && "path" in source);
}

export function isInline(source: FileSource): source is InlineFile {
  return typeof source === "object" && source !== null && "b64" in source;
}

/** The media type for a file name; mime-types (and its large database) loads on first use. */
export async function mediaTypeFor(fileName: string): Promise<string> {
  const { default: mime } = await import("mime-types");
  return mime.lookup(fileName) || "application/octet-stream";
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

/** Opens bytes for a multipart part, checking existence, kind and size first. */
export async function openBytes(step: number, input: string, source: PathFile | Blob | Uint8Array): Promise<BytesPart> {
  const name = `${step}:${input}`;
  if (source instanceof Blob) {
    checkSize(input, source.size);
    return { name, source: blobSource(source), type: source.type || "application/octet-stream" };
  }
  if (source instanceof Uint8Array) {
    checkSize(input, source.byteLength);
    return { name, source: memorySource(source), type: "application/octet-stream" };
  }
  const file = source.path;
  let info;
  try {
    info = await stat(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new FileProblem(
      code === "ENOENT" ? `file input ${input}: ${file} does not exist` : `file input ${input}: cannot read ${file} (${code ?? String(err)})`,
    );
  }
  if (!info.isFile()) throw new FileProblem(`file input ${input}: ${file} is not a regular file`);
  checkSize(input, info.size, file);
  await access(file, constants.R_OK).catch(() => {
    throw new FileProblem(`file input ${input}: ${file} is not readable (check its permissions)`);
  });
  const type = source.type || (await mediaTypeFor(path.basename(file)));
  // Opened when the request is sent (and again on a retry), streamed from disk.
  return { name, source: fileSource(file, info.size), type };
}

function checkSize(input: string, size: number, file?: string) {
  if (size > MAX_FILE_BYTES) {
    // Exact byte counts: "50 MB, over the 50 MB limit" would not say why.
    const bytes = (n: number) => n.toLocaleString("en-US");
    throw new FileProblem(
      `file input ${input}: ${file ? `${file} is` : "the file is"} ${formatBytes(size)} (${bytes(size)} bytes), over the ${formatBytes(MAX_FILE_BYTES)} limit per file (${bytes(MAX_FILE_BYTES)} bytes)`,
    );
  }
}
