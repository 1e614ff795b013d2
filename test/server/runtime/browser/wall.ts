// The browser's proxy: a loopback server that forwards nothing. Every request that reaches it is
// one the simulated web did not answer and that would otherwise have left the machine; it is
// refused and counted, so a test can assert that none ever arrives.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Wall {
  port: number;
  /** What reached the wall, oldest first: `CONNECT host:443`, `GET http://host/path`... */
  readonly attempts: readonly string[];
  close(): Promise<void>;
}

/**
 * Starts the wall on 127.0.0.1 (a free port).
 *
 * @example
 * const wall = await startWall(); // then launch Chromium with --proxy-server=http://127.0.0.1:<port>
 * wall.attempts.length; // 0 while the routing answers everything
 */
export async function startWall(): Promise<Wall> {
  const attempts: string[] = [];
  const server: Server = createServer((request, response) => {
    attempts.push(`${request.method} ${request.url}`);
    response.writeHead(502, { "content-type": "text/plain", connection: "close" });
    response.end("The sandbox's browser never reaches the network.\n");
  });
  // HTTPS and WebSocket-over-TLS arrive as CONNECT; plain WebSockets as an upgrade.
  server.on("connect", (request, socket) => {
    attempts.push(`CONNECT ${request.url}`);
    socket.end("HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n");
  });
  server.on("upgrade", (request, socket) => {
    attempts.push(`UPGRADE ${request.url}`);
    socket.end("HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n");
  });
  server.on("clientError", (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  // The wall serves the browser; it must not keep a process alive on its own.
  server.unref();
  return {
    port: (server.address() as AddressInfo).port,
    attempts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
