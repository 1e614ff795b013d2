import type { ReduckError } from "../../core/errors.js";
import { pathIdProblem, quotedId } from "../../core/path-ids.js";
import { fromReduckError } from "../shell/errors.js";

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th");
  return `${n}${suffix}`;
}

/**
 * Refuses (exit 2, `invalid_id`, before anything is sent or asked) the run ids `runs delete` was
 * given, by the library's one rule for an id (core/path-ids.ts): several go in a request's body,
 * not its URL, and the user is asked to confirm them first. Each bad one is named by its place
 * among those given, counted from 1.
 *
 * @example
 * checkRunIds(["00000000-0000-4000-8005-000000000001", "86b0"]);
 * // usage error: the 2nd run id, "86b0", is not a run id: ...
 */
export function checkRunIds(ids: string[]): void {
  const bad = ids.flatMap((id, i) => {
    const problem = pathIdProblem("runId", id);
    return problem ? [{ id, i, problem }] : [];
  });
  const [first] = bad;
  if (!first) return;
  if (ids.length === 1) throw fromReduckError(first.problem);
  const why = "a run id is a UUID, such as 86b0479f-a68f-4fcd-92d1-b68f485ee3d9";
  const error: ReduckError =
    bad.length === 1
      ? { ...first.problem, error: `the ${ordinal(first.i + 1)} run id, ${quotedId(first.id)}, is not a run id: ${why}` }
      : {
          ...first.problem,
          error: `the ${bad
            .slice(0, -1)
            .map((b) => `${ordinal(b.i + 1)} (${quotedId(b.id)})`)
            .join(", ")} and ${ordinal(bad.at(-1)!.i + 1)} (${quotedId(bad.at(-1)!.id)}) of the ids given are not run ids: ${why}`,
        };
  throw fromReduckError(error);
}

/**
 * `runs wait`'s refusal of an id the library would not put into a URL: it may be either kind of
 * id, and both are UUIDs.
 */
export function notAWaitId(id: string, problem: ReduckError): never {
  throw fromReduckError({
    ...problem,
    error: `${quotedId(id)} is not a batch id or run id: both are UUIDs, such as 86b0479f-a68f-4fcd-92d1-b68f485ee3d9 (\`reduck run --no-wait\` prints one; \`reduck runs list\` lists runs)`,
  });
}
