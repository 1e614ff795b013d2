/** Listening on loopback, for the servers the tests write themselves (fault servers, proxies, scripted answers). */
import type net from "node:net";
import type { AddressInfo } from "node:net";

export interface Listening {
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Ends every open connection, then stops listening. */
  close(): Promise<void>;
}

/**
 * Starts `server` on a free loopback port. It keeps every connection, so that `close` can end them
 * all: a kept-alive client, a CONNECT tunnel or an upload left half-sent would keep the server open
 * otherwise. Sockets put into `sockets` (the far side of a tunnel) are ended with them.
 *
 * @example
 * const { url, close } = await listenOnLoopback(http.createServer((req, res) => res.end("{}")));
 */
export async function listenOnLoopback(server: net.Server, sockets = new Set<net.Socket>()): Promise<Listening> {
  server.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
