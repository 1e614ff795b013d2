/**
 * A loopback HTTP proxy in front of the sandbox that injects faults into chosen
 * requests (a 429 storm on POST /run, say) and passes everything else through unchanged: the
 * server is not changed, and the client meets the faults over real HTTP.
 */
import http from "node:http";
import { listenOnLoopback } from "./loopback.js";

export interface Fault {
  /**
   * `"reset after forwarding"`: the request reaches the server, whose answer is then dropped and
   * the client's connection reset, as a network failure after the run started would.
   */
  reset?: "after forwarding";
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/** A request forwarded unchanged, but only once `holdUntil` settles. */
export interface Hold {
  holdUntil: Promise<unknown>;
}

/**
 * `decide(method, path, n)` is asked for each request (`n` counts requests to that method and
 * path); a fault is answered instead of forwarding, `undefined` forwards it.
 */
export async function startFaultProxy(target: string, decide: (method: string, path: string, n: number) => Fault | Hold | undefined) {
  const seen = new Map<string, number>();
  const answered: Array<{ method: string; path: string; status: number; at: number }> = [];
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const key = `${req.method} ${req.url}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    const fault = decide(req.method!, req.url!.split("?")[0]!, n);
    if (fault && "holdUntil" in fault) {
      req.pause();
      void fault.holdUntil.finally(() => pass(req, res));
      return;
    }
    if (fault?.reset) {
      const forward = http.request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
        (answer) => {
          answered.push({ method: req.method!, path: req.url!, status: -1, at: Date.now() });
          answer.resume();
          answer.on("end", () => req.socket.destroy());
        },
      );
      forward.on("error", () => req.socket.destroy());
      req.pipe(forward);
      return;
    }
    if (fault) {
      // Drain the body first, as a server that refuses a request still reads it.
      req.resume();
      req.on("end", () => {
        answered.push({ method: req.method!, path: req.url!, status: fault.status, at: Date.now() });
        res.writeHead(fault.status, { "content-type": "application/json", ...fault.headers });
        res.end(fault.body ?? JSON.stringify({ error: http.STATUS_CODES[fault.status] ?? "fault" }));
      });
      return;
    }
    pass(req, res);
  });
  const pass = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        answered.push({ method: req.method!, path: req.url!, status: answer.statusCode ?? 0, at: Date.now() });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  };
  const { url, close } = await listenOnLoopback(server);
  return { url, answered, close };
}
