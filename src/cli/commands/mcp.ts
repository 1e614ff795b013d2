import { Flags } from "@oclif/core";
import { ADD_TO_CLAUDE, DEFAULT_HTTP_PORT, serveOverHttp, serveOverStdio } from "../mcp/serve.js";
import { BaseCommand } from "../shell/base.js";

export default class Mcp extends BaseCommand<typeof Mcp> {
  static override summary = "Serve the agent tool (MCP over stdio, or Streamable HTTP with --http): run, debug, write and promote scripts";
  static override description =
    `Starts a Model Context Protocol server on stdin/stdout for an MCP client (Claude Code, Cursor, Codex...), which starts it and talks to it: it is not run by hand. Tools (the hosted server's names): run_script, read_run_results, read_run_trace, list_scripts, read_script, list_runs, whoami, list_devices, create_script, list_script_versions, create_draft_script_version, patch_draft_script_version, promote_script_version, delete_draft_script_version, update_script_metadata, archive_script, unarchive_script, read_host_readme, set_host_readme, delete_host_readme. It uses the same credentials and URLs as the other commands.

--http serves the same tools over Streamable HTTP on 127.0.0.1 only (for clients that speak only HTTP), at http://127.0.0.1:PORT/mcp, until Ctrl-C. Clients must send "Authorization: Bearer TOKEN": the token is printed at start (a new one each time), or taken from REDUCK_MCP_TOKEN (at least 32 characters). Requests whose Host is not 127.0.0.1 or localhost, or whose Origin is a web page's other than the server's own (or one given with --allow-origin), are refused.

Start it by this package's name, "npx -y reduck-client mcp" (never "npx reduck": that is another package), or "reduck mcp" after "npm install -g reduck-client". In a client's JSON configuration:
  "reduck": { "command": "npx", "args": ["-y", "reduck-client", "mcp"], "env": { "REDUCK_API_KEY": "rk_..." } }

Files are named by relativePath inside the reduck folder on the desktop (~/Desktop/reduck; set REDUCK_DESKTOP to use another desktop folder). On your own browser the name is forwarded and the browser reads the file; on a managed browser this server reads the file and uploads its bytes, and the file then arrives named after its input unless the script takes a name argument.`;
  static override examples = [
    { description: "Add it to Claude Code", command: `${ADD_TO_CLAUDE}  # not run by the tests: needs Claude Code` },
    {
      description: "Add it with an API key in its environment",
      command: "claude mcp add reduck -e REDUCK_API_KEY=rk_... -- npx -y reduck-client mcp  # not run by the tests: needs Claude Code",
    },
    {
      description: "Add a global install (npm install -g reduck-client)",
      command: "claude mcp add reduck -- reduck mcp  # not run by the tests: needs Claude Code",
    },
    { description: "Try it against the sandbox", command: "REDUCK_API_URL=http://127.0.0.1:4010 REDUCK_API_KEY=... <%= config.bin %> mcp" },
    {
      description: "Serve it over Streamable HTTP (prints its token)",
      command: "<%= config.bin %> mcp --http --port 4100  # not run by the tests: serves until Ctrl-C",
    },
  ];

  static override flags = {
    http: Flags.boolean({ description: "Serve over Streamable HTTP on 127.0.0.1 instead of stdio." }),
    port: Flags.integer({ description: `Port for --http (default ${DEFAULT_HTTP_PORT}; 0 picks a free one).`, min: 0, max: 65_535, dependsOn: ["http"] }),
    "allow-origin": Flags.string({
      description: "With --http: a web origin (https://app.example) whose pages may call the server. Repeatable.",
      multiple: true,
      dependsOn: ["http"],
    }),
  };

  public async run(): Promise<void> {
    // The credential first: without one, each tool call says how to give the agent tool a key.
    const client = async () => {
      await this.credential();
      return this.client();
    };
    if (this.flags.http) return serveOverHttp(client, this.flags.port ?? DEFAULT_HTTP_PORT, this.flags["allow-origin"] ?? []);
    await serveOverStdio(client);
  }
}
