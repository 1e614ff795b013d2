import { Readable } from "node:stream";
import { createHash } from "node:crypto";
import busboy from "busboy";
import { describe, expect, test } from "vitest";
import { encodeMultipart, countBytes } from "../../src/run/multipart.js";

/** Parses a body with busboy, a real multipart parser, independent of our encoder. */
async function parse(contentType: string, stream: ReadableStream<Uint8Array>) {
  const fields: Record<string, string> = {};
  const files: Record<string, { filename: string; mimeType: string; sha256: string; size: number }> = {};
  await new Promise<void>((resolve, reject) => {
    const bb = busboy({ headers: { "content-type": contentType } });
    bb.on("field", (name, value) => (fields[name] = value));
    bb.on("file", (name, file, info) => {
      const hash = createHash("sha256");
      let size = 0;
      file.on("data", (c: Buffer) => {
        hash.update(c);
        size += c.length;
      });
      file.on("end", () => (files[name] = { filename: info.filename, mimeType: info.mimeType, sha256: hash.digest("hex"), size }));
    });
    bb.on("close", resolve);
    bb.on("error", reject);
    Readable.fromWeb(stream as any).pipe(bb);
  });
  return { fields, files };
}

describe("the multipart encoder", () => {
  test("a parser reads back the spec and the bytes, and the length is exact", async () => {
    const bytes = new Uint8Array(300_000).map((_, i) => (i * 7) % 256);
    const body = encodeMultipart([
      { name: "spec", value: '{"script":{"host":"a.com","slug":"s"}}', type: "application/json" },
      { name: "0:attachment", value: { size: bytes.length, open: () => new Blob([bytes]).stream() }, type: "image/png", filename: "attachment" },
    ]);
    let counted = 0;
    const chunks: Uint8Array[] = [];
    const reader = body.stream().pipeThrough(countBytes((n) => (counted = n))).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    const all = Buffer.concat(chunks);
    expect(all.length).toBe(body.length);
    expect(counted).toBe(body.length);

    const { fields, files } = await parse(body.contentType, new Blob([all]).stream());
    expect(JSON.parse(fields.spec)).toEqual({ script: { host: "a.com", slug: "s" } });
    expect(files["0:attachment"]).toEqual({
      filename: "attachment",
      mimeType: "image/png",
      size: bytes.length,
      sha256: createHash("sha256").update(bytes).digest("hex"),
    });
  });

  test("names with quotes cannot break out of the header", async () => {
    const body = encodeMultipart([{ name: 'x"; filename="evil', value: "v" }]);
    const { fields } = await parse(body.contentType, body.stream());
    expect(Object.keys(fields)).toEqual(['x%22; filename=%22evil']);
  });
});
