import { BaseCommand } from "../shell/base.js";
import { CliError } from "../shell/errors.js";
import { ExitCode } from "../shell/exit-codes.js";
import type { ReduckClient } from "../../client.js";
import { serviceFolder } from "../../mcp/folder.js";

/**
 * REDUCK_MCP_HOLD_MS: how long a tool call waits on a run before answering with its handle
 * (default 45 s, under MCP clients' ~60 s limit). For tests, and for clients with a shorter limit.
 */
function holdFromEnv(): number | undefined {
  const raw = process.env.REDUCK_MCP_HOLD_MS;
  if (!raw) return undefined;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 0)
    throw new CliError(`REDUCK_MCP_HOLD_MS must be a whole number of milliseconds (got ${JSON.stringify(raw)})`, ExitCode.USAGE);
  return ms;
}

/** How users start the agent tool: by this package's name, so npx can resolve no other. */
const ADD_TO_CLAUDE = "claude mcp add reduck -- npx -y reduck-client mcp";

export default class Mcp extends BaseCommand<typeof Mcp> {
  static override summary = "Serve the agent tool (MCP over stdio): run_script with files from the reduck folder";
  static override description =
    `Starts a Model Context Protocol server on stdin/stdout for an MCP client (Claude Code, Cursor, Codex...), which starts it and talks to it: it is not run by hand. Tools: run_script, read_run_results, list_scripts, read_script, list_runs, whoami. It uses the same credentials and URLs as the other commands.

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
  ];

  public async run(): Promise<void> {
    if (process.stdin.isTTY) {
      // A person started it: the silence that follows would look like a hang.
      process.stderr.write(
        `reduck mcp is waiting for an MCP client on stdio; a client starts it itself once added to it, e.g. ${ADD_TO_CLAUDE} (Ctrl-C to stop)\n`,
      );
    }
    const { serveStdio } = await import("../../mcp/server.js");
    await serveStdio({ folder: serviceFolder(), client: () => this.clientOrProblem(), holdMs: holdFromEnv() });
  }

  /**
   * The client, or what is wrong with the configuration. The server still answers the
   * handshake without a credential (an MCP client would only show "failed to start"), and
   * each tool call says what to fix.
   */
  private async clientOrProblem(): Promise<ReduckClient | { problem: string }> {
    try {
      return await this.client();
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
      if (err.exitCode !== ExitCode.AUTH) return { problem: err.message };
      return {
        problem:
          `${err.message}. To give this agent tool a key, add "env": { "REDUCK_API_KEY": "rk_..." } to its entry in your MCP client's configuration ` +
          "(Claude Code: claude mcp add reduck -e REDUCK_API_KEY=rk_... -- npx -y reduck-client mcp) and restart it.",
      };
    }
  }
}
