// Reading a POST /run body within the service's limits, without ever holding a file in memory.
//
// - JSON: refused from its Content-Length when that is over MAX_JSON_BODY_BYTES, else counted while
//   read and refused the moment it passes the limit.
// - Multipart: parsed as it streams (busboy). Each file part is hashed chunk by chunk and kept as
//   `{ name, size, type, sha256 }`, its bytes written to a file of their own only when asked (the
//   real browser puts them into a file field); a part that passes MAX_FILE_BYTES stops the reading
//   at once.
import { createHash } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import path from "node:path";
import { finished as streamFinished } from "node:stream/promises";
import busboy from "busboy";
import { MAX_FILE_BYTES, MAX_JSON_BODY_BYTES, formatBytes } from "../../contract/service-rules.js";
import { ApiError } from "../errors.js";
import { present } from "../../contract/present.js";

/** The request body stopped before it was complete: the client went away or aborted the upload. */
export class UploadInterrupted extends Error {
  override name = "UploadInterrupted";
}

export function payloadTooLarge(what: string): ApiError {
  return new ApiError(413, `Payload Too Large: ${what}`);
}

function jsonTooLarge(size: string): ApiError {
  return payloadTooLarge(
    `the JSON run request is ${size}, over the ${formatBytes(MAX_JSON_BODY_BYTES)} limit: send files as bytes (multipart parts) instead of inline b64`,
  );
}

