import { Flags } from "@oclif/core";
import { BaseCommand } from "../shell/base.js";
import { CliError } from "../shell/errors.js";
import { ExitCode } from "../shell/exit-codes.js";
import type { ReduckClient } from "../../client.js";
import { serviceFolder } from "../../mcp/folder.js";
import { tokenProblem } from "../../mcp/token.js";

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

/** The port `reduck mcp --http` listens on unless told otherwise. */
const DEFAULT_HTTP_PORT = 4100;

/** How users start the agent tool: by this package's name, so npx can resolve no other. */
const ADD_TO_CLAUDE = "claude mcp add reduck -- npx -y reduck-client mcp";

/** REDUCK_MCP_TOKEN: the bearer token for --http, when the user gives one (else a random one, printed). */
function tokenFromEnv(): string | undefined {
  const token = process.env.REDUCK_MCP_TOKEN;
  if (!token) return undefined;
  const problem = tokenProblem(token);
  if (problem) throw new CliError(`REDUCK_MCP_TOKEN ${problem}`, ExitCode.USAGE);
  return token;
}

/** The lines `reduck mcp --http` prints at start: where it is, the token, and a client's configuration. */
function httpBanner(url: string, token: string, given: boolean): string {
  const shown = given ? "$REDUCK_MCP_TOKEN" : token;
  const config = JSON.stringify({ mcpServers: { reduck: { type: "http", url, headers: { Authorization: `Bearer ${shown}` } } } });
  return [
    `reduck mcp: serving MCP over Streamable HTTP at ${url} (this machine only; Ctrl-C to stop)`,
    given ? "Bearer token: the one in REDUCK_MCP_TOKEN" : `Bearer token: ${token}  (a new one each start; set REDUCK_MCP_TOKEN to keep one)`,
    `Client configuration: ${config}`,
    `Claude Code: claude mcp add --transport http reduck ${url} --header "Authorization: Bearer ${shown}"`,
    "",
  ].join("\n");
}

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
    if (this.flags.http) return this.serveHttp();
    if (process.stdin.isTTY) {
      // A person started it: the silence that follows would look like a hang.
      process.stderr.write(
        `reduck mcp is waiting for an MCP client on stdio; a client starts it itself once added to it, e.g. ${ADD_TO_CLAUDE} (Ctrl-C to stop)\n`,
      );
    }
    const { serveStdio } = await import("../../mcp/server.js");
    await serveStdio({ folder: serviceFolder(), client: () => this.clientOrProblem(), holdMs: holdFromEnv() });
  }

  /** --http: serves until SIGINT or SIGTERM, then ends every session and exits 0. */
  private async serveHttp(): Promise<void> {
    const token = tokenFromEnv();
    const origins = this.flags["allow-origin"] ?? [];
    for (const origin of origins) {
      if (!/^https?:\/\/[^/\s]+$/i.test(origin.replace(/\/+$/, ""))) {
        throw new CliError(
          `--allow-origin ${origin}: an origin is a scheme and a host, with a port if any, e.g. https://app.example or http://localhost:6274`,
          ExitCode.USAGE,
        );
      }
    }
    const port = this.flags.port ?? DEFAULT_HTTP_PORT;
    const { serveHttp } = await import("../../mcp/http.js");
    let served: Awaited<ReturnType<typeof serveHttp>>;
    try {
      served = await serveHttp(
        { folder: serviceFolder(), client: () => this.clientOrProblem(), holdMs: holdFromEnv() },
        { port, token, allowOrigins: origins },
      );
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EADDRINUSE") throw new CliError(`port ${port} is in use: pick another with --port, or --port 0 for a free one`, ExitCode.USAGE);
      if (code === "EACCES") throw new CliError(`port ${port} needs privileges: pick one above 1024 with --port`, ExitCode.USAGE);
      throw err;
    }
    process.stderr.write(httpBanner(served.url, served.token, token !== undefined));
    await new Promise<void>((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    });
    await served.close();
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
