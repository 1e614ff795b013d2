import createClient, { type Client, type Middleware } from "openapi-fetch";
import type { paths } from "../generated/schema.js";
import { answerResponse } from "./wire/answer.js";
import { CredentialError } from "./errors.js";
import type { Route } from "./wire/exchange.js";
import { Connections } from "./wire/http.js";
import { isPlainHttpElsewhere } from "./wire/loopback.js";
import { parseProxy, type ProxySetting } from "./wire/proxy.js";
import { withSettings, type CallSettings, type CallSettingsOptions, type RetryInfo } from "./wire/call-settings.js";
import { createTransport, type Transport } from "./wire/transport.js";
import { USER_AGENT } from "../version.js";

export const DEFAULT_BASE_URL = "https://reduck.ai";
export const DEFAULT_RUN_BASE_URL = "https://mcp.reduck.ai";
export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 2;

/**
 * Gives the OAuth access token for the request about to be sent, so an application can refresh
 * its tokens. Called before each request, with `resource`: the base URL the request goes to
 * (`baseUrl` for catalogue calls, `runBaseUrl` for `POST /run`), which is the resource the token
 * must be issued for. If it throws or gives no token, nothing is sent and the call returns a
 * `credential` error carrying its message.
 *
 * @example
 * const client = createReduckClient({ oauthToken: async () => (await session.fresh()).accessToken });
 */
export type OAuthTokenProvider = (request: { resource: string }) => string | Promise<string>;

/**
 * Exactly one credential: the types make both, or neither, a compile error. `apiKey` may be
 * `string | undefined` so that `apiKey: process.env.REDUCK_API_KEY` compiles under `strict`;
 * `createReduckClient` throws a TypeError when it is undefined (or empty) then, as it does
 * whenever it is not given exactly one credential.
 */
export type ReduckCredential =
  | { /** Sent as `X-API-Key`. */ apiKey: string | undefined; oauthToken?: never }
  | {
      /** An OAuth access token issued for https://reduck.ai, or a function giving one; sent as a bearer token. */
      oauthToken: string | OAuthTokenProvider;
      apiKey?: never;
    };

/**
 * Every setting may be `undefined`, the same as left out (`baseUrl: process.env.REDUCK_API_URL`
 * compiles under `exactOptionalPropertyTypes`, which `tsc --init` turns on).
 */
export interface ReduckClientSettings {
  /** The catalogue API. Default `https://reduck.ai`. */
  baseUrl?: string | undefined;
  /**
   * Where `POST /run` goes. Default `https://mcp.reduck.ai`, or `baseUrl` when only that was
   * overridden (a local or staging server serves both).
   */
  runBaseUrl?: string | undefined;
  /**
   * A fetch of your own for every request (catalogue calls and runs), looked up on every call,
   * given standard RequestInit options only and `redirect: "manual"` (the client follows
   * redirects by its own rule). Without one, requests go over node:http and node:https.
   */
  fetch?: typeof fetch | undefined;
  /**
   * An HTTP proxy for every request (`"http://proxy.example:3128"`, with `user:password@` if it
   * asks for them), or a function choosing one per request URL (undefined: go direct), such as
   * `proxyFromEnv()`, which follows HTTPS_PROXY, HTTP_PROXY and NO_PROXY. https goes through it
   * in a CONNECT tunnel. Not with `fetch` (your fetch makes its own connections).
   */
  proxy?: ProxySetting | undefined;
  /**
   * Certificate authorities to trust for https (PEM), in place of Node's own list, as
   * `https.request`'s `ca`: for a server or proxy with a private certificate. To add to Node's
   * list instead, pass `[...tls.rootCertificates, yours]` or set NODE_EXTRA_CA_CERTS.
   */
  ca?: string | Buffer | Array<string | Buffer> | undefined;
  /** Headers added to every request. */
  headers?: Record<string, string> | undefined;
  /** Retries of requests that are safe to repeat. Default 2. */
  maxRetries?: number | undefined;
  /**
   * Timeout of each attempt of a request, in ms, until the whole answer has arrived. Default
   * 60000; 0 disables it. A run waits for its answer to begin as long as its script takes (pass
   * a `signal`, or the call's own `timeoutMs`, to stop one); the rest of its answer gets this.
   */
  timeoutMs?: number | undefined;
  /** Told before each retry (the CLI prints a notice). */
  onRetry?: ((info: RetryInfo) => void) | undefined;
  /**
   * Sends the credential over plain `http:` to a host other than this machine's loopback, where
   * anyone on the way can read it. Off by default: such a `baseUrl` or `runBaseUrl` is refused when
   * the client is made. For a test server on another machine of a private network, say.
   */
  allowInsecureHttp?: boolean | undefined;
}

export type ReduckClientOptions = ReduckCredential & ReduckClientSettings;

