// Refusals as values the pipeline turns into ErrorResponse bodies `{ error, variables? }`.

/**
 * A refusal thrown from implementations and shared helpers (lookups, permission checks). The pipeline
 * answers it as `{ error, variables? }`; the response self-check refuses it if the operation does not
 * declare the status, so a helper can never smuggle an undeclared status onto the wire.
 *
 * @example
 * throw new ApiError(409, "The script is archived: restore it first");
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly variables?: Record<string, string[]>,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** The message every field-level refusal carries; the details are in `variables`. */
export const INVALID_REQUEST = "Invalid request";

/**
 * 400 with per-field messages, the shape the client library surfaces as `error.variables`.
 *
 * @example
 * throw invalid({ parent_version_id: ["is not a version of this script"] });
 */
export function invalid(variables: Record<string, string[]>): ApiError {
  return new ApiError(400, INVALID_REQUEST, variables);
}
