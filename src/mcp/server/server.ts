import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ReduckClient } from "../../core/client.js";
import { closestMatches } from "../../core/words/suggest.js";
import { PACKAGE_VERSION } from "../../version.js";
import { fail, type ToolResult } from "../common/answers.js";
import { inputErrorLine } from "../common/input-errors.js";
import { schemaParts } from "../common/schema-parts.js";
import type { Tool, ToolSpec } from "../common/tool.js";
import { toolSchemas } from "../common/tool-schemas.js";
import { TOOLS } from "../tool-list.js";
import { callExtra, DEFAULT_HOLD_MS } from "../common/waiting.js";

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

/** What the server tells a client about itself, which some clients show to the model. */
const INSTRUCTIONS =
  "Reduck runs browser-automation scripts and returns each one's result as JSON. Find a script with list_scripts, read its inputs with read_script, run it with run_script; when a run fails, read_run_trace shows its steps and the page. To write or fix a script: create_script, or create_draft_script_version, try it with run_script and script.version_id, then promote_script_version. Files are named by relativePath inside the reduck folder on the desktop.";

/**
 * The local agent tool: the hosted server's tools that the public API can serve, under the
 * hosted names, with files named inside the reduck folder. Built on the SDK's low-level
 * server so that every answer is ours: a call with wrong arguments, or to a tool that does not
 * exist, is a tool error in one line that says what to do, never a protocol error.
 */
export async function createMcpServer(ctx: ServerContext): Promise<Server> {
  // Loaded here, not at the top: only `reduck mcp` needs the SDK and zod.
  const [{ Server }, { CallToolRequestSchema, ListToolsRequestSchema }, { toJsonSchemaCompat }, { z }] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/index.js"),
    import("@modelcontextprotocol/sdk/types.js"),
    import("@modelcontextprotocol/sdk/server/zod-json-schema-compat.js"),
    import("zod"),
  ]);
  const holdSeconds = Math.round((ctx.holdMs ?? DEFAULT_HOLD_MS) / 1000);
  const setting = { z, parts: schemaParts(z), s: toolSchemas(z), folder: ctx.folder, holdSeconds };
  const tools = TOOLS.map((tool) => ({ ...tool.spec(setting), name: tool.name, run: tool.run }));
  const byName = new Map<string, ToolSpec & Pick<Tool, "name" | "run">>(tools.map((t) => [t.name, t]));
  const server = new Server({ name: "reduck", version: PACKAGE_VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });

  // Written once: the same schemas for every client and session.
  const listed = tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: toJsonSchemaCompat(tool.input, { strictUnions: true, pipeStrategy: "input" }) as { type: "object" },
    ...(tool.output ? { outputSchema: toJsonSchemaCompat(tool.output, { strictUnions: true, pipeStrategy: "output" }) as { type: "object" } } : {}),
    annotations: { title: tool.title, ...tool.annotations },
  }));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<ToolResult> => {
    const { name, arguments: args } = request.params;
    const tool = byName.get(name);
    if (!tool) {
      const meant = closestMatches(name, byName.keys());
      return fail(
        `There is no tool named ${JSON.stringify(name)}${meant.length ? `: did you mean ${meant.join(" or ")}?` : "."} The tools: ${[...byName.keys()].join(", ")}.`,
      );
    }
    const parsed = tool.input.safeParse(args ?? {});
    if (!parsed.success) return fail(inputErrorLine(name, tool.input, parsed.error, tool.usage));
    const client = await ctx.client();
    if ("problem" in client) return fail(client.problem);
    try {
      return await tool.run({ client, folder: ctx.folder, holdMs: ctx.holdMs }, parsed.data, callExtra(extra));
    } catch (err) {
      // A bug of ours, not the agent's: one line, no stack, and the call can be reported.
      return fail(`${name} failed inside this server (a bug of reduck-client, not of your call): ${err instanceof Error ? err.message : String(err)}`);
    }
  });
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
