/**
 * Errors that happen outside a command's own `catch` (an unknown command, a command of a plugin
 * such as `help`, a failure while oclif starts) reach the user the same way as any other: one
 * line on stderr, or with `--json` one JSON document on stdout, and the same exit code.
 */
import { redactSecrets } from "../../core/redact.js";
import type { CliError } from "./errors.js";
import { terminalText } from "./terminal-text.js";
import { jsonText } from "./json-text.js";

/**
 * Whether the command line asks for JSON (a `--json` before any `--`).
 *
 * @example
 * wantsJson(["nosuch", "--json"]); // true
 * wantsJson(["run", "--", "--json"]); // false
 */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end < 0 ? argv : argv.slice(0, end)).includes("--json");
}

/**
 * Prints a CLI error as every command does and sets the exit code: `{"error": {"message",
 * "exitCode", ...}}` on stdout with --json, else `Error: message` on stderr. Secrets are redacted.
 *
 * @example
 * reportError(usageError('"nosuch" is not a reduck command'), wantsJson(process.argv));
 */
export function reportError(error: CliError, json: boolean): void {
  const known = process.env.REDUCK_API_KEY ? [process.env.REDUCK_API_KEY] : [];
  const message = redactSecrets(error.message, known);
  process.exitCode = error.exitCode;
  if (json) process.stdout.write(`${jsonText({ error: { message, exitCode: error.exitCode, ...error.detail } })}\n`);
  else process.stderr.write(terminalText(`Error: ${message}\n`));
}