/** What the run function needs from a client, kept out of the public surface. */
export interface ClientInternals {
  /** The credential's headers for a request to `resource` (a base URL); rejects with a CredentialError. */
  authHeaders(resource: string): Promise<Record<string, string>>;
  /** How every request leaves (exchange.ts): the caller's fetch (late-bound) or node:http. */
  route: Route;
  headers: Record<string, string>;
  /** The timeout, retries and retry notice calls get unless they give their own. */
  settings: CallSettings;
  /** Catalogue requests and polls: timeout, caller's abort, retries. */
  transport: Transport;
  /** The credential's values, to redact from anything a server echoes back. */
  secrets(): string[];
}

const internals = new WeakMap<ReduckClient, ClientInternals>();

/**
 * createReduckClient's refusal of an option, thrown when the client is made: `option` names it,
 * `problem` says what is wrong with it.
 *
 * @example
 * ```ts
 * try {
 *   createReduckClient({ apiKey, baseUrl: "ftp://example.com" });
 * } catch (err) {
 *   if (err instanceof ClientOptionError && err.option === "baseUrl") console.error(`REDUCK_API_URL: ${err.problem}`);
 * }
 * ```
 */
export class ClientOptionError extends TypeError {
  override name = "ClientOptionError";
  constructor(
    readonly option: string,
    readonly problem: string,
  ) {
    super(`createReduckClient${problem.startsWith("needs ") ? " " : ": "}${problem}`);
  }
}

/** @internal Used by the run module; not exported from the package. */
export function clientInternals(client: ReduckClient): ClientInternals {
  const found = internals.get(client);
  if (!found) throw new TypeError("expected a client made by createReduckClient()");
  return found;
}

/**
 * A configured connection to the service. Pass it as `client` to every function.
 * The credential is held privately: logging or serialising a client never shows it.
 */
export class ReduckClient {
  readonly baseUrl: string;
  readonly runBaseUrl: string;
  readonly credentialKind: "apiKey" | "oauthToken";
  readonly maxRetries: number;
  private openapi?: Client<paths>;

  /** @internal Use createReduckClient(). */
  constructor(options: ReduckClientOptions) {
    const { apiKey, oauthToken } = options as { apiKey?: unknown; oauthToken?: unknown };
    const given = [apiKey, oauthToken].filter((v) => v !== undefined && v !== null);
    if (given.length !== 1) {
      const why = given.length
        ? "both were given"
        : "apiKey" in options
          ? "apiKey is undefined (an environment variable that is not set?)"
          : "neither was given";
      throw new ClientOptionError(oauthToken === undefined ? "apiKey" : "oauthToken", `needs exactly one credential, apiKey or oauthToken: ${why}`);
    }
    const secret = given[0];
    const isProvider = oauthToken !== undefined && typeof secret === "function";
    if (!isProvider && (typeof secret !== "string" || !secret.trim())) {
      throw new ClientOptionError(
        apiKey !== undefined ? "apiKey" : "oauthToken",
        apiKey !== undefined ? "apiKey must be a non-empty string" : "oauthToken must be a non-empty string or a function giving one",
      );
    }
    this.credentialKind = apiKey !== undefined ? "apiKey" : "oauthToken";
    this.baseUrl = checkUrl("baseUrl", options.baseUrl ?? DEFAULT_BASE_URL);
    this.runBaseUrl = checkUrl("runBaseUrl", options.runBaseUrl ?? options.baseUrl ?? DEFAULT_RUN_BASE_URL);
    const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxRetries = maxRetries;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new ClientOptionError("maxRetries", "maxRetries must be a whole number, 0 or more");
    if (!(timeoutMs >= 0)) throw new ClientOptionError("timeoutMs", "timeoutMs must be 0 (no timeout) or a positive number of milliseconds");

    // Every value the credential has taken, so a server that echoes one back is redacted.
    const issued = new Set<string>(isProvider ? [] : [secret as string]);
    const authHeaders = async (resource: string): Promise<Record<string, string>> => {
      if (this.credentialKind === "apiKey") return { "X-API-Key": secret as string };
      const token = isProvider ? await tokenFrom(secret as OAuthTokenProvider, resource) : (secret as string);
      issued.add(token);
      return { Authorization: `Bearer ${token}` };
    };
    if (options.proxy !== undefined && options.fetch !== undefined) {
      throw new ClientOptionError("proxy", "give either fetch or proxy, not both: your fetch makes its own connections (give it the proxy instead)");
    }
    if (typeof options.proxy === "string") {
      try {
        parseProxy(options.proxy);
      } catch (err) {
        throw new ClientOptionError("proxy", (err as Error).message);
      }
    } else if (options.proxy !== undefined && typeof options.proxy !== "function") {
      throw new ClientOptionError("proxy", "proxy must be a URL such as http://proxy.example:3128, or a function of a request's URL");
    }
    const allowInsecureHttp = options.allowInsecureHttp === true;
    if (!allowInsecureHttp) {
      for (const [name, url] of [
        ["baseUrl", this.baseUrl],
        ["runBaseUrl", this.runBaseUrl],
      ]) {
        if (isPlainHttpElsewhere(url!))
          throw new ClientOptionError(
            name!,
            `${name} ${url} is plain http to another machine, where anyone on the way could read your ${this.credentialKind === "apiKey" ? "API key" : "token"}: use https (plain http is for this machine's loopback only), or set allowInsecureHttp: true to send it anyway`,
          );
      }
    }
    const headers = { "User-Agent": USER_AGENT, ...options.headers };
    const custom = options.fetch;
    // Late-bound, so MSW (which patches globalThis.fetch after import) and test doubles work.
    const customFetch: typeof fetch | undefined = custom && ((input, init) => custom(input, init));
    const route: Route = { fetch: customFetch, connections: new Connections({ proxy: options.proxy, ca: options.ca }), allowInsecureHttp };
    const settings: CallSettings = { maxRetries, timeoutMs, onRetry: options.onRetry };
    const transport = createTransport(route, settings);
    const secrets = () => [...issued];
    internals.set(this, { authHeaders, route, headers, settings, transport, secrets });
  }

