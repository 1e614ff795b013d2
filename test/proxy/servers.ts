/**
 * Real loopback servers for the transport's HTTPS and proxy tests: a self-signed certificate
 * made with openssl, an HTTPS API that answers the few routes the tests call (reading a run's
 * multipart body with busboy, a parser we did not write: test/support/multipart.ts), and a forward proxy that opens CONNECT
 * tunnels and forwards plain-HTTP absolute-form requests, counting both.
 */
import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import path from "node:path";
import { readMultipart } from "../support/multipart.js";
import { listenOnLoopback } from "../support/loopback.js";
import { temporaryFolder } from "../support/files.js";

export interface Certificate {
  /** PEM; also its own certificate authority. */
  cert: string;
  key: string;
  /** Where `cert` is on disk, for NODE_EXTRA_CA_CERTS. */
  certFile: string;
}

/** A self-signed certificate for `names` (host names and IP addresses), valid for a day. */
export async function makeCertificate(names: string[]): Promise<Certificate> {
  const dir = temporaryFolder("reduck-cert-");
  const certFile = path.join(dir, "cert.pem");
  const keyFile = path.join(dir, "key.pem");
  const san = names.map((n) => (net.isIP(n) ? `IP:${n}` : `DNS:${n}`)).join(",");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      keyFile,
      "-out",
      certFile,
      "-days",
      "1",
      "-subj",
      "/CN=reduck test",
      "-addext",
      `subjectAltName=${san}`,
    ],
    { stdio: "ignore" },
  );
  return { cert: await readFile(certFile, "utf8"), key: await readFile(keyFile, "utf8"), certFile };
}

export interface ApiServer {
  /** `https://<host>:<port>` as the client should call it. */
  url: string;
  port: number;
  /** Requests received, by "METHOD /path". */
  count(route: string): number;
  /** The headers of the last request to `route`. */
  headers(route: string): http.IncomingHttpHeaders | undefined;
  close(): Promise<void>;
}

const CONTRACT = {
  handle: "reduck",
  host: "a.com",
  slug: "s",
  current_version: { id: "v1", input_schema: { type: "object", properties: { document: { type: "string", format: "file" } } } },
};

/**
 * An HTTPS server with `certificate` on loopback, called as `https://<host>:<port>`. It answers
 * GET /api/me, GET /api/scripts/reduck/a.com/s (a contract with one file input) and POST /run
 * (also as /mcp/run), with the size and SHA-256 of each file part it read, the Content-Length
 * announced and the bytes that came.
 */
export async function startApi(certificate: Certificate, host = "127.0.0.1"): Promise<ApiServer> {
  const counts = new Map<string, number>();
  const seen = new Map<string, http.IncomingHttpHeaders>();
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const server = https.createServer({ cert: certificate.cert, key: certificate.key }, (req, res) => {
    const route = `${req.method} ${req.url!.split("?")[0]}`;
    counts.set(route, (counts.get(route) ?? 0) + 1);
    seen.set(route, req.headers);
    if (route === "GET /api/me") return json(res, 200, { name: "Ann", email: "ann@example.com", handle: "@ann", projects: [] });
    if (route === "GET /api/scripts/reduck/a.com/s") return json(res, 200, CONTRACT);
    // POST /run is served at the origin and under /mcp, as the sandbox serves its run host.
    if (route !== "POST /run" && route !== "POST /mcp/run") return json(res, 404, { error: `no route ${route}` });
    let received = 0;
    req.on("data", (chunk: Buffer) => (received += chunk.length));
    readMultipart(req.headers, req).then(
      ({ files }) =>
        json(res, 200, { result: { files, contentLength: Number(req.headers["content-length"]), received }, runId: "0d4e8619-5b1c-4c1e-9d55-0000000000a1" }),
      (error: Error) => json(res, 400, { error: `not a multipart body: ${error.message}` }),
    );
  });
  const { port, close } = await listenOnLoopback(server);
  return { url: `https://${host}:${port}`, port, count: (route) => counts.get(route) ?? 0, headers: (route) => seen.get(route), close };
}

export interface ProxyServer {
  url: string;
  /** CONNECT tunnels opened, as `host:port`. */
  tunnels: string[];
  /** Plain-HTTP requests forwarded, as absolute URLs. */
  forwarded: string[];
  /** The Proxy-Authorization headers it was sent. */
  authorizations: string[];
  close(): Promise<void>;
}

/**
 * A forward proxy on loopback. Host names in `hosts` are resolved to the address given (so a
 * name that exists nowhere else, like `api.reduck.test`, can only be reached through it).
 * With `credentials` ("user:password"), anything else is refused with 407.
 */
export async function startProxy({ hosts = {}, credentials }: { hosts?: Record<string, string>; credentials?: string } = {}): Promise<ProxyServer> {
  const tunnels: string[] = [];
  const forwarded: string[] = [];
  const authorizations: string[] = [];
  const expected = credentials && `Basic ${Buffer.from(credentials).toString("base64")}`;
  const allowed = (req: http.IncomingMessage) => {
    const given = req.headers["proxy-authorization"];
    if (given) authorizations.push(given);
    return !expected || given === expected;
  };
  const resolve = (host: string) => hosts[host] ?? host;
  const sockets = new Set<net.Socket>();

  const server = http.createServer((req, res) => {
    if (!allowed(req)) {
      res.writeHead(407, { "proxy-authenticate": 'Basic realm="test"' });
      return void res.end();
    }
    const target = new URL(req.url!);
    forwarded.push(target.href);
    const { "proxy-authorization": _, ...headers } = req.headers;
    const upstream = http.request(
      { host: resolve(target.hostname), port: target.port || 80, path: `${target.pathname}${target.search}`, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  server.on("connect", (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    if (!allowed(req)) return void socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n');
    const [host, port] = req.url!.replace(/^\[(.*)\](:\d+)$/, "$1$2").split(/:(?=\d+$)/);
    tunnels.push(req.url!);
    const upstream = net.connect(Number(port), resolve(host!), () => {
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on("close", () => sockets.delete(upstream));
    upstream.on("error", () => socket.end("HTTP/1.1 502 Bad Gateway\r\n\r\n"));
  });
  const { url, close } = await listenOnLoopback(server, sockets);
  return { url, tunnels, forwarded, authorizations, close };
}

/** A plain-HTTP API on loopback with the same routes (for absolute-form forwarding). */
export async function startPlainApi(): Promise<{ port: number; count(route: string): number; close(): Promise<void> }> {
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const route = `${req.method} ${req.url!.split("?")[0]}`;
    counts.set(route, (counts.get(route) ?? 0) + 1);
    req.resume();
    req.on("end", () => {
      res.writeHead(route === "GET /api/me" || route === "POST /run" ? 200 : 404, { "content-type": "application/json" });
      res.end(
        route === "POST /run"
          ? JSON.stringify({ result: { ok: true }, runId: "00000000-0000-4000-8001-000000000002" })
          : JSON.stringify({ name: "Ann", email: "a@b.c", handle: "@ann", projects: [] }),
      );
    });
  });
  const { port, close } = await listenOnLoopback(server);
  return { port, count: (route) => counts.get(route) ?? 0, close };
}
