// How a failed run is described beside its `error`: `errorType`, a small fixed set the reference
// server sorts every failure into, and `externalMessage`, the failure in words for the person who
// asked for the run. The service publishes both fields but not its values; this set is ours and is
// documented in openapi.json (RunEnvelope.errorType).
import { ApiError } from "../errors.js";

export type ErrorType = "invalid_input" | "site_error" | "script_error" | "timeout" | "browser_unavailable" | "not_run";

/**
 * A run failure that knows its kind. Failures thrown as a plain ApiError are sorted by status
 * (see describeFailure): only the kinds a status cannot tell are thrown as a RunFailure.
 *
 * @example
 * throw new RunFailure(422, "script timed out after 300 s", "timeout", "The script did not finish within 300 s.");
 */
export class RunFailure extends ApiError {
  constructor(
    status: number,
    message: string,
    readonly errorType: ErrorType,
    readonly externalMessage?: string,
    variables?: Record<string, string[]>,
  ) {
    super(status, message, variables);
  }
}

/**
 * `errorType` and `externalMessage` for a failure: a RunFailure's own; any other refusal of the
 * request or of its arguments (a 4xx) is `invalid_input`, told in its own words.
 *
 * @example
 * describeFailure(new ApiError(400, "Invalid arguments for reduck/x.com/y: to is required"));
 * // { errorType: "invalid_input", externalMessage: "Invalid arguments for reduck/x.com/y: to is required" }
 */
export function describeFailure(error: ApiError): { errorType: ErrorType; externalMessage: string } {
  if (error instanceof RunFailure) return { errorType: error.errorType, externalMessage: error.externalMessage ?? error.message };
  return { errorType: error.status >= 500 ? "site_error" : "invalid_input", externalMessage: error.message };
}

/** A thrown error's text without the `Error: ` its name adds (`Error: Inbox not found` -> `Inbox not found`). */
function thrownText(error: string): string {
  return error.replace(/^Error: /, "");
}

/**
 * The failure of a script body, by the stage it ended at (see script-runner.ts): it threw
 * (`site_error`), ran out of time (`timeout`), or is itself broken (`script_error`: it does not
 * compile, its result is not JSON, it went over a limit or crashed).
 *
 * @example
 * bodyFailure("throw", "Error: Inbox not found", "reduck/mail.google.com/send_email", 300);
 */
export function bodyFailure(stage: string, error: string, address: string, timeoutSeconds: number): RunFailure {
  if (stage === "throw") return new RunFailure(422, error, "site_error", `${address} failed on the site: ${thrownText(error)}`);
  if (stage === "timeout") return new RunFailure(422, error, "timeout", `${address} did not finish within ${timeoutSeconds} s, so it was stopped.`);
  return new RunFailure(422, error, "script_error", `${address} could not run to its end (${thrownText(error)}): the script needs fixing.`);
}
