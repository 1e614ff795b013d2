import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { PACKAGE_VERSION } from "../version.js";
import { listRunsTool, listScriptsTool, readScriptTool, runScriptTool, toolSchemas, whoamiTool, type ToolContext } from "./tools.js";

/** The local agent tool: the hosted tool's run_script, with files named inside the reduck folder. */
export async function createMcpServer(ctx: ToolContext): Promise<McpServer> {
  // Loaded here, not at the top: only `reduck mcp` needs the SDK and zod.
  const [{ McpServer }, { z }] = await Promise.all([import("@modelcontextprotocol/sdk/server/mcp.js"), import("zod")]);
  const { runScriptInput, listScriptsInput, readScriptInput, listRunsInput } = toolSchemas(z);
  const server = new McpServer({ name: "reduck", version: PACKAGE_VERSION });
  server.registerTool(
    "run_script",
    {
      title: "Run a Reduck script",
      description: `Runs a catalogue script (or several) in a browser and returns its result as JSON: { status, runId, result }, or for several scripts { batchId, status, totalSteps, runs }. A script's arguments go in script.args. Files are named, never sent by you: put the file in ${ctx.folder} and pass files: { <input>: { relativePath: "<name>" } } (sub-folders allowed). Use read_script first to see the inputs and which are files.`,
      inputSchema: runScriptInput,
    },
    (input) => runScriptTool(ctx, input),
  );
  server.registerTool(
    "list_scripts",
    { title: "Find scripts", description: "Lists scripts: your own, your projects' and the official catalogue (handle \"reduck\"), filtered by owner, site or words.", inputSchema: listScriptsInput },
    (input) => listScriptsTool(ctx, input),
  );
  server.registerTool(
    "read_script",
    { title: "Read a script's contract", description: "Returns what a script takes (input schema, and which inputs are files), what it returns, whether it needs a login and whether it acts on the site.", inputSchema: readScriptInput },
    (input) => readScriptTool(ctx, input),
  );
  server.registerTool(
    "list_runs",
    { title: "List runs", description: "Your runs, newest first, with their status and errors.", inputSchema: listRunsInput },
    (input) => listRunsTool(ctx, input),
  );
  server.registerTool("whoami", { title: "Who am I", description: "The account in use, its projects and this period's usage, and the folder files are read from.", inputSchema: {} }, () =>
    whoamiTool(ctx),
  );
  return server;
}

export async function serveStdio(ctx: ToolContext): Promise<void> {
  const server = await createMcpServer(ctx);
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  await server.connect(new StdioServerTransport());
}
