/**
 * The shapes the service's API description gives the ids it hands out: what an id must look like
 * before it is printed, stored, or put into a path or URL. An id of another shape is a
 * malformed answer, never a path segment such as `..`.
 */

/** Run, batch, version and app ids: UUIDs of versions 1 to 8, or the nil or max UUID (the description's pattern). */
const UUID =
  /^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;

/**
 * An owner's handle: `@username` or a project's handle, in the characters the description's
 * script addresses allow (letters, digits, `_`, `.`, `-`), 64 at most, and never dots alone.
 */
const HANDLE = /^(?!@?\.+$)@?[A-Za-z0-9_.-]{1,64}$/;

/** The kinds of id the service hands out, by the words a message uses for them. */
export const ID_SHAPES = {
  "run id": { test: (s: string) => UUID.test(s), shape: "a UUID" },
  "batch id": { test: (s: string) => UUID.test(s), shape: "a UUID" },
  "version id": { test: (s: string) => UUID.test(s), shape: "a UUID" },
  "app id": { test: (s: string) => UUID.test(s), shape: "a UUID" },
  handle: { test: (s: string) => HANDLE.test(s), shape: "@username or a project handle (letters, digits, _ . -)" },
} as const;

export type IdKind = keyof typeof ID_SHAPES;

/**
 * Whether `value` is an id of that kind, as the service documents it.
 *
 * @example
 * isIdOf("run id", "86b0479f-a68f-4fcd-92d1-b68f485ee3d9"); // true
 * isIdOf("handle", "../admin");                            // false
 */
export function isIdOf(kind: IdKind, value: unknown): boolean {
  return typeof value === "string" && ID_SHAPES[kind].test(value);
}
