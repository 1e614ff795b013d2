/**
 * A bare MCP client over a child's stdio: newline-delimited JSON-RPC, as the MCP stdio
 * transport is. For tests that must start the server their own way (through npx, as another
 * user), which the SDK's StdioClientTransport does not allow.
 */
import { spawn, type SpawnOptions } from "node:child_process";
import { createInterface } from "node:readline";

export interface McpProcess {
  /** Sends a request and resolves with its `result`; rejects on a JSON-RPC error or an early exit. */
  request(method: string, params?: Record<string, unknown>): Promise<any>;
  notify(method: string, params?: Record<string, unknown>): void;
  /** `initialize` then `notifications/initialized`; resolves with the server's initialize result. */
  initialize(): Promise<{ protocolVersion: string; serverInfo: { name: string; version: string } }>;
  /** Closes stdin (which ends the server) and resolves with its exit code. */
  close(): Promise<number | null>;
  stderr(): string;
}

export function startMcp(command: string, args: string[], options: SpawnOptions = {}): McpProcess {
  const child = spawn(command, args, { ...options, stdio: ["pipe", "pipe", "pipe"] });
  let errors = "";
  child.stderr!.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const exited = new Promise<number | null>((resolve) => {
    child.on("error", (err) => {
      for (const p of pending.values()) p.reject(err);
      resolve(null);
    });
    child.on("close", (code) => {
      for (const p of pending.values()) p.reject(new Error(`the MCP server exited (${code}) before answering; stderr: ${errors}`));
      resolve(code);
    });
  });
  createInterface({ input: child.stdout! }).on("line", (line) => {
    let message: { id?: number; result?: unknown; error?: { message: string } };
    try {
      message = JSON.parse(line);
    } catch {
      errors += `(not JSON on stdout) ${line}\n`;
      return;
    }
    const waiter = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id!);
    if (message.error) waiter.reject(new Error(`JSON-RPC error: ${message.error.message}`));
    else waiter.resolve(message.result);
  });

  let nextId = 1;
  const send = (message: object) => child.stdin!.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
  const mcp: McpProcess = {
    request(method, params = {}) {
      const id = nextId++;
      const answer = new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
      send({ id, method, params });
      return answer;
    },
    notify(method, params = {}) {
      send({ method, params });
    },
    async initialize() {
      const result = await mcp.request("initialize", {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "reduck-package-test", version: "1.0.0" },
      });
      mcp.notify("notifications/initialized");
      return result;
    },
    close() {
      child.stdin!.end();
      return exited;
    },
    stderr: () => errors,
  };
  return mcp;
}
