// Errors in words, and the host's answers turned back into values or the context's own errors.
import { ErrorType, EvalErrorType, StringType, parse, stringify } from "./intrinsics.js";

/** What a thrown value says, as "Name: message", read with the context's own code only. */
export function errorText(thrown: unknown): string {
  try {
    // V8's own words ("Code generation from strings disallowed for this context") say less.
    if (thrown instanceof EvalErrorType) return "EvalError: scripts can't run code given as a string (eval, Function): write it in the script";
    if (thrown instanceof ErrorType) return `${thrown.name || "Error"}: ${thrown.message}`;
    const shown = typeof thrown === "string" ? thrown : stringify(thrown);
    return `Error: ${shown === undefined ? StringType(thrown) : shown}`;
  } catch (_) {
    return "Error: the script threw a value that can't be shown";
  }
}

/** The value of a host's reply (`{ ok, value | error }` as JSON), or its error thrown as the context's. */
export function fromHost(reply: string, what: string): unknown {
  let answer: { ok: boolean; value?: unknown; error: { message: unknown; name: unknown } };
  try {
    answer = parse(reply);
  } catch (_) {
    throw new ErrorType(`${what}: no answer from the page`);
  }
  if (answer.ok) return answer.value;
  const error = new ErrorType(StringType(answer.error.message));
  if (answer.error.name !== "Error") error.name = StringType(answer.error.name);
  throw error;
}
