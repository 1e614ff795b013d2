/**
 * Requests over `node:http` and `node:https`: what every call goes through unless the caller
 * gave a fetch of their own.
 *
 * Why not Node's fetch (measured, see docs/performance.md and `npm run bench`): it copies a streamed
 * request body with `tee()` (because `redirect` defaults to "follow"), whose unread branch holds
 * chunks during an upload (a 50 MB upload took about 145 MiB through fetch, 45 MiB here); it gives up
 * waiting for response headers after 300 s, while a run answers only when its script is done;
 * loading it costs about 20 ms, and a process that used it waits 70-90 ms at exit for V8 to
 * finish compiling its WASM HTTP parser. node:http has none of these.
 */
import type http from "node:http";
import type https from "node:https";
import type { Socket } from "node:net";
import { nodeHttp, nodeHttps, nodeNet } from "../builtins.js";
import { proxyAuthorization, proxyFor, throughProxy, tunnelAgent, type ProxySetting } from "./proxy.js";

/** How connections are made: through which proxy, trusting which certificate authorities. */
export interface ConnectionOptions {
  proxy?: ProxySetting;
  /** Certificate authorities for https, in place of Node's own list (as https.request's `ca`). */
  ca?: string | Buffer | Array<string | Buffer>;
}

/** A request about to be sent: its body is written by whoever opened it. */
export interface Opened {
  request: http.ClientRequest;
  /** The proxy it goes through (for messages), if any. */
  proxy?: URL;
}

/**
 * The connections of one client. Catalogue calls reuse idle connections (`reuse`); a run always
 * goes on a connection of its own that no request has used, so it is never written into a
 * connection the server is just closing after an earlier answer (a run that failed that way could
 * not be retried, since it is never sent twice). That connection is opened when the run is sent,
 * or ahead of it (openAhead).
 */
export class Connections {
  private readonly agents = new Map<string, http.Agent>();
  /** Connections opened ahead of a run (see openAhead), by origin. */
  private readonly ahead = new Map<string, Ahead>();

  constructor(private readonly options: ConnectionOptions = {}) {}

  /** Starts `method url`; write the body (if any) and end it. Throws for a header Node refuses. */
  open(url: string, method: string, headers: Record<string, string>, reuse: boolean): Opened {
    const target = new URL(url);
    const secure = target.protocol === "https:";
    const proxy = proxyFor(this.options.proxy, url);
    const host = target.hostname.replace(/^\[|\]$/g, "");
    const port = target.port || (secure ? 443 : 80);
    const path = `${target.pathname}${target.search}`;
    if (!proxy) {
      // A connection opened ahead is the request's own; otherwise the agent makes one (or reuses).
      const spare = reuse ? undefined : this.takeAhead(target.origin);
      const connection = spare ? { defaultPort: secure ? 443 : 80, createConnection: () => adopt(spare) } : { agent: this.directAgent(secure, reuse) };
      const request = (secure ? nodeHttps() : nodeHttp()).request({ host, port, path, method, headers, ...connection });
      return { request };
    }
    if (secure) {
      const agent = this.agent(`tunnel ${proxy.href} ${reuse}`, () => tunnelAgent(proxy, this.tls(reuse)));
      const request = nodeHttps().request({ host, port, path, method, headers, agent });
      request.on("error", (err) => throughProxy(err, proxy));
      return { request, proxy };
    }
    // Plain http through a proxy: the request goes to the proxy with the whole URL as its target.
    const proxySecure = proxy.protocol === "https:";
    const agent = this.agent(`forward ${proxy.href} ${reuse}`, () =>
      proxySecure ? new (nodeHttps().Agent)(this.tls(reuse)) : new (nodeHttp().Agent)(keepAlive(reuse)),
    );
    const request = (proxySecure ? nodeHttps() : nodeHttp()).request({
      host: proxy.hostname.replace(/^\[|\]$/g, ""),
      port: proxy.port || (proxySecure ? 443 : 80),
      path: target.href,
      method,
      headers: { ...headers, Host: target.host, ...proxyAuthorization(proxy) },
      agent,
    });
    request.on("error", (err) => throughProxy(err, proxy));
    return { request, proxy };
  }

