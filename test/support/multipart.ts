/** Multipart bodies as a real parser (busboy, which the client does not use) reads them. */
import { createHash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";
import busboy from "busboy";

export interface ReceivedFile {
  filename: string;
  mimeType: string;
  size: number;
  sha256: string;
}

/**
 * Reads a multipart body to its end: its fields, and of each file part its name, type, size
 * and SHA-256.
 *
 * @example
 * const { files } = await readMultipart(req.headers, req);
 */
export async function readMultipart(
  headers: IncomingHttpHeaders,
  body: Readable,
): Promise<{ fields: Record<string, string>; files: Record<string, ReceivedFile> }> {
  const fields: Record<string, string> = {};
  const files: Record<string, ReceivedFile> = {};
  await new Promise<void>((resolve, reject) => {
    const parser = busboy({ headers });
    parser.on("field", (name, value) => (fields[name] = value));
    parser.on("file", (name, stream, info) => {
      const hash = createHash("sha256");
      let size = 0;
      stream.on("data", (chunk: Buffer) => {
        hash.update(chunk);
        size += chunk.length;
      });
      stream.on("end", () => (files[name] = { filename: info.filename, mimeType: info.mimeType, size, sha256: hash.digest("hex") }));
    });
    parser.on("close", resolve);
    parser.on("error", reject);
    body.pipe(parser);
  });
  return { fields, files };
}
