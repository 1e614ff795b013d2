// The second door to the sandbox: a real loopback HTTP server (for spawned CLI processes and
// `npm run sandbox`) over the same msw handlers the in-process tests use, via msw's getResponse.
// Direct routes (POST /run) skip getResponse, which clones the request: they get the socket's body as
// a stream nobody else holds, so a 50 MB upload is hashed as it arrives and refused mid-way.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { getResponse, type RequestHandler } from "msw";
import { directRoutesOf } from "../api/direct-routes.js";
import { guardServer, payloadTooLarge, readApiBody, refuseOverCap, watchBody } from "./http-guards.js";

export interface HttpServerOptions {
  handlers: RequestHandler[];
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Serve https with this certificate (PEM) instead of http. */
  tls?: { cert: string; key: string };
  /**
   * The host name clients call it by, when it is not `host`: its origin (its resources, the URLs
   * it hands out) then says that name, as a server behind a proxy would (one only a test proxy resolves, say).
   */
  name?: string;
  /** Open connections at most (default 128): a request on one more is answered 503. */
  maxConnections?: number;
}

export interface RunningHttpServer {
  /** e.g. `http://127.0.0.1:4010`, no trailing slash. */
  url: string;
  port: number;
  /** Stops listening and drops open (keep-alive) connections. */
  close(): Promise<void>;
}

// Connection-level headers describe the hop from the client to this server, not the request itself.
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection", "te", "trailer"]);

/** A catalogue API request, its body (already read, within its limit) given. */
function toRequest(req: IncomingMessage, origin: string, body: Buffer | undefined): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Request(new URL(req.url ?? "/", origin), { method: req.method ?? "GET", headers, body: body as unknown as BodyInit | undefined });
}

/**
 * The request's body as a web stream that only this request reads. Unlike Readable.toWeb, cancelling
 * it (a handler that stops reading, say at a 413) pauses the socket instead of destroying it, so the
 * answer can still be written; a client that goes away mid-upload makes it error.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let done = false;
  const detach = () => {
    done = true;
    req.removeListener("data", onData);
    req.removeListener("end", onEnd);
    req.removeListener("close", onClose);
    req.removeListener("error", onError);
    req.pause();
  };
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const onData = (chunk: Buffer) => {
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if ((controller.desiredSize ?? 0) <= 0) req.pause();
  };
  const onEnd = () => {
    if (done) return;
    detach();
    controller.close();
  };
  const onError = (error: Error) => {
    if (done) return;
    detach();
    controller.error(error);
  };
  const onClose = () => {
    if (!req.complete) onError(new Error("the client closed the connection before the request body was complete"));
  };
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        req.on("data", onData);
        req.on("end", onEnd);
        req.on("close", onClose);
        req.on("error", onError);
      },
      pull() {
        if (!done) req.resume();
      },
      cancel() {
        detach();
      },
    },
    { highWaterMark: 256 * 1024, size: (chunk) => chunk.byteLength },
  );
}

function toStreamingRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Request(new URL(req.url ?? "/", origin), {
    method: req.method,
    headers,
    body: bodyStream(req),
    duplex: "half",
  } as RequestInit);
}

/** Bytes of an abandoned upload discarded after an early answer before the connection is cut. */
const DRAIN_LIMIT_BYTES = 2 * 64 * 1024 * 1024;
const DRAIN_LIMIT_MS = 30_000;

/**
 * Writes a direct route's answer. When the handler answered before the upload was complete (a 413
 * part, a refused spec), the answer is sent at once with `Connection: close`, and what the client
 * still sends is discarded, never kept, so it can read the answer instead of meeting a reset socket;
 * the connection closes once the client has finished (or after DRAIN_LIMIT_* at most).
 */
async function writeDirectResponse(response: Response, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  if (req.socket.destroyed || res.destroyed) return; // the client went away: nobody to answer
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  headers["content-length"] = String(body.length);
  if (req.complete) {
    res.writeHead(response.status, headers);
    res.end(body);
    return;
  }
  headers["connection"] = "close";
  res.writeHead(response.status, headers);
  res.write(body);
  let discarded = 0;
  await new Promise<void>((resolve) => {
    const stop = () => {
      clearTimeout(timer);
      req.removeListener("data", onData);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > DRAIN_LIMIT_BYTES) {
        stop();
        req.socket.destroy();
      }
    };
    const timer = setTimeout(() => {
      stop();
      req.socket.destroy();
    }, DRAIN_LIMIT_MS);
    req.on("data", onData);
    req.once("end", stop);
    req.once("close", stop);
    req.resume();
  });
  if (!res.destroyed) res.end();
}

async function writeResponse(response: Response, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  // A handler that answered without reading the whole upload (a 401 before a big body, say) leaves
  // bytes on the socket: close the connection after this response rather than reuse a dirty one.
  if (!req.complete) headers["connection"] = "close";
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  await pipeline(Readable.fromWeb(response.body as unknown as NodeReadableStream<Uint8Array>), res);
}

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/**
 * Serves the handlers over real HTTP on loopback.
 *
 * @example
 * const server = await startHttpServer({ handlers: createHandlers(createStore()) });
 * await fetch(`${server.url}/api/ping`);
 * await server.close();
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const { handlers, port = 0, host = "127.0.0.1", tls, name, maxConnections } = options;
  const direct = directRoutesOf(handlers);
  let origin = "";

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      try {
        if (refuseOverCap(req, res)) return;
        watchBody(req, res);
        const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
        const route = direct.find((r) => r.method === req.method && r.matches(pathname));
        if (route) {
          const response = await route.respond(toStreamingRequest(req, origin));
          // Response.error(): the answer is a cut connection (a test's next({ reset: true })).
          if (response.type === "error") return void req.socket.destroy();
          await writeDirectResponse(response, req, res);
          return;
        }
        // Bounded here, before msw (which clones the request) or a handler sees any of it.
        const hasBody = req.method !== "GET" && req.method !== "HEAD";
        const read = hasBody ? await readApiBody(req) : { body: undefined };
        if ("tooLarge" in read) {
          await writeDirectResponse(payloadTooLarge(read.tooLarge, req), req, res);
          return;
        }
        const request = toRequest(req, origin, read.body);
        const response =
          (await getResponse(handlers, request)) ?? jsonResponse(404, { error: `No such endpoint: ${request.method} ${new URL(request.url).pathname}` });
        await writeResponse(response, req, res);
      } catch (error) {
        console.error("sandbox (http):", error);
        if (!res.headersSent) {
          res.writeHead(500, { "content-type": "application/json", connection: "close" });
          res.end(JSON.stringify({ error: `sandbox failed: ${(error as Error)?.message ?? String(error)}` }));
        } else {
          res.destroy();
        }
      }
    })();
  };
  const server = tls ? createHttpsServer(tls, handle) : createServer(handle);
  guardServer(server, { maxConnections });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const actualPort = (server.address() as AddressInfo).port;
  const hostname = name ?? host;
  origin = `${tls ? "https" : "http"}://${hostname.includes(":") ? `[${hostname}]` : hostname}:${actualPort}`;

  return {
    url: origin,
    port: actualPort,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets would otherwise hold close() open until they time out.
        server.closeAllConnections();
      }),
  };
}
