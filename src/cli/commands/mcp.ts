import { BaseCommand } from "../base.js";
import { serviceFolder } from "../../mcp/folder.js";

export default class Mcp extends BaseCommand<typeof Mcp> {
  static override summary = "Serve the agent tool (MCP over stdio): run_script with files from the reduck folder";
  static override description = `Starts a Model Context Protocol server on stdin/stdout for an MCP client (Claude Code, Cursor, Codex...). Tools: run_script, list_scripts, read_script, list_runs, whoami. It uses the same credentials and URLs as the other commands.

Files are named by relativePath inside the reduck folder on the desktop (~/Desktop/reduck; set REDUCK_DESKTOP to use another desktop folder). On your own browser the name is forwarded and the browser reads the file; on a managed browser this server reads the file and uploads its bytes, and the file then arrives named after its input unless the script takes a name argument.`;
  static override examples = [
    { description: "Add it to Claude Code", command: "claude mcp add reduck -- npx reduck mcp" },
    { description: "Try it against the sandbox", command: "REDUCK_API_URL=http://127.0.0.1:4010 REDUCK_API_KEY=... <%= config.bin %> mcp" },
  ];

  public async run(): Promise<void> {
    const client = await this.client();
    const { serveStdio } = await import("../../mcp/server.js");
    await serveStdio({ client, folder: serviceFolder() });
    // Serve until the client closes stdin.
    await new Promise<void>((resolve) => process.stdin.on("close", resolve));
  }
}
