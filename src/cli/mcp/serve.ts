/**
 * What `reduck mcp` needs around the agent tool's servers (src/mcp/): its settings from the
 * environment, the checks on --allow-origin, the banner --http prints, and a credential problem
 * turned into words each tool call can say.
 */
import type { ReduckClient } from "../../core/client.js";
import { serviceFolder } from "../../mcp/common/folder.js";
import { tokenProblem } from "../../mcp/server/token.js";
import { CliError } from "../shell/errors.js";
import { ExitCode } from "../shell/exit-codes.js";

/** The port `reduck mcp --http` listens on unless told otherwise. */
export const DEFAULT_HTTP_PORT = 4100;

/** How users start the agent tool: by this package's name, so npx can resolve no other. */
export const ADD_TO_CLAUDE = "claude mcp add reduck -- npx -y reduck-client mcp";

/** What both servers are given: the service folder, the client (or what is wrong), how long a call holds a run. */
export function serverOptions(client: () => Promise<ReduckClient>) {
  return { folder: serviceFolder(), client: () => clientOrProblem(client), holdMs: holdFromEnv() };
}

/** Serves over stdio until the client closes it; says so first when a person started it on a terminal. */
export async function serveOverStdio(client: () => Promise<ReduckClient>): Promise<void> {
  if (process.stdin.isTTY) {
    // A person started it: the silence that follows would look like a hang.
    process.stderr.write(
      `reduck mcp is waiting for an MCP client on stdio; a client starts it itself once added to it, e.g. ${ADD_TO_CLAUDE} (Ctrl-C to stop)\n`,
    );
  }
  const { serveStdio } = await import("../../mcp/server/server.js");
  await serveStdio(serverOptions(client));
}

/** --http: serves until SIGINT or SIGTERM, then ends every session and returns. */
export async function serveOverHttp(client: () => Promise<ReduckClient>, port: number, origins: string[]): Promise<void> {
  const token = tokenFromEnv();
  for (const origin of origins) {
    if (!/^https?:\/\/[^/\s]+$/i.test(origin.replace(/\/+$/, ""))) {
      throw new CliError(
        `--allow-origin ${origin}: an origin is a scheme and a host, with a port if any, e.g. https://app.example or http://localhost:6274`,
        ExitCode.USAGE,
      );
    }
  }
  const { serveHttp } = await import("../../mcp/server/http.js");
  let served: Awaited<ReturnType<typeof serveHttp>>;
  try {
    served = await serveHttp(serverOptions(client), { port, token, allowOrigins: origins });
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

/**
 * The client, or what is wrong with the configuration. The server still answers the
 * handshake without a credential (an MCP client would only show "failed to start"), and
 * each tool call says what to fix.
 */
async function clientOrProblem(client: () => Promise<ReduckClient>): Promise<ReduckClient | { problem: string }> {
  try {
    return await client();
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
