// Command-line options of `npm run sandbox`. Each option is one entry in OPTIONS (how it is spelled)
// and one line in parseSandboxArgs (how its value is checked), so `--desktop DIR` and
// `--file-access on|off` slot in beside `--port` later.
import { parseArgs } from "node:util";

export interface SandboxOptions {
  /** 0 = any free port. */
  port: number;
}

export const DEFAULT_PORT = 4010;

const OPTIONS = {
  port: { type: "string" },
} as const;

/** A bad command line: the message is meant for the user, one line, saying what to do instead. */
export class UsageError extends Error {
  override name = "UsageError";
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_PORT;
  // 0 asks the system for a free port (tests use it); the address printed says which one.
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    throw new UsageError(`--port must be a whole number from 0 to 65535 (got "${raw}")`);
  }
  return Number(raw);
}

/**
 * @example
 * parseSandboxArgs(["--port", "4011"]); // { port: 4011 }
 * parseSandboxArgs([]);                 // { port: 4010 }
 */
export function parseSandboxArgs(argv: string[]): SandboxOptions {
  let values: { port?: string };
  try {
    ({ values } = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}. Usage: npm run sandbox -- [--port N]`);
  }
  return { port: parsePort(values.port) };
}
