import { isIdOf } from "../../core/id-shapes.js";
import { usageError } from "../shell/errors.js";

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th");
  return `${n}${suffix}`;
}

/**
 * Refuses (exit 2, before anything is sent) run ids that are not UUIDs, naming each bad one by
 * its place among those given, counted from 1.
 *
 * @example
 * checkRunIds(["00000000-0000-4000-8005-000000000001", "86b0"]);
 * // usage error: the 2nd run id, "86b0", is not a run id: ...
 */
export function checkRunIds(ids: string[]): void {
  const bad = ids.map((id, i) => [id, i] as const).filter(([id]) => !isIdOf("run id", id));
  if (!bad.length) return;
  const why = "a run id is a UUID such as 86b0479f-a68f-4fcd-92d1-b68f485ee3d9 (see `reduck runs list`)";
  if (ids.length === 1) throw usageError(`${JSON.stringify(ids[0])} is not a run id: ${why}`);
  if (bad.length === 1) throw usageError(`the ${ordinal(bad[0]![1] + 1)} run id, ${JSON.stringify(bad[0]![0])}, is not a run id: ${why}`);
  const list = bad.map(([id, i]) => `${ordinal(i + 1)} (${JSON.stringify(id)})`);
  throw usageError(`the ${list.slice(0, -1).join(", ")} and ${list.at(-1)} of the ids given are not run ids: ${why}`);
}

/**
 * Refuses (exit 2, before anything is sent) an id for `runs wait` that is neither kind of id:
 * batch ids and run ids are both UUIDs.
 *
 * @example
 * checkWaitId("123"); // usage error: "123" is not a batch id or run id: ...
 */
export function checkWaitId(id: string): void {
  if (isIdOf("run id", id)) return;
  throw usageError(
    `${JSON.stringify(id)} is not a batch id or run id: both are UUIDs such as 86b0479f-a68f-4fcd-92d1-b68f485ee3d9 (\`reduck run --no-wait\` prints one; \`reduck runs list\` lists runs)`,
  );
}