  /**
   * Opens now the connection the next run to `url`'s origin will be sent on, so that its
   * handshake (TCP, and TLS for https) overlaps what comes before the run: the CLI reads the
   * script's contract meanwhile. It stays unused until that run takes it, so a run still goes
   * on a connection no request has used; one that closes, fails or waits AHEAD_MS first is
   * dropped (the run then opens its own), and it never keeps the process alive. Direct
   * connections only: through a proxy nothing is opened ahead.
   */
  openAhead(url: string): void {
    const target = new URL(url);
    if (this.ahead.has(target.origin) || proxyFor(this.options.proxy, url)) return;
    const secure = target.protocol === "https:";
    const host = target.hostname.replace(/^\[|\]$/g, "");
    const port = Number(target.port || (secure ? 443 : 80));
    // As the run's agent would open it for a request: its options, and for TLS the name it sends.
    const agent = this.directAgent(secure, false) as unknown as { options: object; createConnection(options: object): Socket };
    const socket = agent.createConnection({
      ...agent.options,
      host,
      port,
      ...(secure ? { servername: nodeNet().isIP(host) ? "" : host } : {}),
    });
    const ahead: Ahead = {
      socket,
      drop: () => {
        if (this.ahead.get(target.origin) === ahead) this.ahead.delete(target.origin);
        socket.destroy();
      },
    };
    for (const event of GONE) socket.on(event, ahead.drop);
    socket.setTimeout(AHEAD_MS);
    socket.unref();
    this.ahead.set(target.origin, ahead);
  }

  /** The connection opened ahead for `origin`, if it is still open; it is then no one else's. */
  private takeAhead(origin: string): Ahead | undefined {
    const ahead = this.ahead.get(origin);
    if (!ahead) return undefined;
    this.ahead.delete(origin);
    const { socket } = ahead;
    if (socket.destroyed || socket.readableEnded || !socket.writable) {
      socket.destroy();
      return undefined;
    }
    return ahead;
  }

  private directAgent(secure: boolean, reuse: boolean): http.Agent {
    return this.agent(`${secure ? "https:" : "http:"}${reuse}`, () =>
      secure ? new (nodeHttps().Agent)(this.tls(reuse)) : new (nodeHttp().Agent)(keepAlive(reuse)),
    );
  }

  private tls(reuse: boolean): https.AgentOptions {
    return { ...keepAlive(reuse), ...(this.options.ca ? { ca: this.options.ca } : {}) };
  }

  private agent(key: string, make: () => http.Agent): http.Agent {
    let agent = this.agents.get(key);
    if (!agent) this.agents.set(key, (agent = make()));
    return agent;
  }
}

/**
 * How long a connection opened ahead of a run waits for it before it is closed. Servers commonly
 * give a new connection a minute to send its first request (Node's headers timeout, nginx's
 * client_header_timeout), far longer than this, so a run does not meet one they are closing.
 */
const AHEAD_MS = 4_000;

/**
 * A connection opened ahead, handed to the request that takes it: from here its errors and its
 * end are the request's, and it keeps the process alive while the run is under way.
 */
function adopt({ socket, drop }: Ahead): Socket {
  for (const event of GONE) socket.off(event, drop);
  socket.setTimeout(0);
  socket.ref();
  return socket;
}

/** A connection opened ahead, and what closes it should it end before a run takes it. */
interface Ahead {
  socket: Socket;
  drop: () => void;
}

/** What ends a connection opened ahead before a run takes it (its idle time included). */
const GONE = ["error", "end", "close", "timeout"] as const;

/**
 * Idle connections are closed after 4 s, before the 5 s after which servers commonly close them
 * (Node's own default), so a request is seldom written into a connection the server is closing.
 */
function keepAlive(reuse: boolean): http.AgentOptions {
  return reuse ? { keepAlive: true, timeout: 4_000, scheduling: "lifo" } : { keepAlive: false };
}

/**
 * The response to `request`, once its headers have arrived. An error before then rejects (a
 * connection that was refused, reset, or closed before answering).
 */
export function responseOf(request: http.ClientRequest): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    request.once("response", resolve);
    // Kept for the request's life: an error after the answer (an upload cut short) is no crash.
    request.on("error", reject);
  });
}
