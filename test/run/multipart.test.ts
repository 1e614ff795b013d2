import { Readable } from "node:stream";
import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { bufferPool, freshBuffers } from "../../src/core/wire/buffers.js";
import { encodeMultipart, type MultipartBody } from "../../src/run/multipart.js";
import { present } from "../support/present.js";
import { readMultipart } from "../support/multipart.js";

/** Parses a body with busboy, a real multipart parser, independent of our encoder. */
const parse = (contentType: string, stream: ReadableStream<Uint8Array>) => readMultipart({ "content-type": contentType }, Readable.fromWeb(stream as any));

/** The whole body, each chunk copied before its buffer is given back (as a sender does once it is sent). */
async function collect(body: MultipartBody, buffers = freshBuffers()): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  for await (const chunk of body.chunks(buffers)) {
    chunks.push(Buffer.from(chunk));
    buffers.give(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

describe("the multipart encoder", () => {
  test("a parser reads back the spec and the bytes, and the length is exact", async () => {
    const bytes = new Uint8Array(300_000).map((_, i) => (i * 7) % 256);
    const body = encodeMultipart([
      { name: "spec", value: '{"script":{"host":"a.com","slug":"s"}}', type: "application/json" },
      {
        name: "0:attachment",
        value: {
          size: bytes.length,
          chunks: async function* () {
            yield bytes;
          },
        },
        type: "image/png",
        filename: "attachment",
      },
    ]);
    const all = await collect(body);
    expect(all.length).toBe(body.length);

    const { fields, files } = await parse(body.contentType, new Blob([all]).stream());
    expect(JSON.parse(present(fields.spec, "the spec field"))).toEqual({ script: { host: "a.com", slug: "s" } });
    expect(files["0:attachment"]).toEqual({
      filename: "attachment",
      mimeType: "image/png",
      size: bytes.length,
      sha256: createHash("sha256").update(bytes).digest("hex"),
    });
  });

  test("each body has a boundary of its own: 96 random bits, never the same twice", () => {
    const boundaries = Array.from({ length: 2000 }, () => encodeMultipart([{ name: "a", value: "b" }]).contentType.split("boundary=")[1]!);
    for (const boundary of boundaries) expect(boundary).toMatch(/^----reduck-[0-9a-f]{24}$/);
    expect(new Set(boundaries).size).toBe(boundaries.length);
    // Every hex digit takes every value somewhere: no position is stuck.
    for (let i = 11; i < 35; i++) expect(new Set(boundaries.map((b) => b[i])).size).toBe(16);
  });

  test("names with quotes cannot break out of the header", async () => {
    const body = encodeMultipart([{ name: 'x"; filename="evil', value: "v" }]);
    const { fields } = await parse(body.contentType, new Blob([await collect(body)]).stream());
    expect(Object.keys(fields)).toEqual(["x%22; filename=%22evil"]);
  });
});

describe("the buffers a file is read into", () => {
  test("a pool hands out at most its buffers, and reuses each once it is given back", async () => {
    const pool = bufferPool(2, 16);
    const a = await pool.take();
    const b = await pool.take();
    let third: Uint8Array | undefined;
    const waiting = pool.take().then((c) => (third = c));
    await new Promise((r) => setTimeout(r, 10));
    expect(third).toBeUndefined();
    pool.give(a.subarray(0, 5));
    await waiting;
    expect(third!.buffer).toBe(a.buffer);
    expect(third!.byteLength).toBe(16);
    pool.give(new Uint8Array(16)); // not the pool's: ignored
    pool.close(new Error("attempt over"));
    await expect(pool.take()).rejects.toThrow("attempt over");
    expect(b.byteLength).toBe(16);
  });
});
