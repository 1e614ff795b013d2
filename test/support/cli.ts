/** Spawns the built CLI (bin/run.js) as a user would, and collects what it printed. */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../../bin/run.js", import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  { env = {}, input, onStart, cwd }: { env?: Record<string, string>; input?: string; onStart?: (child: ReturnType<typeof spawn>) => void; cwd?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      // A clean environment: nothing from the developer's own shell leaks in.
      env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", ...env },
      stdio: ["pipe", "pipe", "pipe"],
      cwd,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
    onStart?.(child);
  });
}
