/**
 * A multipart/form-data body of known length, streamed part by part.
 *
 * Why not `new Response(formData)`: we need the exact length up front, for a
 * Content-Length header (so a server can refuse an oversize upload before reading it) and
 * for an honest progress total. File parts are opened as they are sent and read in chunks,
 * never held whole in memory.
 */
import { randomBytes } from "node:crypto";

/** Bytes of known size that can be read from the start, once per attempt. */
export interface ByteSource {
  size: number;
  open(): ReadableStream<Uint8Array>;
  /** Closes whatever an unfinished stream left open; called once a request is over. */
  release?(): Promise<void>;
}

export interface Part {
  name: string;
  value: string | ByteSource;
  /** For file parts. */
  filename?: string;
  /** For file parts; defaults to application/octet-stream. */
  type?: string;
}

export interface MultipartBody {
  contentType: string;
  length: number;
  /**
   * A fresh stream of the whole body; call once per attempt. `onError` hears at once when a
   * part fails (a file that changed), whether or not the HTTP client reports it.
   */
  stream(onError?: (error: unknown) => void): ReadableStream<Uint8Array>;
  /** Releases every part's resources. */
  release(): Promise<void>;
}

const encoder = new TextEncoder();
const CRLF = encoder.encode("\r\n");

/**
 * Part headers go out as UTF-8, as browsers send them (RFC 7578 §5.1: `filename*` is not used
 * in form data), so `pièce-jointe` or a Japanese name arrive intact.
 */
function quote(value: string): string {
  // RFC 7578: escape quotes and line breaks in parameter values.
  return value.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

export function encodeMultipart(parts: Part[]): MultipartBody {
  const boundary = `----reduck-${randomBytes(12).toString("hex")}`;
  const pieces: Array<Uint8Array | ByteSource> = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${quote(part.name)}"`;
    if (typeof part.value === "string") {
      head += `\r\nContent-Type: ${part.type ?? "text/plain; charset=utf-8"}\r\n\r\n`;
      pieces.push(encoder.encode(head), encoder.encode(part.value), CRLF);
    } else {
      const type = part.type || "application/octet-stream";
      head += `; filename="${quote(part.filename ?? part.name)}"\r\nContent-Type: ${type}\r\n\r\n`;
      pieces.push(encoder.encode(head), part.value, CRLF);
    }
  }
  pieces.push(encoder.encode(`--${boundary}--\r\n`));
  const length = pieces.reduce((n, p) => n + (p instanceof Uint8Array ? p.byteLength : p.size), 0);

  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length,
    stream(onError) {
      let index = 0;
      let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          for (;;) {
            if (reader) {
              let next: ReadableStreamReadResult<Uint8Array>;
              try {
                next = await reader.read();
              } catch (error) {
                onError?.(error);
                throw error;
              }
              if (!next.done) return controller.enqueue(next.value);
              reader = undefined;
              continue;
            }
            const piece = pieces[index++];
            if (piece === undefined) return controller.close();
            if (piece instanceof Uint8Array) return controller.enqueue(piece);
            reader = piece.open().getReader();
          }
        },
        cancel(reason) {
          return reader?.cancel(reason);
        },
      });
    },
    async release() {
      await Promise.all(pieces.map((p) => (p instanceof Uint8Array ? undefined : p.release?.())));
    },
  };
}

/** Passes chunks through unchanged, telling `onChunk` the running total. */
export function countBytes(onChunk: (sent: number) => void): TransformStream<Uint8Array, Uint8Array> {
  let sent = 0;
  return new TransformStream({
    transform(chunk, controller) {
      sent += chunk.byteLength;
      controller.enqueue(chunk);
      onChunk(sent);
    },
  });
}
