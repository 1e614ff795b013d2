// What the loopback HTTP adapter (http.ts) holds against slow, many and oversized clients, each
// refusal answered with a status that says it and logged on stderr:
// - headers within HEADERS_TIMEOUT_MS, else 408 (Node's own default is about 80 s);
// - a body that keeps arriving: after BODY_GRACE_MS, at least BODY_MIN_RATE bytes a second on
//   average (a 50 MiB upload at 1 MiB/s passes), else 408;
// - at most `maxConnections` open connections: a request on one more is answered 503 at once. A
//   connection counts from its first byte until either side ends it (not until it is fully
//   closed: a client that never closes its side after a 408 would otherwise keep its place), and
//   a socket the server has ended is destroyed after END_GRACE_MS whatever the client does;
// - a JSON body of the catalogue API (everything but POST /run, which has its own limits) of at
//   most MAX_API_BODY_BYTES: a script's content must fit in it. 413 from Content-Length, or as the
//   count passes the limit, before the body is read whole.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

export const HEADERS_TIMEOUT_MS = 10_000;
export const BODY_GRACE_MS = 10_000;
export const BODY_MIN_RATE = 1024 * 1024;
export const DEFAULT_MAX_CONNECTIONS = 128;
export const MAX_API_BODY_BYTES = 1024 * 1024;
/** How long a socket the server has ended may take to close before it is destroyed. */
export const END_GRACE_MS = 1000;

/** One line on stderr per refusal: a person running the sandbox sees why a client was cut off. */
export function logRefusal(status: number, why: string, req?: IncomingMessage): void {
  const what = req ? ` ${req.method} ${req.url}` : "";
  process.stderr.write(`sandbox (http): ${status}${what}: ${why}\n`);
}

function json(status: number, error: string): string {
  return JSON.stringify({ error: `${status === 408 ? "Request Timeout" : status === 413 ? "Payload Too Large" : "Service Unavailable"}: ${error}` });
}

/** Answers on a request's response if it can, then cuts the connection. */
function refuse(req: IncomingMessage, res: ServerResponse, status: number, why: string): void {
  logRefusal(status, why, req);
  if (!res.headersSent && !res.destroyed) {
    const body = json(status, why);
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), connection: "close" });
    res.end(body, () => req.socket.destroy());
    // A client that stopped reading must not hold the socket either.
    setTimeout(() => req.socket.destroy(), END_GRACE_MS * 2).unref();
  } else {
    req.socket.destroy();
  }
}

const overCap = new WeakSet<Socket>();

/**
 * Sets the server's timeouts and connection cap. Call once, before it listens.
 *
 * @example
 * const server = createServer(handle);
 * guardServer(server, { maxConnections: 128 });
 */
export function guardServer(server: Server, { maxConnections = DEFAULT_MAX_CONNECTIONS }: { maxConnections?: number } = {}): void {
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  // The body's time is watchBody's (it scales with the size); Node's whole-request limit would cut
  // a big upload at a fixed time.
  server.requestTimeout = 0;
  let open = 0;
  server.on("connection", (socket: Socket) => {
    open += 1;
    let counted = true;
    const leave = () => {
      if (!counted) return;
      counted = false;
      open -= 1;
    };
    socket.once("close", leave);
    // The client ended its side: no further request can come on it.
    socket.once("end", leave);
    // This side ended it (a 408, a `connection: close` answer): it leaves the count now and is
    // destroyed after a grace period, so that a client that never closes (FIN-WAIT-2 here) keeps
    // neither a place nor a socket.
    socket.once("finish", () => {
      leave();
      setTimeout(() => socket.destroy(), END_GRACE_MS).unref();
    });
    if (open > maxConnections) {
      overCap.add(socket);
      // Its request is answered 503; one that sends nothing is not kept waiting for.
      socket.setTimeout(HEADERS_TIMEOUT_MS, () => socket.destroy());
    }
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    const timeout = error.code === "ERR_HTTP_REQUEST_TIMEOUT";
    const status = timeout ? 408 : 400;
    const why = timeout
      ? `the request's headers did not arrive within ${HEADERS_TIMEOUT_MS / 1000} s`
      : `the request could not be read (${error.code ?? error.message})`;
    logRefusal(status, why);
    const body = timeout ? json(408, why) : JSON.stringify({ error: `Bad Request: ${why}` });
    socket.end(
      `HTTP/1.1 ${status} ${timeout ? "Request Timeout" : "Bad Request"}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  // Headers timeouts are checked on this interval (Node's default, 30 s, would triple the limit).
  (server as Server & { connectionsCheckingInterval?: number }).connectionsCheckingInterval = 1000;
}

/**
 * Refuses (503) a request that came on a connection over the cap. Returns true when it did.
 *
 * @example
 * if (refuseOverCap(req, res)) return;
 */
export function refuseOverCap(req: IncomingMessage, res: ServerResponse): boolean {
  if (!overCap.has(req.socket)) return false;
  res.setHeader("retry-after", "1");
  refuse(req, res, 503, "too many open connections to the sandbox: close some (or reuse them) and try again");
  return true;
}

/**
 * Holds a request's body to its pace: cut with 408 when, after BODY_GRACE_MS, less than
 * BODY_MIN_RATE a second on average has arrived. Stops once the body is complete or the
 * answer has started.
 */
export function watchBody(req: IncomingMessage, res: ServerResponse): void {
  const method = req.method ?? "GET";
  if (method === "GET" || method === "HEAD" || req.complete) return;
  const started = Date.now();
  let received = 0;
  req.on("data", (chunk: Buffer) => (received += chunk.length));
  const timer = setInterval(() => {
    if (req.complete || res.headersSent || req.destroyed) return clearInterval(timer);
    const elapsed = Date.now() - started;
    if (elapsed > BODY_GRACE_MS && received < ((elapsed - BODY_GRACE_MS) / 1000) * BODY_MIN_RATE) {
      clearInterval(timer);
      refuse(
        req,
        res,
        408,
        `the request's body arrived too slowly (${received} bytes in ${Math.round(elapsed / 1000)} s; after ${BODY_GRACE_MS / 1000} s it must keep up 1 MiB/s)`,
      );
    }
  }, 500);
  timer.unref();
  req.once("close", () => clearInterval(timer));
}

/**
 * The body of a catalogue API request, read up to MAX_API_BODY_BYTES, or a 413 reason: from
 * Content-Length at once, or as the count passes the limit (what arrived is dropped).
 */
export function readApiBody(req: IncomingMessage): Promise<{ body: Buffer } | { tooLarge: string }> {
  const tooLarge = `the request body is over ${MAX_API_BODY_BYTES / 2 ** 20} MiB (a script's content must fit in it with the rest of the request): send a smaller script`;
  const declared = Number(req.headers["content-length"]);
  if (declared > MAX_API_BODY_BYTES) return Promise.resolve({ tooLarge });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (value: { body: Buffer } | { tooLarge: string }) => {
      req.removeListener("data", onData);
      req.removeListener("end", onEnd);
      req.removeListener("close", onEnd);
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_API_BODY_BYTES) {
        chunks.length = 0;
        req.pause();
        return done({ tooLarge });
      }
      chunks.push(chunk);
    };
    const onEnd = () => done({ body: Buffer.concat(chunks) });
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("close", onEnd);
  });
}

/** The 413 answer for readApiBody's refusal (written by the adapter, which drains the rest). */
export function payloadTooLarge(why: string, req: IncomingMessage): Response {
  logRefusal(413, why, req);
  return new Response(json(413, why), { status: 413, headers: { "content-type": "application/json" } });
}