  /**
   * An openapi-fetch client over the same transport (auth, retries, timeouts, proxy), for calls
   * the typed functions do not cover. Made on first use.
   */
  get api(): Client<paths> {
    if (this.openapi) return this.openapi;
    const { transport, authHeaders, headers } = clientInternals(this);
    const baseUrl = this.baseUrl;
    const api = createClient<paths>({
      baseUrl,
      headers,
      fetch: async (request: Request) => {
        const body = request.body ? await request.text() : undefined;
        const all: Record<string, string> = {};
        request.headers.forEach((value, name) => (all[name] = value));
        return answerResponse(await transport({ method: request.method, url: request.url, headers: all, body }, request.signal));
      },
    });
    const auth: Middleware = {
      async onRequest({ request }) {
        for (const [name, value] of Object.entries(await authHeaders(baseUrl))) request.headers.set(name, value);
        return request;
      },
    };
    api.use(auth);
    return (this.openapi = api);
  }

  /** Shows where the client points, never the credential. */
  [Symbol.for("nodejs.util.inspect.custom")]() {
    return `ReduckClient { baseUrl: '${this.baseUrl}', runBaseUrl: '${this.runBaseUrl}', credential: ${this.credentialKind} }`;
  }

  toJSON() {
    return { baseUrl: this.baseUrl, runBaseUrl: this.runBaseUrl, credentialKind: this.credentialKind };
  }
}

/**
 * The same client (credential, connections) with a call's own timeout, retries or retry notice
 * in place of the client's, for a call that makes several requests (a run and its polls, a
 * batch): every request of it then gets them. The client itself when nothing is overridden.
 *
 * @example
 * const patient = withCallSettings(client, { timeoutMs: 120_000, maxRetries: 0 });
 */
export function withCallSettings(client: ReduckClient, overrides: CallSettingsOptions): ReduckClient {
  if (overrides.timeoutMs === undefined && overrides.maxRetries === undefined && overrides.onRetry === undefined) return client;
  const base = clientInternals(client);
  const settings = withSettings(base.settings, overrides);
  const derived: ReduckClient = Object.assign(Object.create(ReduckClient.prototype) as ReduckClient, {
    baseUrl: client.baseUrl,
    runBaseUrl: client.runBaseUrl,
    credentialKind: client.credentialKind,
    maxRetries: settings.maxRetries,
  });
  const transport: Transport = (request, signal, more) => base.transport(request, signal, withSettings(settings, more));
  internals.set(derived, { ...base, settings, transport });
  return derived;
}

/**
 * Creates a client with exactly one credential.
 *
 * @example
 * ```ts
 * import { createReduckClient, listScripts } from "reduck-client";
 * const client = createReduckClient({ apiKey: process.env.REDUCK_API_KEY! });
 * const { data, error } = await listScripts({ client, path: { handle: "reduck" } });
 * ```
 */
export function createReduckClient(options: ReduckClientOptions): ReduckClient {
  return new ReduckClient(options);
}

/** Asks an oauthToken function for a token; any failure becomes a CredentialError (a `credential` error value). */
async function tokenFrom(provider: OAuthTokenProvider, resource: string): Promise<string> {
  let token: unknown;
  try {
    token = await provider({ resource });
  } catch (err) {
    const e = err as { message?: unknown; code?: unknown };
    throw new CredentialError(
      typeof e?.message === "string" && e.message ? e.message : `the oauthToken function failed: ${String(err)}`,
      typeof e?.code === "string" ? e.code : undefined,
    );
  }
  if (typeof token !== "string" || !token.trim()) {
    throw new CredentialError(`the oauthToken function gave ${token === "" ? "an empty string" : typeof token} instead of an access token`);
  }
  return token;
}

function checkUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ClientOptionError(name, `${name} must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ClientOptionError(name, `${name} must use http or https, got ${url.protocol}`);
  }
  return value.replace(/\/+$/, "");
}
