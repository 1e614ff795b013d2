import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ReduckClient } from "../client.js";
import { PACKAGE_VERSION } from "../version.js";
import {
  listRunsTool,
  listScriptsTool,
  readRunResultsTool,
  readScriptTool,
  runScriptTool,
  toolSchemas,
  whoamiTool,
  type ToolContext,
  type ToolResult,
} from "./tools.js";
import { callExtra, DEFAULT_HOLD_MS, type CallExtra } from "./waiting.js";

export interface ServerContext {
  /** Absolute path of the service folder (`<desktop>/reduck`). */
  folder: string;
  /**
   * The client for a tool call, or why there is none (no credential yet). Asked at each call,
   * so the handshake never depends on it and every tool can say what to fix.
   */
  client(): Promise<ReduckClient | { problem: string }>;
  /** How long a call waits on a run before answering with its handle (default 45 s; MCP clients give up near 60 s). */
  holdMs?: number;
}

/** The local agent tool: the hosted tool's run_script, with files named inside the reduck folder. */
export async function createMcpServer(ctx: ServerContext): Promise<McpServer> {
  // Loaded here, not at the top: only `reduck mcp` needs the SDK and zod.
  const [{ McpServer }, { z }] = await Promise.all([import("@modelcontextprotocol/sdk/server/mcp.js"), import("zod")]);
  const s = toolSchemas(z);
  const server = new McpServer({ name: "reduck", version: PACKAGE_VERSION });

  /** A tool's handler, given a client or answering with why there is none. */
  const withClient =
    <I>(tool: (tc: ToolContext, input: I, extra: CallExtra) => Promise<ToolResult>) =>
    async (input: I, extra?: Parameters<typeof callExtra>[0]): Promise<ToolResult> => {
      const client = await ctx.client();
      if ("problem" in client) return { content: [{ type: "text", text: client.problem }], isError: true };
      return tool({ client, folder: ctx.folder, holdMs: ctx.holdMs }, input, callExtra(extra));
    };
  const holdSeconds = Math.round((ctx.holdMs ?? DEFAULT_HOLD_MS) / 1000);
  // Reading tools change nothing and may be repeated; all reach the hosted service (open world).
  const reading = { readOnlyHint: true, idempotentHint: true, openWorldHint: true };

  server.registerTool(
    "run_script",
    {
      title: "Run a Reduck script",
      description: `Runs a catalogue script (or several) in a browser and returns its result as JSON: { status, runId, result }, or for several scripts { batchId, status, totalSteps, runs }. Name the script by its address from list_scripts (script: { address: "reduck/mail.google.com/send_email" }) or by host, slug and handle. A script's arguments go in script.args. Files are named, never sent by you: put the file in ${ctx.folder} and pass files: { <input>: { relativePath: "<name>" } } (sub-folders allowed). Use read_script first to see the inputs and which are files. Scripts act on real sites (they may send, post or delete). A run still going after ${holdSeconds} s answers with its handle ({ status: "running", batchId or runId, next }): call read_run_results with it for the outcome, never run_script again.`,
      inputSchema: s.runScriptInput,
      outputSchema: s.runScriptOutput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    withClient(runScriptTool),
  );
  server.registerTool(
    "read_run_results",
    {
      title: "Read a run's results",
      description: `The outcome of a run run_script handed back still going: { runId } for that one run (even one of a batch), { batchId } for every script of the batch. Waits up to ${holdSeconds} s; if the run is still going then, answers with the handle again: call again.`,
      inputSchema: s.readRunResultsInput,
      outputSchema: s.runScriptOutput,
      annotations: reading,
    },
    withClient(readRunResultsTool),
  );
  server.registerTool(
    "list_scripts",
    {
      title: "Find scripts",
      description:
        'Lists scripts: your own, your projects\' and the official catalogue (handle "reduck"), filtered by owner, site or words. Each comes with the address to give read_script and run_script.',
      inputSchema: s.listScriptsInput,
      outputSchema: s.listScriptsOutput,
      annotations: reading,
    },
    withClient(listScriptsTool),
  );
  server.registerTool(
    "read_script",
    {
      title: "Read a script's contract",
      description:
        'Returns what a script takes (input schema, and which inputs are files), what it returns, whether it needs a login and whether it acts on the site. Name it by address ("reduck/mail.google.com/send_email") or by host, slug and handle.',
      inputSchema: s.readScriptInput,
      outputSchema: s.readScriptOutput,
      annotations: reading,
    },
    withClient(readScriptTool),
  );
  server.registerTool(
    "list_runs",
    {
      title: "List runs",
      description: "Your runs, newest first, with their status (completed, failed, queued, running, cancelled: the words run_script uses) and errors.",
      inputSchema: s.listRunsInput,
      outputSchema: s.listRunsOutput,
      annotations: reading,
    },
    withClient(listRunsTool),
  );
  server.registerTool(
    "whoami",
    {
      title: "Who am I",
      description: "The account in use, its projects and this period's usage, and the folder files are read from.",
      inputSchema: s.noInput,
      outputSchema: s.whoamiOutput,
      annotations: reading,
    },
    withClient((tc) => whoamiTool(tc)),
  );
  return server;
}

/**
 * Serves on stdin/stdout until the client closes stdin (how MCP clients stop a server), then
 * answers what it was already asked and returns, so the process exits 0.
 */
export async function serveStdio(ctx: ServerContext): Promise<void> {
  const server = await createMcpServer(ctx);
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  // Listened for before anything reads stdin: an empty stdin (`</dev/null`) ends at once.
  const stdinEnded = new Promise<void>((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  const requests = trackOpenRequests(transport);
  await stdinEnded;
  await requests.settled();
  await server.close();
}

/**
 * Counts requests received and not yet answered, to tell when the server is idle. Installed
 * right after connect(), before any message can arrive (messages come from I/O callbacks).
 */
function trackOpenRequests(transport: Transport): { settled(): Promise<void> } {
  const open = new Set<string | number>();
  let idle: (() => void) | undefined;
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ("method" in message && "id" in message) open.add(message.id);
    receive?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    try {
      await send(message, options);
    } finally {
      if (!("method" in message) && "id" in message && message.id !== undefined) {
        open.delete(message.id);
        if (open.size === 0) idle?.();
      }
    }
  };
  return {
    settled: () => (open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (idle = resolve))),
  };
}
