/**
 * The agent tool as MCP clients meet it: the built `reduck mcp` spawned over stdio, talking to
 * the sandbox over real HTTP, with a simulated desktop (for a file's tests:
 * test/support/sandbox.ts's useCliSandbox({ desktop })).
 */
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { spawn } from "node:child_process";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll } from "vitest";
import { createHandlers, createStore, startHttpServer, type SandboxStore } from "@reduck-client/sandbox";
import { BIN, baseEnv } from "../support/cli.js";
import { temporaryFolder } from "../support/files.js";
import type { CliSandbox } from "../support/sandbox.js";

export interface Sandbox {
  store: SandboxStore;
  url: string;
  close(): Promise<void>;
}

export async function startSandbox(desktop: string): Promise<Sandbox> {
  const store = createStore({ desktopDir: desktop });
  const server = await startHttpServer({ handlers: createHandlers(store) });
  return { store, url: server.url, close: () => server.close() };
}

/** A home with no stored login, so only what a test gives counts (removed when the test file ends). */
export async function emptyHome(): Promise<Record<string, string>> {
  const home = temporaryFolder("reduck-home-");
  return { HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), APPDATA: path.join(home, "AppData") };
}

/** The environment `reduck mcp` gets from an MCP client's configuration. */
export async function mcpEnv(extra: Record<string, string>): Promise<Record<string, string>> {
  return { ...baseEnv(), NO_COLOR: "1", ...(await emptyHome()), ...extra };
}

/**
 * The SDK's client, connected to a freshly spawned `reduck mcp`. It lists the tools at once, as
 * clients do: from then on the SDK checks every structured answer against its tool's output schema.
 */
export async function connectClient(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const client = new Client({ name: "reduck-test", version: "1.0.0" });
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp"], env, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => (stderr += chunk));
  await client.connect(transport);
  await client.listTools();
  return { client, stderr: () => stderr };
}

/** Every tool of the agent tool: the hosted server's tools that the public API can serve. */
export const ALL_TOOLS = [
  "run_script",
  "read_run_results",
  "read_run_trace",
  "list_scripts",
  "read_script",
  "list_runs",
  "whoami",
  "list_devices",
  "create_script",
  "list_script_versions",
  "create_draft_script_version",
  "patch_draft_script_version",
  "promote_script_version",
  "delete_draft_script_version",
  "update_script_metadata",
  "archive_script",
  "unarchive_script",
  "read_host_readme",
  "set_host_readme",
  "delete_host_readme",
] as const;

/** A spawned `reduck mcp --http`: where it listens and its token, from what it printed at start. */
export interface HttpMcp {
  url: string;
  port: number;
  token: string;
  pid: number;
  stderr(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts the built `reduck mcp --http --port 0 ...` and waits for the lines it prints when it listens. */
export async function spawnHttpMcp(env: Record<string, string>, args: string[] = []): Promise<HttpMcp> {
  const child = spawn(process.execPath, [BIN, "mcp", "--http", "--port", "0", ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const started = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    exited.then((code) => reject(new Error(`reduck mcp --http exited (${code}) before listening: ${stderr}`)));
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp) /.exec(stderr)?.[1];
      const token = /^Bearer token: (\S+)/m.exec(stderr)?.[1];
      const config = /^Client configuration: (.*)$/m.exec(stderr)?.[1];
      if (url && token && config) resolve({ url, token: token === "the" ? (env.REDUCK_MCP_TOKEN ?? "") : token });
    });
  });
  return {
    ...started,
    port: Number(new URL(started.url).port),
    pid: child.pid!,
    stderr: () => stderr,
    stop: () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

/** The SDK's Streamable HTTP client, with the bearer token, connected to `url`; tools listed (see connectClient). */
export async function httpClient(url: string, token: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: "reduck-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  await client.listTools();
  return { client, transport };
}

/**
 * A spawned `reduck mcp --http` and the SDK's client connected to it. `close` ends the session
 * (DELETE), closes the client and stops the server, which must exit 0.
 */
export async function connectHttp(env: Record<string, string>): Promise<{ client: Client; server: HttpMcp; close(): Promise<void> }> {
  const server = await spawnHttpMcp(env);
  const { client, transport } = await httpClient(server.url, server.token);
  return {
    client,
    server,
    async close() {
      await transport.terminateSession();
      await client.close();
      const code = await server.stop();
      if (code !== 0) throw new Error(`reduck mcp --http exited ${code}: ${server.stderr()}`);
    },
  };
}

export const SEND_EMAIL = { handle: "reduck", host: "mail.google.com", slug: "send_email" };
/** run_script's arguments for SEND_EMAIL with these files (and `extra` beside the script). */
export const sendEmail = (files: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  script: { ...SEND_EMAIL, args: { to: "me@example.com", subject: "Banner" }, files },
  ...extra,
});

export interface ToolAnswer {
  isError: boolean;
  /** The first content item's text. */
  text: string;
  structured: any;
  /** Every content item (text and images). */
  content: Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
  json(): any;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const result = (await client.callTool({ name, arguments: args })) as {
    content: ToolAnswer["content"];
    isError?: boolean;
    structuredContent?: unknown;
  };
  const text = result.content[0]?.text ?? "";
  return { isError: Boolean(result.isError), text, structured: result.structuredContent, content: result.content, json: () => JSON.parse(text) };
}

/**
 * The agent tool over `transport` for the calling describe block: the built `reduck mcp` against
 * the file's sandbox (its key and desktop), connected before the block's tests and closed after
 * them. Read `client` inside tests, not at the top of the block.
 *
 * @example
 * describe.each(["stdio", "http"] as const)("over %s", (transport) => {
 *   const agent = useToolClient(sandbox, transport);
 *   test("whoami", async () => expect((await agent.call("whoami", {})).isError).toBe(false));
 * });
 */
export function useToolClient(
  sandbox: CliSandbox,
  transport: "stdio" | "http",
): { readonly client: Client; call(name: string, args: Record<string, unknown>): Promise<ToolAnswer> } {
  let client: Client | undefined;
  let close: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const env = await mcpEnv({ REDUCK_API_URL: sandbox.server.url, REDUCK_API_KEY: sandbox.store.demo.apiKey, REDUCK_DESKTOP: sandbox.desktop });
    if (transport === "stdio") {
      const connected = (await connectClient(env)).client;
      client = connected;
      close = () => connected.close();
    } else {
      const served = await connectHttp(env);
      client = served.client;
      close = served.close;
    }
  }, 60_000);
  afterAll(async () => {
    await close();
  });
  const connected = (): Client => {
    if (!client) throw new Error("useToolClient: the client is connected before the block's first test; read it inside a test");
    return client;
  };
  return {
    get client() {
      return connected();
    },
    call: (name, args) => callTool(connected(), name, args),
  };
}
