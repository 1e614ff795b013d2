/**
 * The pieces the OAuth end-to-end tests share: the sandbox over real loopback HTTP trusting a real
 * authorization server (oidc-provider), the built CLI spawned with a clean environment, and a
 * `reduck login` completed by driving the sign-in pages as a person would.
 */
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { http, type RequestHandler } from "msw";
import { createHandlers, createStore, startHttpServer, type SandboxStore } from "@reduck-client/sandbox";
import { directRoutesOf, trustAuthorizationServer, withDirectRoute } from "@reduck-client/sandbox/internal";
import { BIN, baseEnv, type CliResult } from "../support/cli.js";
import { startAuthorizationServer, type TestAuthorizationServer } from "./authorization-server.js";
import { signInInBrowser, type SignInResult } from "./browser.js";

export interface SeenRequest {
  method: string;
  path: string;
  /** The `aud` of the bearer JWT it carried, if any. */
  audience?: string;
}

export interface OAuthWorld {
  store: SandboxStore;
  /** The sandbox's origin: its API resource. Its run host is `${url}/mcp`. */
  url: string;
  as: TestAuthorizationServer;
  /** Every request the sandbox received, with the audience of its token. */
  seen: SeenRequest[];
  close(): Promise<void>;
}

export interface OAuthWorldOptions {
  accessTokenTtl?: number;
  /**
   * Both servers over https, called by names that resolve only inside a test proxy (the sandbox's
   * and the issuer's), so that clients reach them only through it. `fetch` is the test's own way
   * there, for the sandbox reading the issuer's keys.
   */
  named?: { tls: { cert: string; key: string }; sandbox: string; issuer: string; fetch: typeof fetch };
}

/** The sandbox and an authorization server that trust each other, both on loopback. */
export async function startOAuthWorld({ accessTokenTtl, named }: OAuthWorldOptions = {}): Promise<OAuthWorld> {
  const store = createStore();
  const seen: SeenRequest[] = [];
  const server = await startHttpServer({ handlers: recording(createHandlers(store), seen), ...(named && { tls: named.tls, name: named.sandbox }) });
  const as = await startAuthorizationServer({
    resources: [server.url, `${server.url}/mcp`],
    accessTokenTtl,
    ...(named && { tls: named.tls, name: named.issuer }),
  });
  await trustAuthorizationServer(store, as.issuer, { fetch: named?.fetch });
  return {
    store,
    url: server.url,
    as,
    seen,
    close: async () => {
      await server.close();
      await as.close();
    },
  };
}

/** Notes each request (catalogue calls through msw, runs through their direct route) before it is answered. */
function recording(handlers: RequestHandler[], seen: SeenRequest[]): RequestHandler[] {
  const note = (request: Request) => {
    const token = /^Bearer (\S+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
    let audience: string | undefined;
    if (token?.split(".").length === 3) audience = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()).aud;
    seen.push({ method: request.method, path: new URL(request.url).pathname, audience });
  };
  for (const handler of handlers) {
    const [route] = directRoutesOf([handler]);
    if (route) withDirectRoute(handler, { ...route, respond: (request) => (note(request), route.respond(request)) });
  }
  return [noteEverything(note), ...handlers];
}

function noteEverything(note: (request: Request) => void): RequestHandler {
  // Answers nothing: msw goes on to the real handlers.
  return http.all("*", ({ request }) => {
    note(request);
    return undefined;
  });
}

/** Runs the built CLI with only `env` (and PATH); resolves when it exits. */
export function runReduck(args: string[], env: Record<string, string>, { input }: { input?: string } = {}): Promise<CliResult> {
  return spawnReduck(args, env, { input }).done;
}

export function spawnReduck(args: string[], env: Record<string, string>, { input }: { input?: string } = {}) {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...baseEnv(), NO_COLOR: "1", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const listeners = new Set<() => void>();
  child.stdout.on("data", (c) => (stdout += c));
  child.stderr.on("data", (c) => {
    stderr += c;
    for (const l of listeners) l();
  });
  child.stdin.end(input ?? "");
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
  /** Resolves with the first match of `pattern` in what the CLI printed on stderr so far or later. */
  const stderrMatch = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const m = pattern.exec(stderr);
        if (m) {
          listeners.delete(check);
          resolve(m);
        }
      };
      listeners.add(check);
      check();
      void done.then(() => reject(new Error(`the CLI exited without printing ${pattern}:\n${stderr}`)));
    });
  return { child, done, stderrMatch };
}

/** The sign-in link `reduck login` prints. */
/**
 * Registers a public native client at the authorization server's registration endpoint, as the
 * CLI does on first login, and returns its id: for tests that need a client the CLI did not make.
 */
export async function registerNativeClient(registrationEndpoint: string): Promise<string> {
  const registered = await fetch(registrationEndpoint, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      application_type: "native",
      redirect_uris: ["http://127.0.0.1/callback"],
      grant_types: ["authorization_code", "refresh_token"],
      token_endpoint_auth_method: "none",
    }),
  });
  const { client_id } = (await registered.json()) as { client_id: string };
  return client_id;
}

export const LINK = /^ {2}(http\S+)$/m;

export interface LoginResult extends CliResult {
  link: string;
  browser: SignInResult;
}

/**
 * `reduck login --no-browser`, completed by signing in as `login` on the authorization server's
 * pages through the printed link (with the browser's `fetch`).
 */
export async function loginWithBrowser(
  env: Record<string, string>,
  {
    login = "demo",
    args = [] as string[],
    consent = true,
    fetch,
  }: { login?: string; args?: string[]; consent?: boolean; fetch?: typeof globalThis.fetch } = {},
): Promise<LoginResult> {
  const cli = spawnReduck(["login", "--no-browser", ...args], env);
  const [, link] = await cli.stderrMatch(LINK);
  const browser = await signInInBrowser(link!, login, { consent, fetch });
  return { ...(await cli.done), link: link!, browser };
}

export async function readStoredConfig(configDir: string): Promise<any> {
  return JSON.parse(await readFile(path.join(configDir, "config.json"), "utf8"));
}
