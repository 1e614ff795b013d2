/**
 * One request through the caller's own fetch. It gets standard RequestInit options only (another
 * fetch, undici's or a polyfill, may refuse anything else), and `redirect: "manual"`: Node's fetch
 * would otherwise follow a redirect itself, keeping X-API-Key (and, on 307/308, a run's whole
 * body) for another origin. The exchange follows redirects by its own rule instead.
 */
import type { AttemptGuard } from "./abort.js";
import { readWebBody } from "./answer-limit.js";
import { freshBuffers } from "./buffers.js";
import type { Hop, OutgoingRequest, StreamedBody } from "./messages.js";
import { RedirectRefused } from "./redirects.js";

export async function overFetch(fetch: typeof globalThis.fetch, request: OutgoingRequest, guard: AttemptGuard): Promise<Hop> {
  const given = request.body;
  const streamed = given !== undefined && typeof given !== "string" && !(given instanceof Uint8Array);
  // A streamed body is pulled chunk by chunk; a caller's fetch never says when one is sent, so each is a fresh buffer.
  const body = streamed ? stream(given as StreamedBody, (error) => guard.abort({ kind: "failed", error })) : (given as string | Uint8Array | undefined);
  const init = { method: request.method, headers: request.headers, body, signal: guard.signal, redirect: "manual", ...(streamed ? { duplex: "half" } : {}) };
  const response = await guard.race(fetch(request.url, init as RequestInit));
  if (response.type === "opaqueredirect") {
    throw new TypeError("fetch failed", {
      cause: new RedirectRefused(`${request.url} answered with a redirect your fetch does not show (an opaque redirect), so it was not followed`),
    });
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  let consumed = false;
  return {
    status: response.status,
    statusText: response.statusText,
    headers,
    rawHeaders: () => [...response.headers],
    read(limit) {
      consumed = true;
      return readWebBody(response, limit);
    },
    stream(onClose) {
      consumed = true;
      const body = response.body ?? new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
      return onClose ? body.pipeThrough(new TransformStream({ flush: onClose })) : body;
    },
    finish() {
      // Not awaited: a cancel can stay pending forever (msw's mocked responses).
      if (!consumed) void response.body?.cancel().catch(() => undefined);
    },
  };
}

/**
 * The chunks as a stream pulled one at a time. `onError` hears at once when reading fails (a
 * file that changed), whether or not the fetch reports it.
 */
function stream(body: StreamedBody, onError: (error: unknown) => void): ReadableStream<Uint8Array> {
  const iterator = body.chunks(freshBuffers())[Symbol.asyncIterator]();
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
        if (body.onSent) body.onSent((sent += next.value.byteLength));
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}
