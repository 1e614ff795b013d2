/**
 * Real loopback servers that misbehave the ways real ones do: never answer, answer slowly,
 * reset mid-answer, send truncated JSON or an HTML 5xx, ask to come back later. Each counts
 * the requests it received, by `METHOD /path`.
 */
import http from "node:http";
import { listenOnLoopback } from "../support/loopback.js";

export type Fault =
  /** Reads the request, then never answers (the connection stays open). */
  | "silent"
  /** Sends the headers at once, then the body a byte every 100 ms. */
  | "slow-body"
  /** Sends the headers and part of the body, then resets the connection. */
  | "reset-mid-answer"
  /** Closes the connection as soon as the request has arrived, before answering. */
  | "close-before-answer"
  /** A 200 whose body never ends: bytes as fast as the client takes them, until it hangs up. */
  | "endless-body"
  /** A 200 whose body never ends and never hurries: a byte every 50 ms. */
  | "trickle-forever"
  /** A 200 announcing a 64 MiB body (Content-Length), which it then never sends. */
  | "huge-content-length"
  /** A well-formed 200 whose JSON body is cut short. */
  | "truncated-json"
  /** 502 with an HTML page, as a proxy in front of the service sends. */
  | "html-502"
  /** 429 with `Retry-After: <seconds>`, then the normal answer. */
  | { status: 429; retryAfter: string }
  /** A normal JSON answer. */
  | { json: unknown; status?: number; delayMs?: number };

export interface FaultServer {
  url: string;
  /** Requests received, by "METHOD /path" (query left out). */
  count(route: string): number;
  close(): Promise<void>;
}

/**
 * `routes` maps "METHOD /path" (or "*" for any other) to a fault; a list is played in order,
 * its last entry repeating.
 */
export async function startFaultServer(routes: Record<string, Fault | Fault[]>): Promise<FaultServer> {
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const route = `${req.method} ${req.url!.split("?")[0]}`;
    const n = (counts.get(route) ?? 0) + 1;
    counts.set(route, n);
    const plan = routes[route] ?? routes["*"] ?? { json: { error: "no such route in this fault server" }, status: 404 };
    const fault = Array.isArray(plan) ? plan[Math.min(n - 1, plan.length - 1)]! : plan;
    // An aborted upload is expected here: a client that gives up mid-request is a test's subject.
    req.on("error", () => undefined);
    res.on("error", () => undefined);
    req.resume();
    req.on("end", () => play(fault, req, res));
  });
  const { url, close } = await listenOnLoopback(server);
  return { url, count: (route) => counts.get(route) ?? 0, close };
}

function play(fault: Fault, req: http.IncomingMessage, res: http.ServerResponse): void {
  if (fault === "silent") return;
  if (fault === "endless-body") {
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"data":"');
    const chunk = Buffer.alloc(64 * 1024, "a");
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
    };
    res.on("drain", pump);
    return pump();
  }
  if (fault === "trickle-forever") {
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"handle":"');
    const timer = setInterval(() => res.write("a"), 50);
    res.on("close", () => clearInterval(timer));
    return;
  }
  if (fault === "huge-content-length") {
    res.writeHead(200, { "content-type": "application/json", "content-length": String(64 * 2 ** 20) });
    return void res.flushHeaders();
  }
  if (fault === "close-before-answer") return void req.socket.destroy();
  if (fault === "slow-body") {
    const body = '{"message":"pong","handle":"@slow","data":[],"hasNextPage":false}';
    res.writeHead(200, { "content-type": "application/json", "content-length": String(body.length) });
    let i = 0;
    const timer = setInterval(() => {
      if (i >= body.length) return (clearInterval(timer), res.end());
      res.write(body[i++]);
    }, 100);
    res.on("close", () => clearInterval(timer));
    return;
  }
  if (fault === "reset-mid-answer") {
    res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
    res.write('{"data":[{"id":');
    setTimeout(() => req.socket.resetAndDestroy(), 20);
    return;
  }
  if (fault === "truncated-json") {
    const body = '{"data":[{"id":"r1","status":"succ';
    res.writeHead(200, { "content-type": "application/json", "content-length": String(body.length) });
    return void res.end(body);
  }
  if (fault === "html-502") {
    res.writeHead(502, { "content-type": "text/html" });
    return void res.end("<html><body><h1>502 Bad Gateway</h1></body></html>");
  }
  if ("retryAfter" in fault) {
    res.writeHead(429, { "content-type": "application/json", "retry-after": fault.retryAfter });
    return void res.end('{"error":"Too many requests: slow down"}');
  }
  const answer = () => {
    res.writeHead(fault.status ?? 200, { "content-type": "application/json" });
    res.end(JSON.stringify(fault.json));
  };
  if (fault.delayMs) {
    const timer = setTimeout(answer, fault.delayMs);
    res.on("close", () => clearTimeout(timer));
  } else answer();
}
