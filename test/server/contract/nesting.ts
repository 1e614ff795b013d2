// How deep a JSON value may nest (objects and arrays inside each other) in anything the reference
// server accepts or keeps. JSON.parse copes with any depth, but much that follows is recursive
// (ajv, JSON.stringify of an answer, structured clones): 20,000 levels in a 40 KB body overflowed
// the stack, and once such a value was recorded on a run, every listing of runs failed. So depth is
// checked right after parsing, by a walk that keeps its own stack, before anything else touches it.

/** Objects and arrays may sit at most this many levels deep, counting the outermost one as 1. */
export const MAX_NESTING = 64;

/** How many leading segments of the path the field name shows (the rest is the deep value itself). */
const SHOWN_SEGMENTS = 4;

/** `script.args.deep.0.0...` -> `script.args.deep`: the field, not the way down inside it (`body`: all of it). */
function fieldOf(path: string[]): string {
  const shown = path.slice(0, SHOWN_SEGMENTS);
  while (shown.length && /^\d+$/.test(shown.at(-1)!)) shown.pop();
  return shown.join(".") || "body";
}

export interface NestingProblem {
  /** Where the value goes too deep, e.g. `script.args.deep` (`body` for the value itself). */
  field: string;
  message: string;
}

/**
 * Null when `value` nests at most `max` levels; else where it goes deeper. Never recursive.
 *
 * @example
 * nestingProblem({ script: { args: { a: [[[]]] } } }, 4); // { field: "script.args.a", message: "nests deeper than 4 levels" }
 */
export function nestingProblem(value: unknown, max: number = MAX_NESTING): NestingProblem | null {
  const stack: Array<{ value: unknown; depth: number; path: string[] }> = [{ value, depth: 1, path: [] }];
  while (stack.length) {
    const { value: current, depth, path } = stack.pop()!;
    if (typeof current !== "object" || current === null) continue;
    if (depth > max) {
      return { field: fieldOf(path), message: `nests deeper than ${max} levels (objects and arrays inside each other): flatten it` };
    }
    for (const [key, child] of Object.entries(current)) {
      if (typeof child === "object" && child !== null) stack.push({ value: child, depth: depth + 1, path: [...path, key] });
    }
  }
  return null;
}
