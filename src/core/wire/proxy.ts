/**
 * HTTP proxies: which one a request goes through, and the tunnel that carries https through it.
 *
 * The environment rules are gh's and stripe's (Go's `httpproxy`): `HTTPS_PROXY` for https
 * addresses, `HTTP_PROXY` for http ones (upper case first, then lower case), `NO_PROXY` for the
 * hosts that go direct, and loopback (`localhost`, 127.0.0.0/8, ::1) always direct, so a local
 * sandbox keeps working behind a company proxy.
 */
import type https from "node:https";
import type { Duplex } from "node:stream";
import { nodeHttp, nodeHttps, nodeNet, nodeTls } from "../builtins.js";

const isIP = (address: string) => nodeNet().isIP(address);

/**
 * A proxy for every request (`"http://proxy.example:3128"`, credentials as `user:password@`), or a
 * function choosing one for each request's URL (undefined: go direct), as `proxyFromEnv()` does.
 */
export type ProxySetting = string | ((url: string) => string | undefined);

/** The proxy for `url` under `setting`, as a URL (no scheme means http://), or undefined for direct. */
export function proxyFor(setting: ProxySetting | undefined, url: string): URL | undefined {
  const chosen = typeof setting === "function" ? setting(url) : setting;
  if (!chosen) return undefined;
  return parseProxy(chosen);
}

/** A proxy address as a URL; throws a TypeError that says what is wrong with it. */
export function parseProxy(value: string): URL {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    throw new TypeError(`the proxy ${JSON.stringify(value)} is not a URL (expected http://host:port)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`the proxy ${redactProxy(url)} is a ${url.protocol.slice(0, -1)} proxy: only http:// and https:// proxies are supported`);
  }
  return url;
}

/** The proxy's address for messages, without its credentials. */
export function redactProxy(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}

/**
 * The proxy rules of the environment: `HTTPS_PROXY`/`https_proxy` for https URLs,
 * `HTTP_PROXY`/`http_proxy` for http ones, except for the hosts `NO_PROXY`/`no_proxy` lists
 * and loopback. `NO_PROXY` is a comma- or space-separated list of host names (which match
 * their subdomains too; a leading dot matches only subdomains), IP addresses, CIDR ranges
 * (`10.0.0.0/8`), each optionally with `:port`, or `*` for every host.
 *
 * Throws a TypeError naming the variable when a proxy in it is not an http(s) URL.
 *
 * @example
 * const client = createReduckClient({ apiKey, proxy: proxyFromEnv() });
 */
export function proxyFromEnv(env: Record<string, string | undefined> = process.env): (url: string) => string | undefined {
  const pick = (...names: string[]) => {
    const name = names.find((n) => env[n]?.trim());
    return name ? { name, value: env[name]!.trim() } : undefined;
  };
  // Checked now, so a mistyped variable is reported before anything is sent.
  const proxyVariable = (...names: string[]) => {
    const found = pick(...names);
    if (!found) return undefined;
    try {
      parseProxy(found.value);
    } catch (err) {
      throw new TypeError(`${found.name}: ${(err as Error).message}`);
    }
    return found.value;
  };
  const httpsProxy = proxyVariable("HTTPS_PROXY", "https_proxy");
  const httpProxy = proxyVariable("HTTP_PROXY", "http_proxy");
  const noProxy = parseNoProxy(pick("NO_PROXY", "no_proxy")?.value ?? "");
  return (url) => {
    const target = new URL(url);
    const proxy = target.protocol === "https:" ? httpsProxy : target.protocol === "http:" ? httpProxy : undefined;
    if (!proxy || isLoopback(target.hostname) || noProxy(target)) return undefined;
    return proxy;
  };
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || (isIP(host) === 4 && host.startsWith("127."));
}

/** A NO_PROXY list as a test of a URL. */
function parseNoProxy(list: string): (url: URL) => boolean {
  const entries = list
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((e) => e.toLowerCase());
  if (entries.includes("*")) return () => true;
  const rules = entries.map((entry) => {
    const cidr = entry.match(/^([0-9a-f.:]+)\/(\d{1,3})$/);
    if (cidr) return (host: string) => inCidr(host, cidr[1]!, Number(cidr[2]));
    // A port is the part after the last colon, unless the entry is a bare IPv6 address.
    const portMatch = isIP(entry.replace(/^\[|\]$/g, "")) === 6 ? null : entry.match(/^(.*):(\d+)$/);
    const name = (portMatch ? portMatch[1]! : entry).replace(/^\[|\]$/g, "");
    const port = portMatch?.[2];
    return (host: string, hostPort: string) => {
      if (port && port !== hostPort) return false;
      if (isIP(name)) return host === name;
      if (name.startsWith(".")) return host.endsWith(name);
      if (name.startsWith("*.")) return host.endsWith(name.slice(1));
      return host === name || host.endsWith(`.${name}`);
    };
  });
  return (url) => {
    const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
    const port = url.port || (url.protocol === "https:" ? "443" : "80");
    return rules.some((rule) => rule(host, port));
  };
}

