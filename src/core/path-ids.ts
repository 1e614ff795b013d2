/**
 * The one check of an id: where it becomes part of a URL. The API description gives the ids in
 * its paths (`runId`, `versionId`, `appId`) `format: uuid` and a pattern, and the run host's
 * `GET /batches/{batchId}` takes a batch id of the same shape; ids in answers it types as plain
 * strings, so an answer is never refused for its ids: they are checked here, when something puts
 * one into a path. One of another shape is refused before anything is sent (`invalid_id`), so a
 * value such as `..` or `x/../y` never becomes a path.
 */
import type { ReduckError } from "./error-types.js";
import { isIdOf, type IdKind } from "./id-shapes.js";
import { visibleText } from "./visible-text.js";

/** The path parameters the description gives `format: uuid`, and the words a message uses for each. */
export const UUID_PATH_PARAMS: Readonly<Record<string, IdKind>> = {
  runId: "run id",
  versionId: "version id",
  appId: "app id",
  batchId: "batch id",
};

/** An id as a message quotes it: its acting characters escaped, cut at 80 characters. */
export function quotedId(value: string): string {
  return `"${visibleText(value.length > 80 ? `${value.slice(0, 80)}...` : value)}"`;
}

/**
 * The refusal of a path parameter's value, or undefined when it fits (or the parameter has no
 * documented shape).
 *
 * @example
 * pathIdProblem("runId", "../me");
 * // { kind: "invalid_request", code: "invalid_id", parameter: "runId",
 * //   error: '"../me" is not a run id: a run id is a UUID, such as 86b0479f-a68f-4fcd-92d1-b68f485ee3d9' }
 */
export function pathIdProblem(parameter: string, value: unknown): ReduckError | undefined {
  // Whatever its documented shape, a dot segment is never a name in a URL: it is resolved away
  // (`/api/scripts/../me` is `/api/me`), so a handle or host of `..` would address another resource.
  if (value === "." || value === "..") {
    return {
      kind: "invalid_request",
      code: "invalid_id",
      parameter,
      error: `"${value}" cannot be a ${parameter} in a URL: a URL reads it as a step along the path`,
    };
  }
  const kind = UUID_PATH_PARAMS[parameter];
  if (kind === undefined || isIdOf(kind, value)) return undefined;
  const shown = typeof value === "string" ? quotedId(value) : typeof value === "number" ? String(value) : "the value given";
  return {
    kind: "invalid_request",
    code: "invalid_id",
    parameter,
    error: `${shown} is not a ${kind}: a ${kind} is a UUID, such as 86b0479f-a68f-4fcd-92d1-b68f485ee3d9`,
  };
}

/** The first path parameter of `params` refused by pathIdProblem, or undefined. */
export function pathIdsProblem(params: Record<string, unknown> | undefined): ReduckError | undefined {
  for (const [name, value] of Object.entries(params ?? {})) {
    const problem = pathIdProblem(name, value);
    if (problem) return problem;
  }
  return undefined;
}
