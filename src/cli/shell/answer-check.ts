/**
 * What a command reads from an answer is checked before it is used: each field it prints or acts
 * on has the type the API description gives it (ids are plain strings there: each is checked where
 * it is used, core/path-ids.ts).
 * A service (or anything between) that answers otherwise gets one clear error naming the
 * operation and the field, never a TypeError from deep inside a command.
 */
import { isObject } from "../../core/json.js";
import { CliError } from "./errors.js";
import { ExitCode } from "./exit-codes.js";

/** Where a value is not what it should be, and what it should have been. */
export interface Mismatch {
  at: string;
  expected: string;
  found: unknown;
}

/** A check of a value found at `at`: undefined when it fits. */
export type Shape = (value: unknown, at: string) => Mismatch | undefined;

const is =
  (expected: string, test: (value: unknown) => boolean): Shape =>
  (value, at) =>
    test(value) ? undefined : { at, expected, found: value };

const firstMismatch = <T>(items: T[], check: (item: T) => Mismatch | undefined): Mismatch | undefined => {
  for (const item of items) {
    const mismatch = check(item);
    if (mismatch) return mismatch;
  }
  return undefined;
};

const inside = (at: string, key: string | number) => (typeof key === "number" ? `${at}[${key}]` : at ? `${at}.${key}` : key);

/** Anything at all (a run's arguments, a script's result: data the CLI prints as it is). */
export const anything: Shape = () => undefined;
export const text = is("a string", (v) => typeof v === "string");
export const number = is("a number", (v) => typeof v === "number" && Number.isFinite(v));
export const flag = is("true or false", (v) => typeof v === "boolean");
/** A string or a number (a version number the description types one way and the service another). */
export const textOrNumber = is("a string or a number", (v) => typeof v === "string" || (typeof v === "number" && Number.isFinite(v)));
/** Any JSON object, its fields not looked at. */
export const object = is("an object", isObject);

export const nullable =
  (shape: Shape): Shape =>
  (value, at) =>
    value === null ? undefined : shape(value, at);

export const optional =
  (shape: Shape): Shape =>
  (value, at) =>
    value === undefined ? undefined : shape(value, at);

export const list =
  (shape: Shape): Shape =>
  (value, at) =>
    Array.isArray(value) ? firstMismatch([...value.entries()], ([i, item]) => shape(item, inside(at, i))) : { at, expected: "a list", found: value };

/** An object with these fields (others are left alone). */
export const fields =
  (shapes: Record<string, Shape>): Shape =>
  (value, at) =>
    isObject(value) ? firstMismatch(Object.entries(shapes), ([key, shape]) => shape(value[key], inside(at, key))) : { at, expected: "an object", found: value };

/** A found value in a few words: `missing`, `null`, `the number 5`, `"…"` (cut at 40 characters), `a list`. */
function describe(found: unknown): string {
  if (found === undefined) return "missing";
  if (found === null) return "null";
  if (typeof found === "string") return found.length > 40 ? `${JSON.stringify(found.slice(0, 40))}...` : JSON.stringify(found);
  if (typeof found === "number" || typeof found === "boolean") return `${typeof found === "number" ? "the number " : ""}${found}`;
  return Array.isArray(found) ? "a list" : "an object";
}

/**
 * `value` when it has `shape`; otherwise the command fails (exit 1) naming what it was doing and
 * the field: `reading your account: the service's answer is not as documented: projects[0].handle
 * is missing (expected a string)`.
 *
 * @example
 * const me = checkAnswer(this.unwrap(await getMe({ client })), ME, "reading your account");
 */
export function checkAnswer<T>(value: T, shape: Shape, doing: string): T {
  const mismatch = shape(value, "");
  if (!mismatch) return value;
  const where = mismatch.at ? `${mismatch.at} is` : "it is";
  throw new CliError(
    `${doing}: the service's answer is not as documented: ${where} ${describe(mismatch.found)} (expected ${mismatch.expected})`,
    ExitCode.FAILED,
    {
      kind: "invalid_response",
    },
  );
}
