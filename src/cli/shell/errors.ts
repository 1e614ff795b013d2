import type { ReduckError } from "../../core/errors.js";
import { withHint } from "../../core/words/sentence.js";
import { FROM_CODES, serviceHints, withHints } from "./cli-words.js";
import { ExitCode, type ExitCodeValue } from "./exit-codes.js";
import { rewriteParseError, type CommandShape } from "./parse-errors.js";

/** An error meant for the user: one clear line and an exit code, never a stack trace. */
export class CliError extends Error {
  override name = "CliError";
  constructor(
    message: string,
    readonly exitCode: ExitCodeValue = ExitCode.FAILED,
    readonly detail: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function usageError(message: string): CliError {
  return new CliError(message, ExitCode.USAGE);
}

/**
 * Turns a library error value into the CLI's error, with the exit code its kind calls for, and
 * the CLI's way out from the error's fields and from the service's sentences it holds. With
 * --json the detail carries the fields a script branches on (`kind`, `code`, `status`...).
 */
export function fromReduckError(error: ReduckError, doing?: string): CliError {
  const code =
    error.kind === "invalid_request"
      ? ExitCode.USAGE
      : error.status === 401 || (error.kind === "credential" && !error.cause) // a cause: the sign-in server was unreachable
        ? ExitCode.AUTH
        : error.kind === "aborted"
          ? ExitCode.INTERRUPTED
          : ExitCode.FAILED;
  // The service's words are one line of ours: a line end in them cannot start a line that looks like another.
  let message = oneLine(error.error);
  if (error.variables) {
    const fields = Object.entries(error.variables).map(([field, msgs]) => oneLine(`${field}: ${msgs.join("; ")}`));
    if (fields.length) message += ` (${fields.join(", ")})`;
  }
  if (error.status === 401) message += ". Set REDUCK_API_KEY or run `reduck login`";
  const detail: Record<string, unknown> = { kind: error.kind };
  if (error.code) detail.code = error.code;
  if (error.status !== undefined) detail.status = error.status;
  if (error.cause) detail.cause = error.cause;
  if (error.variables) detail.variables = error.variables;
  if (error.runId) detail.runId = error.runId;
  if (error.batchId) detail.batchId = error.batchId;
  if (error.errorType) detail.errorType = error.errorType;
  const fromCode = error.code ? FROM_CODES[error.code]?.(error) : undefined;
  message = withHints(message, [...(fromCode ? [fromCode] : []), ...serviceHints(message)]);
  // An id refused before anything was sent names itself: "reading run X" would only say it twice.
  return new CliError(doing && error.code !== "invalid_id" ? `${doing}: ${message}` : message, code, detail);
}

/** Every run of white space, line ends included, as one space. */
const oneLine = (text: string) => text.replace(/\s+/g, " ");

/**
 * The service's "no such ..." for a name the user gave (a handle, a scope, an app image), as a
 * usage error (exit 2): its own words, without the generic hint the CLI's words may add (`hint`
 * knows better), then the name most likely meant.
 *
 * @example
 * throw unknownNameError(listed.error, "listing redcuk's scripts", "Did you mean reduck?");
 * // "listing redcuk's scripts: No such handle: redcuk. Did you mean reduck?"
 */
export function unknownNameError(error: ReduckError, doing: string | undefined, hint: string | undefined): CliError {
  const message = doing ? `${doing}: ${oneLine(error.error)}` : oneLine(error.error);
  return new CliError(withHint(message, hint), ExitCode.USAGE, fromReduckError(error, doing).detail);
}

/**
 * The exit code a command asked for with oclif's `this.exit(code)`, which throws an ExitError (code
 * `EEXIT`; its `name` is plain "Error"): the end of the command, not a failure to report.
 */
export function exitAskedFor(err: unknown): number | undefined {
  const e = err as { code?: unknown; oclif?: { exit?: unknown } } | null | undefined;
  return e?.code === "EEXIT" && typeof e.oclif?.exit === "number" ? e.oclif.exit : undefined;
}

/**
 * Anything thrown becomes a CliError; parse errors are usage errors (exit 2, with or without
 * --json), in the CLI's words when the command is known.
 */
export function toCliError(err: unknown, shape?: CommandShape): CliError {
  if (err instanceof CliError) return err;
  const e = err as Error & { oclif?: { exit?: number }; parse?: unknown };
  if (e && (e.parse !== undefined || e.oclif?.exit === 2)) {
    const rewritten = shape && rewriteParseError(String(e.message ?? err), shape);
    const message =
      rewritten ??
      String(e.message ?? err)
        .split("\n")
        .filter(Boolean)
        .join(" ");
    return new CliError(message.replace(/\s+/g, " ").trim(), ExitCode.USAGE);
  }
  return new CliError(`unexpected failure: ${e?.message ?? String(err)} (set REDUCK_DEBUG=1 for details)`, ExitCode.FAILED);
}