/** The next chunk of a request body; a connection lost mid-body is an interrupted upload, not a bad request. */
async function nextChunk(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<ReadableStreamReadResult<Uint8Array>> {
  try {
    return await reader.read();
  } catch {
    throw new UploadInterrupted("upload interrupted");
  }
}

/**
 * The JSON run request, parsed (not yet checked against RunRequest). Reads at most
 * MAX_JSON_BODY_BYTES; exactly the limit is accepted.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const declared = request.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > MAX_JSON_BODY_BYTES) {
    // Refused without reading a byte of it.
    throw jsonTooLarge(`${Number(declared).toLocaleString("en-US")} bytes`);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const chunk = await nextChunk(reader);
      if (chunk.done) break;
      total += chunk.value.byteLength;
      if (total > MAX_JSON_BODY_BYTES) {
        void reader.cancel().catch(() => undefined);
        throw jsonTooLarge(`over ${formatBytes(MAX_JSON_BODY_BYTES)}`);
      }
      chunks.push(chunk.value);
    }
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new ApiError(400, "The run request is not valid UTF-8 text: send it as JSON");
  }
  if (!text.trim()) throw new ApiError(400, "The run request is empty: send a JSON object with script (or scripts)");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, `The run request is not valid JSON (${(error as Error).message})`);
  }
}

/** A file part as received: its `<step>:<input>` name and what its bytes were. */
export interface ReceivedPart {
  /** The part name, `<step>:<input>`. */
  part: string;
  step: number;
  input: string;
  size: number;
  /** The part's Content-Type (application/octet-stream when none). */
  type: string;
  sha256: string;
  /** The part's `filename` parameter, as sent. */
  filename?: string;
  /** Where its bytes are, when they were kept (see readMultipartBody's `keepIn`). */
  path?: string;
}

export interface MultipartHandlers {
  /** The `spec` part's text, as soon as it has arrived. Throw (an ApiError) to refuse the request. */
  onSpec(text: string): void;
  /** A file part's header has arrived; throw to refuse it before its bytes are read. */
  onPartStart(part: { part: string; step: number; input: string }): void;
  /** A file part has arrived whole. */
  onPart(part: ReceivedPart): void;
}

/** `<step>:<input>`: a step index (0, 1, ...) and a non-empty input name. */
const PART_NAME = /^(0|[1-9]\d{0,5}):(.+)$/;

export function partNameProblem(name: string): ApiError {
  return new ApiError(
    400,
    `Unexpected multipart part ${JSON.stringify(name)}: parts are spec (the run request) and files named <step>:<input>, e.g. 0:attachment`,
  );
}

/**
 * Streams a multipart run request through busboy, calling `handlers` as parts arrive. Resolves when
 * the whole body has been read; rejects with an ApiError (400, 413, or whatever a handler threw) or
 * UploadInterrupted, after which nothing more of the body is read.
 *
 * The file limit is MAX_FILE_BYTES + 1 because busboy reports `limit` on *reaching* its limit:
 * a part of exactly MAX_FILE_BYTES is allowed, the first byte after it is not.
 *
 * With `keepIn` (an existing folder), each file part's bytes are written there too, in a file named
 * after its order (`0`, `1`...), and the body counts as read once every such file is whole. On a
 * failure every file is closed; removing the folder is the caller's (whatever happened).
 */
export async function readMultipartBody(
  request: Request,
  contentType: string,
  handlers: MultipartHandlers,
  { keepIn }: { keepIn?: string } = {},
): Promise<void> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      // Part headers arrive as UTF-8, as browsers and our client send them (RFC 7578 §5.1);
      // busboy's default, latin1, garbles `pièce-jointe` and any non-Latin name.
      defParamCharset: "utf8",
      limits: { fileSize: MAX_FILE_BYTES + 1, fieldSize: MAX_JSON_BODY_BYTES + 1, fieldNameSize: 1024 },
    });
  } catch (error) {
    throw new ApiError(400, `The multipart body cannot be read: ${(error as Error).message}`);
  }
  if (!request.body) throw new ApiError(400, "The run request is empty: send a spec part with the run request");
  const reader = request.body.getReader();

  let failure: unknown;
  let failed!: (error: unknown) => void;
  /** Files the kept parts are being written to, and when each is whole. */
  const writers: WriteStream[] = [];
  const written: Array<Promise<unknown>> = [];
  const failedPromise = new Promise<never>((_, reject) => (failed = reject));
  failedPromise.catch(() => undefined);

  const fail = (error: unknown) => {
    if (failure !== undefined) return;
    failure = error;
    // Stop reading: nothing more of the body is parsed (or held) once the answer is decided.
    void reader.cancel().catch(() => undefined);
    parser.destroy();
    for (const writer of writers) writer.destroy();
    failed(error);
  };
  const attempt = (action: () => void) => {
    try {
      action();
    } catch (error) {
      fail(error);
    }
  };
  const specTooLarge = () => payloadTooLarge(`the spec part is over the ${formatBytes(MAX_JSON_BODY_BYTES)} limit`);

  parser.on("field", (name, value, info) => {
    if (failure !== undefined) return;
    attempt(() => {
      if (name === "spec") {
        if (info.valueTruncated) throw specTooLarge();
        handlers.onSpec(value);
      } else if (PART_NAME.test(name)) {
        throw new ApiError(400, `Part ${name} carries no file: send its bytes as a file part (with a filename), e.g. curl -F '${name}=@file.pdf'`);
      } else {
        throw partNameProblem(name);
      }
    });
  });

  parser.on("file", (name, stream, info) => {
    // Destroying the parser (on a refusal) destroys the part being read with an error: expected.
    stream.on("error", () => undefined);
    if (failure !== undefined) return void stream.resume();
    if (name === "spec") {
      // The run request sent as a file (curl -F spec=@spec.json): small, so collected whole.
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_JSON_BODY_BYTES) fail(specTooLarge());
        else chunks.push(chunk);
      });
      stream.on("end", () => failure === undefined && attempt(() => handlers.onSpec(Buffer.concat(chunks).toString("utf8"))));
      return;
    }
    const match = PART_NAME.exec(name);
    if (!match) {
      stream.resume();
      return fail(partNameProblem(name));
    }
    const part = { part: name, step: Number(match[1]), input: present(match[2], `an input name in part ${name}, as PART_NAME matched`) };
    try {
      handlers.onPartStart(part);
    } catch (error) {
      stream.resume();
      return fail(error);
    }
    const hash = createHash("sha256");
    let size = 0;
    stream.on("data", (chunk: Buffer) => {
      hash.update(chunk);
      size += chunk.length;
    });
    let kept: string | undefined;
    if (keepIn !== undefined) {
      kept = path.join(keepIn, String(writers.length));
      const writer = createWriteStream(kept, { flags: "wx", highWaterMark: 1024 * 1024 });
      writers.push(writer);
      // The file's pace is the upload's: a slow disk pauses the part, and so the whole body.
      stream.pipe(writer);
      const whole = streamFinished(writer);
      whole.catch((error: unknown) => fail(new ApiError(500, `sandbox could not keep part ${name}: ${(error as Error).message}`)));
      written.push(whole.catch(() => undefined));
    }
    stream.on("limit", () => fail(payloadTooLarge(`file part ${name} is over the ${formatBytes(MAX_FILE_BYTES)} limit`)));
    stream.on("end", () => {
      if (failure !== undefined || stream.truncated) return;
      attempt(() =>
        handlers.onPart({
          ...part,
          size,
          type: info.mimeType || "application/octet-stream",
          sha256: hash.digest("hex"),
          filename: info.filename,
          ...(kept ? { path: kept } : {}),
        }),
      );
    });
  });

  const finished = new Promise<void>((resolve, reject) => {
    parser.on("finish", resolve);
    parser.on("error", (error: Error) => reject(new ApiError(400, `The multipart body is malformed: ${error.message}`)));
  });
  finished.catch(() => undefined);

  const pump = async () => {
    for (;;) {
      const chunk = await nextChunk(reader);
      if (failure !== undefined) return;
      if (chunk.done) {
        parser.end();
        return;
      }
      if (!parser.write(chunk.value)) {
        await Promise.race([new Promise((resolve) => parser.once("drain", resolve)), failedPromise, finished]);
      }
    }
  };

  try {
    await Promise.race([pump().then(() => finished), failedPromise]);
    // The kept parts are on disk (or failed, which fails the body) before anyone reads them.
    await Promise.race([Promise.all(written), failedPromise]);
  } catch (error) {
    fail(error);
  }
  if (failure !== undefined) throw failure;
}