function inCidr(host: string, network: string, bits: number): boolean {
  const a = ipBits(host);
  const b = ipBits(network);
  if (a === undefined || b === undefined || a.length !== b.length || bits > a.length) return false;
  return a.slice(0, bits) === b.slice(0, bits);
}

/** An IP address as a string of bits (32 for IPv4, 128 for IPv6), or undefined for a host name. */
function ipBits(address: string): string | undefined {
  const version = isIP(address);
  if (version === 4)
    return address
      .split(".")
      .map((n) => Number(n).toString(2).padStart(8, "0"))
      .join("");
  if (version !== 6) return undefined;
  let text = address;
  // An embedded IPv4 tail (::ffff:1.2.3.4) is the last two groups.
  const v4 = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (v4) {
    const bits = ipBits(v4[1]!)!;
    text = `${text.slice(0, -v4[1]!.length)}${parseInt(bits.slice(0, 16), 2).toString(16)}:${parseInt(bits.slice(16), 2).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const split = (s: string) => (s ? s.split(":") : []);
  const groups = tail === undefined ? split(head) : [...split(head), ...Array(8 - split(head).length - split(tail).length).fill("0"), ...split(tail)];
  return groups.map((g) => parseInt(g, 16).toString(2).padStart(16, "0")).join("");
}

/** `Proxy-Authorization` for a proxy URL with credentials. */
export function proxyAuthorization(proxy: URL): Record<string, string> {
  if (!proxy.username && !proxy.password) return {};
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { "Proxy-Authorization": `Basic ${Buffer.from(credentials).toString("base64")}` };
}

/** What a failure through a proxy carries, so its message can name the proxy. */
export interface ProxiedError extends Error {
  code?: string;
  /** The proxy's address, without credentials. */
  proxy?: string;
  /** The proxy's answer when it refused to open the tunnel. */
  proxyStatus?: number;
}

/** Marks `err` as having happened on the way through `proxy`. */
export function throughProxy<E>(err: E, proxy: URL): E {
  if (err && typeof err === "object") (err as unknown as ProxiedError).proxy ??= redactProxy(proxy);
  return err;
}

/**
 * An https agent whose connections are tunnels through an HTTP proxy: a `CONNECT host:port`
 * to the proxy, then TLS with the target inside it (the proxy sees only the host name).
 */
export function tunnelAgent(proxy: URL, options: https.AgentOptions): https.Agent {
  const TunnelAgent = (tunnelAgentClass ??= defineTunnelAgent());
  return new TunnelAgent(proxy, options);
}

let tunnelAgentClass: ReturnType<typeof defineTunnelAgent> | undefined;

/** Defined on first use: it extends https.Agent, which loads tls and crypto. */
function defineTunnelAgent() {
  return class TunnelAgent extends nodeHttps().Agent {
    constructor(
      private readonly proxy: URL,
      options: https.AgentOptions,
    ) {
      super(options);
    }

    override createConnection(options: https.RequestOptions, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
      const done = callback ?? (() => undefined);
      const host = options.host ?? options.hostname ?? "localhost";
      const target = `${host.includes(":") ? `[${host}]` : host}:${options.port ?? 443}`;
      const proxyHttps = this.proxy.protocol === "https:";
      const connect = (proxyHttps ? nodeHttps() : nodeHttp()).request({
        host: this.proxy.hostname.replace(/^\[|\]$/g, ""),
        port: this.proxy.port || (proxyHttps ? 443 : 80),
        method: "CONNECT",
        path: target,
        headers: { Host: target, ...proxyAuthorization(this.proxy) },
        agent: false,
        ...(proxyHttps && this.options.ca ? { ca: this.options.ca } : {}),
      });
      connect.once("connect", (answer, socket) => {
        if (answer.statusCode !== 200) {
          socket.destroy();
          const refused: ProxiedError = new Error(`the proxy answered ${answer.statusCode} ${answer.statusMessage ?? ""}`.trim());
          refused.code = "EPROXYREFUSED";
          refused.proxyStatus = answer.statusCode;
          return done(throughProxy(refused, this.proxy), undefined as never);
        }
        const servername = options.servername ?? (isIP(host) ? undefined : host);
        done(null, nodeTls().connect({ ...(options as import("node:tls").ConnectionOptions), socket, servername }));
      });
      connect.once("error", (err) => done(throughProxy(err, this.proxy), undefined as never));
      connect.end();
      return undefined;
    }
  };
}
