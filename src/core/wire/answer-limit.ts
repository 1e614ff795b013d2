/**
 * How much of an answer the client reads into memory. What the service sends is hostile until
 * proven otherwise: an answer that never ends grew a process to 800 MiB before anything stopped
 * it. The service's largest documented answers (a trace, a page of scripts) are far below this.
 * Downloads written to disk stream past it; nothing else does.
 */
import type http from "node:http";
import { formatBytes } from "../bytes.js";

/** The most the client reads of one answer: 32 MiB. */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** An answer larger than the limit: refused by its Content-Length, or cut off as it went past. */
export class AnswerTooLarge extends Error {
  override name = "AnswerTooLarge";
  constructor(
    readonly limit: number,
    /** The Content-Length the server announced, when that is what gave it away. */
    readonly declared?: number,
  ) {
    super(
      declared === undefined
        ? `the answer went past ${formatBytes(limit)}, the most the client reads of one, and was cut off`
        : `the answer is ${formatBytes(declared)} by its Content-Length, over the ${formatBytes(limit)} the client reads of one; nothing of it was read`,
    );
  }
}

/** The Content-Length a server announced, when it is a plain number. */
export function declaredLength(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}

/**
 * The whole body of a node:http answer, at most `limit` bytes. A connection cut mid-answer fails
 * with what the socket said (a reset) if it said anything, else with Node's "aborted".
 */
export function readNodeBody(request: http.ClientRequest, response: http.IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = declaredLength(response.headers["content-length"]);
    const refuse = (err: AnswerTooLarge) => {
      reject(err);
      // The rest is not wanted, and must not keep arriving: the connection goes.
      response.destroy();
      request.destroy();
    };
    if (declared !== undefined && declared > limit) return refuse(new AnswerTooLarge(limit, declared));
    let cut: Error | undefined;
    request.on("error", (err) => (cut ??= err));
    const fail = (err: Error) => reject(cut ?? err);
    const chunks: Buffer[] = [];
    let size = 0;
    response.on("data", (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) return refuse(new AnswerTooLarge(limit));
      chunks.push(chunk);
    });
    response.once("end", () => resolve(Buffer.concat(chunks, size)));
    response.on("error", fail);
    response.once("aborted", () => fail(Object.assign(new Error("aborted"), { code: "ECONNRESET" })));
  });
}

/** The whole body of a fetch Response, at most `limit` bytes, counted as the chunks arrive. */
export async function readWebBody(response: Response, limit: number): Promise<Uint8Array> {
  const declared = declaredLength(response.headers.get("content-length") ?? undefined);
  // Not awaited: a cancel can stay pending forever (msw's mocked responses), and it is not needed.
  const drop = (reader?: ReadableStreamDefaultReader<Uint8Array>) => void (reader ?? response.body)?.cancel().catch(() => undefined);
  if (declared !== undefined && declared > limit) {
    drop();
    throw new AnswerTooLarge(limit, declared);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      drop(reader);
      throw new AnswerTooLarge(limit);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const whole = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return whole;
}
