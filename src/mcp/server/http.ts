/**
 * The agent tool over Streamable HTTP, for clients that speak only that (n8n, web-based agents):
 * the same tools as over stdio, served on 127.0.0.1 only, at `/mcp`.
 *
 * A server on this machine is reachable from any web page the user opens, by DNS rebinding (a
 * name that resolves to 127.0.0.1) and by plain cross-origin requests, and binding to loopback
 * stops neither. So every request is checked, in this order, before the MCP SDK sees it:
 * `Host` must name this server (127.0.0.1 or localhost, with its port), `Origin`, when sent, must
 * be this server's or one the user allowed, and `Authorization` must carry the bearer token.
 * (The SDK's own DNS-rebinding check is off by default; it is not relied on.)
 *
 * Each client's session has its own MCP server; a session ends when its client sends DELETE,
 * when it is the least recently used of too many, or when the whole server closes.
 */
import { randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createMcpServer, type ServerContext } from "./server.js";
import { newToken } from "./token.js";

/** The path tools are served at, as the SDK's examples and most clients expect. */
export const MCP_PATH = "/mcp";
/** A POST body larger than this is refused: a tool call's arguments are small. */
const MAX_BODY_BYTES = 4 * 2 ** 20;
/** Sessions kept at once; one more ends the least recently used. */
const MAX_SESSIONS = 32;
export interface HttpOptions {
  /** 0 picks a free port. */
  port: number;
  /** The bearer token clients must send; a random one when omitted. */
  token?: string;
  /** Origins (`https://app.example`) whose pages may call the server, beside its own. */
  allowOrigins?: string[];
}

export interface HttpServer {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  port: number;
  token: string;
  /** The listening socket's address, as the system reports it. */
  address: AddressInfo;
  /** Sessions open now. */
  sessions(): number;
  /** Ends every session and stops listening. */
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  lastUsed: number;
}

/** A JSON-RPC error answer, as the MCP SDK's clients read refusals. */
function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The request's body as JSON, read up to MAX_BODY_BYTES; a string saying why not otherwise. */
function readJson(req: IncomingMessage): Promise<{ body: unknown } | { status: number; problem: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve({ status: 413, problem: `the request body is larger than ${MAX_BODY_BYTES} bytes` });
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("error", () => resolve({ status: 400, problem: "the request body could not be read" }));
    req.on("end", () => {
      try {
        resolve({ body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      } catch {
        resolve({ status: 400, problem: "the request body is not JSON" });
      }
    });
  });
}

const isInitialize = (body: unknown) =>
  (Array.isArray(body) ? body : [body]).some((m) => typeof m === "object" && m !== null && (m as { method?: unknown }).method === "initialize");

/**
 * Starts serving the agent tool over Streamable HTTP on 127.0.0.1.
 *
 * @example
 * const served = await serveHttp({ folder, client }, { port: 0 });
 * console.error(`${served.url} (token ${served.token})`);
 * await served.close();
 */
export async function serveHttp(ctx: ServerContext, options: HttpOptions): Promise<HttpServer> {
  const { StreamableHTTPServerTransport } = await import("@modelcontextprotocol/sdk/server/streamableHttp.js");
  const token = options.token ?? newToken();
  const sessions = new Map<string, Session>();
  let port = options.port;
  const hosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const origins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`, ...(options.allowOrigins ?? []).map((o) => o.replace(/\/+$/, ""))]);

  const endSession = async (id: string) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    await session.server.close().catch(() => undefined);
  };

  /** A new session: its own MCP server on its own transport, answering `initialize`. */
  async function startSession(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    if (sessions.size >= MAX_SESSIONS) {
      const oldest = [...sessions.entries()].sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0];
      if (oldest) await endSession(oldest[0]);
    }
    const server = await createMcpServer(ctx);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { transport, server, lastUsed: Date.now() }),
      // The transport closes itself after a DELETE, which ends its server's side too.
      onsessionclosed: (id) => void sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // DNS rebinding: a page on evil.example that rebinds its name to 127.0.0.1 still sends its own Host.
    const host = (req.headers.host ?? "").toLowerCase();
    if (!hosts().has(host))
      return refuse(res, 403, `Forbidden: Host ${JSON.stringify(req.headers.host ?? "")} is not this server (use http://127.0.0.1:${port}${MCP_PATH})`);
    const origin = req.headers.origin;
    if (origin !== undefined && !origins().has(origin.replace(/\/+$/, ""))) {
      return refuse(res, 403, `Forbidden: Origin ${JSON.stringify(origin)} may not call this server (reduck mcp --http --allow-origin ORIGIN allows one)`);
    }
    const path = new URL(req.url ?? "/", `http://${host}`).pathname;
    if (path !== MCP_PATH) return refuse(res, 404, `Not found: the MCP endpoint is ${MCP_PATH}`);
    const auth = req.headers.authorization ?? "";
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1];
    if (!bearer || !sameSecret(bearer, token)) {
      return refuse(res, 401, "Unauthorized: send the token reduck mcp --http printed at start, as Authorization: Bearer <token>", {
        "WWW-Authenticate": 'Bearer realm="reduck mcp"',
      });
    }

    const id = req.headers["mcp-session-id"];
    const sessionId = Array.isArray(id) ? id[0] : id;
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      // 404 tells a client its session is gone and to start another.
      if (!session) return refuse(res, 404, "Session not found: it ended; start a new one (initialize)");
      session.lastUsed = Date.now();
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== "POST") return refuse(res, 400, "Bad Request: no session; start one with a POST of initialize");
    const read = await readJson(req);
    if ("problem" in read) return refuse(res, read.status, `Bad Request: ${read.problem}`);
    if (!isInitialize(read.body)) return refuse(res, 400, "Bad Request: no session; start one with a POST of initialize");
    return startSession(req, res, read.body);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => refuse(res, 500, `Internal error: ${err instanceof Error ? err.message : String(err)}`));
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    // Loopback only: nothing off this machine can connect.
    http.listen(options.port, "127.0.0.1", () => {
      http.off("error", reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  port = address.port;
  return {
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    port,
    token,
    address,
    sessions: () => sessions.size,
    async close() {
      await Promise.all([...sessions.keys()].map(endSession));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
