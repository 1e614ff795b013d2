/**
 * A real loopback HTTP server that answers from a script of replies, for transport tests
 * that need exact control (a 429 then a 200, a reply that never comes, an HTML 502).
 */
import http from "node:http";
import { onTestFinished } from "vitest";
import { listenOnLoopback } from "./loopback.js";

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long before answering. */
  delayMs?: number;
}

export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export async function startScriptedServer(replies: Reply[]) {
  const lastReply = replies.at(-1);
  if (!lastReply) throw new Error("startScriptedServer: give at least one reply (the last one answers every later request)");
  const seen: Seen[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() });
    const reply = replies[seen.length - 1] ?? lastReply;
    const timer = setTimeout(() => {
      res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
      res.end(reply.body ?? "{}");
    }, reply.delayMs ?? 0);
    res.on("close", () => clearTimeout(timer));
  });
  const { url, close } = await listenOnLoopback(server);
  return { url, seen, close };
}

/**
 * startScriptedServer for the calling test, closed when that test ends (call it inside a test).
 *
 * @example
 * const server = await scriptedServer({ status: 503, headers: { "retry-after": "0" } }, { body: '{"handle":"@ann"}' });
 */
export async function scriptedServer(...replies: Reply[]) {
  const server = await startScriptedServer(replies);
  onTestFinished(() => server.close());
  return server;
}

/** A loopback port with nothing listening on it. */
export async function refusedPort(): Promise<number> {
  const { port, close } = await listenOnLoopback(http.createServer());
  await close();
  return port;
}
