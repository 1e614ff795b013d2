// The second door to the reference server: a real loopback HTTP server (for spawned CLI processes and
// `npm run sandbox`) over the same msw handlers the in-process tests use, via msw's getResponse.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { getResponse, type RequestHandler } from "msw";

export interface HttpServerOptions {
  handlers: RequestHandler[];
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
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

function toRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(new URL(req.url ?? "/", origin), {
    method,
    headers,
    // Streamed, never buffered here: a 50 MB multipart upload flows through as the handler reads it.
    body: hasBody ? (Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>) : undefined,
    duplex: "half",
  } as RequestInit);
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
  const { handlers, port = 0, host = "127.0.0.1" } = options;
  let origin = "";

  const server = createServer((req, res) => {
    void (async () => {
      try {
        const request = toRequest(req, origin);
        const response =
          (await getResponse(handlers, request)) ??
          jsonResponse(404, { error: `No such endpoint: ${request.method} ${new URL(request.url).pathname}` });
        await writeResponse(response, req, res);
      } catch (error) {
        console.error("reference server (http):", error);
        if (!res.headersSent) {
          res.writeHead(500, { "content-type": "application/json", connection: "close" });
          res.end(JSON.stringify({ error: `reference server failed: ${(error as Error)?.message ?? String(error)}` }));
        } else {
          res.destroy();
        }
      }
    })();
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const actualPort = (server.address() as AddressInfo).port;
  origin = `http://${host.includes(":") ? `[${host}]` : host}:${actualPort}`;

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
