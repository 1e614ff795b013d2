/**
 * One request over node:http (see http.ts for why not Node's fetch). A streamed body is read
 * into a few reused buffers, each written as soon as it is read and given back once the socket
 * has taken it, with backpressure from the socket: an upload holds a few MiB whatever its size.
 */
import type http from "node:http";
import { Readable } from "node:stream";
import type { AttemptGuard } from "./abort.js";
import { readNodeBody } from "./answer-limit.js";
import { bufferPool, type Buffers } from "./buffers.js";
import type { Hop, OutgoingRequest, StreamedBody } from "./messages.js";
import { responseOf, type Connections } from "./http.js";

/** Bytes written to the socket and not yet taken by it, beyond which writing waits. */
const MAX_IN_FLIGHT = 4 * 1024 * 1024;

/**
 * File buffers per upload: one being read while the other is in the socket. Two kept a 50 MB
 * run as fast as four (same CPU time, wall time within noise, measured) and held 1.2 MiB less.
 */
const FILE_BUFFERS = 2;

/** A redirect's body up to this size is drained, so its kept-alive connection can serve again. */
const DRAINED_BYTES = 64 * 1024;

export async function overNode(connections: Connections, request: OutgoingRequest, guard: AttemptGuard, reuse: boolean): Promise<Hop> {
  const { body } = request;
  const bytes = typeof body === "string" ? Buffer.from(body) : body instanceof Uint8Array ? body : undefined;
  const streamed = body !== undefined && bytes === undefined ? (body as StreamedBody) : undefined;
  const length = bytes?.byteLength ?? streamed?.length;
  const headers =
    length === undefined || hasHeader(request.headers, "content-length") ? request.headers : { ...request.headers, "Content-Length": String(length) };
  const { request: outgoing } = connections.open(request.url, request.method, headers, reuse);
  const buffers = streamed ? bufferPool(FILE_BUFFERS) : undefined;
  let response: http.IncomingMessage | undefined;
  let uploaded = !streamed;
  let consumed = false;
  const stop = (reason: unknown) => {
    buffers?.close(reason);
    outgoing.destroy();
    response?.destroy(reason as Error | undefined);
  };
  const onAbort = () => stop(guard.signal.reason);
  guard.signal.addEventListener("abort", onAbort, { once: true });
  const answered = responseOf(outgoing);
  if (streamed) {
    write(outgoing, streamed.chunks(buffers!), buffers!, streamed.onSent).then(
      () => (uploaded = true),
      // A file that changed (or could not be read) ends the attempt; the guard says why.
      (error) => guard.abort({ kind: "failed", error }),
    );
  } else {
    outgoing.end(bytes);
  }
  const answer = await guard.race(answered);
  response = answer;
  return {
    status: answer.statusCode ?? 0,
    statusText: answer.statusMessage ?? "",
    headers: flatHeaders(answer.headers),
    rawHeaders() {
      const raw = answer.rawHeaders;
      const pairs: Array<[string, string]> = [];
      for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!]);
      return pairs;
    },
    read(limit) {
      consumed = true;
      return readNodeBody(outgoing, answer, limit);
    },
    stream(onClose) {
      consumed = true;
      if (onClose) answer.once("close", onClose);
      // A connection cut mid-answer, said as readNodeBody says it (describeFailure has words for it).
      answer.once("aborted", () => answer.destroy(Object.assign(new Error("aborted"), { code: "ECONNRESET" })));
      outgoing.on("error", (err) => answer.destroy(err));
      return Readable.toWeb(answer) as ReadableStream<Uint8Array>;
    },
    finish() {
      guard.signal.removeEventListener("abort", onAbort);
      if (!uploaded) return stop(new Error("the server answered before the upload finished"));
      if (consumed) return;
      // Not wanted (a redirect's page): drained if small, so a kept-alive connection serves again.
      const size = Number(answer.headers["content-length"]);
      if (size <= DRAINED_BYTES) answer.resume();
      else stop(undefined);
    },
  };
}

/** Writes every chunk, giving each buffer back once the socket has taken it; ends the request. */
async function write(request: http.ClientRequest, chunks: AsyncIterable<Uint8Array>, buffers: Buffers, onSent?: (sent: number) => void): Promise<void> {
  let inFlight = 0;
  let sent = 0;
  let wake = () => undefined as void;
  const closed = new Promise<void>((resolve) => request.once("close", resolve));
  for await (const chunk of chunks) {
    if (request.destroyed) return;
    const bytes = chunk.byteLength;
    inFlight += bytes;
    request.write(chunk, () => {
      inFlight -= bytes;
      buffers.give(chunk);
      if (onSent) onSent((sent += bytes));
      wake();
    });
    while (inFlight > MAX_IN_FLIGHT && !request.destroyed) await Promise.race([new Promise<void>((resolve) => (wake = resolve)), closed]);
  }
  request.end();
}

/** node:http's headers as one string each. */
export function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  return out;
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}
