/**
 * The sandbox as its own process, as its `reduck-sandbox` command starts it: for tests of the sandbox
 * itself, and for the demo and the benchmark, which use it like a user would.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * Node arguments that run a TypeScript file through tsx's loader, in this very node: portable
 * where node_modules/.bin/tsx is a shell script (a .cmd shim on Windows), the same Node version
 * as the tests, and one process. (tsx's CLI runs the file in a child and relays signals to it;
 * under load its relay gives up after 30 ms and kills the child, so a SIGTERM to the sandbox
 * would end it with 143 instead of its own clean exit.)
 */
export const TSX_NODE_ARGS = ["--import", pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href];

/**
 * The `reduck-sandbox` command as the package installs it (bin/reduck-sandbox.mjs): the sources
 * bundled into one file, built at its first start and again when a source changes.
 */
const SANDBOX_BIN = fileURLToPath(new URL("../bin/reduck-sandbox.mjs", import.meta.url));

/** Spawns the sandbox as its `reduck-sandbox` command runs, with `args`, and collects what it prints. */
export function spawnSandbox(args: string[], { stderr = "pipe", env }: { stderr?: "pipe" | "inherit" | "ignore"; env?: NodeJS.ProcessEnv } = {}) {
  const child = spawn(process.execPath, [SANDBOX_BIN, ...args], { stdio: ["ignore", "pipe", stderr], env });
  let stdout = "";
  let errors = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  // "close", not "exit": exit can come before the last of stdout and stderr has been read.
  const exited = once(child, "close").then(([code]) => code as number | null);
  return { child, exited, output: () => ({ stdout, stderr: errors }) };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts the sandbox on a free port with a simulated desktop and resolves once it has printed
 * REDUCK_API_URL and REDUCK_API_KEY. `browser: "simulated"` runs scripts against the simulated
 * page (for measuring the client, where the browser's time would only blur the figure); `args`
 * adds sandbox options (`--devices 0`).
 */
export async function startSandboxProcess(
  desktop: string,
  options: {
    stderr?: "inherit" | "ignore";
    browser?: "real" | "simulated";
    /** The port on 127.0.0.1 (default: a free one). */
    port?: number;
    /** More options, e.g. `["--devices", "2"]`. */
    args?: string[];
    /** The sandbox's environment (default: this process's). */
    env?: NodeJS.ProcessEnv;
  } = {},
) {
  const args = [
    "--port",
    String(options.port ?? (await freePort())),
    "--desktop",
    desktop,
    ...(options.browser ? ["--browser", options.browser] : []),
    ...(options.args ?? []),
  ];
  const sandbox = spawnSandbox(args, { stderr: options.stderr ?? "ignore", env: options.env });
  const env: Record<string, string> = {};
  await new Promise<void>((resolve, reject) => {
    sandbox.exited.then((code) => reject(new Error(`the sandbox exited early (${code})`)));
    sandbox.child.stdout!.on("data", () => {
      for (const m of sandbox.output().stdout.matchAll(/^(REDUCK_API_URL|REDUCK_API_KEY)=(.+)$/gm)) env[m[1]!] = m[2]!.trim();
      if (env.REDUCK_API_URL && env.REDUCK_API_KEY) resolve();
    });
  });
  return { env, pid: sandbox.child.pid!, exited: sandbox.exited, stop: () => sandbox.child.kill("SIGTERM") };
}
