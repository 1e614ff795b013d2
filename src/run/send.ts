/**
 * One attempt of POST /run: the body goes out (streamed, with its exact Content-Length) while
 * the answer is awaited, under the attempt's guard (the caller's abort, or a file that changed).
 *
 * Over node:http by default: file chunks are read into a few reused buffers and each is written
 * as soon as it is read, with backpressure from the socket, so an upload holds a few MiB
 * whatever its size. A caller's own fetch gets a stream of fresh chunks and standard options only.
 */
import type http from "node:http";
import type { AttemptGuard } from "../core/abort.js";
import { readBody, responseOf, type Connections } from "../core/http.js";
import { flatHeaders } from "../core/transport.js";
import { bufferPool, freshBuffers, type Buffers } from "./buffers.js";

/** What a run sends: JSON text, or chunks read into the sender's buffers. */
export type RunBody = string | ((buffers: Buffers) => AsyncIterable<Uint8Array>);

/** The answer's head, and its body to read. */
export interface RunExchange {
  status: number;
  statusText: string;
  url: string;
  headers: Record<string, string>;
  read(): Promise<Uint8Array>;
  /** Ends whatever is still going (an upload the server answered before it finished). */
  finish(): void;
}

export interface RunRequest {
  url: string;
  headers: Record<string, string>;
  body: RunBody;
  /** POST unless said (an app's presigned uploads are PUT). */
  method?: string;
  /** Told the bytes sent so far, as they leave (only when someone listens). */
  onSent?: (sent: number) => void;
}

/** Bytes written to the socket and not yet taken by it, beyond which writing waits. */
const MAX_IN_FLIGHT = 4 * 1024 * 1024;

/**
 * File buffers per upload: one being read while the other is in the socket. Two kept a 50 MB
 * run as fast as four (same CPU time, wall time within noise, measured) and held 1.2 MiB less.
 */
const FILE_BUFFERS = 2;

export async function sendOverNode(connections: Connections, run: RunRequest, guard: AttemptGuard): Promise<RunExchange> {
  const { request } = connections.open(run.url, run.method ?? "POST", run.headers, false);
  const buffers = bufferPool(FILE_BUFFERS);
  let uploaded = false;
  const stop = (reason: unknown) => {
    buffers.close(reason);
    request.destroy();
  };
  const onAbort = () => stop(guard.signal.reason);
  guard.signal.addEventListener("abort", onAbort, { once: true });
  const answered = responseOf(request);
  if (typeof run.body === "string") {
    request.end(run.body);
    uploaded = true;
  } else {
    write(request, run.body(buffers), buffers, run.onSent).then(
      () => (uploaded = true),
      // A file that changed (or could not be read) ends the attempt; the guard says why.
      (error) => guard.abort({ kind: "failed", error }),
    );
  }
  const response = await guard.race(answered);
  return {
    status: response.statusCode ?? 0,
    statusText: response.statusMessage ?? "",
    url: run.url,
    headers: flatHeaders(response.headers),
    read: () => readBody(request, response),
    finish() {
      guard.signal.removeEventListener("abort", onAbort);
      if (!uploaded) stop(new Error("the server answered before the upload finished"));
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

export async function sendOverFetch(fetch: typeof globalThis.fetch, run: RunRequest, guard: AttemptGuard): Promise<RunExchange> {
  const body = typeof run.body === "string" ? run.body : stream(run.body(freshBuffers()), run.onSent, (error) => guard.abort({ kind: "failed", error }));
  const init = { method: run.method ?? "POST", headers: run.headers, body, signal: guard.signal, ...(typeof body === "string" ? {} : { duplex: "half" }) };
  const response = await guard.race(fetch(run.url, init as RequestInit));
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  return {
    status: response.status,
    statusText: response.statusText,
    url: response.url || run.url,
    headers,
    read: async () => new Uint8Array(await response.arrayBuffer()),
    finish: () => undefined,
  };
}

/**
 * The chunks as a stream pulled one at a time. `onError` hears at once when reading fails (a
 * file that changed), whether or not the fetch reports it.
 */
function stream(
  chunks: AsyncIterable<Uint8Array>,
  onSent: ((sent: number) => void) | undefined,
  onError: (error: unknown) => void,
): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  let sent = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let next: IteratorResult<Uint8Array>;
        try {
          next = await iterator.next();
        } catch (error) {
          onError(error);
          throw error;
        }
        if (next.done) return controller.close();
        controller.enqueue(next.value);
        if (onSent) onSent((sent += next.value.byteLength));
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}
