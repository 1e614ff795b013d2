/**
 * What the "did you mean ...?" hints for scripts and for apps share about handles: the caller's
 * own handles, the other spelling of a handle (`@acme` for `acme`), and a list read as a sentence.
 */
import type { ReduckClient } from "../client.js";
import { getMe } from "../../generated/operations.js";
import { isIdOf } from "../id-shapes.js";
import { isObject } from "../json.js";

/** `a`, `a or b`, `a, b or c`. */
export function either(items: string[]): string {
  return items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

/**
 * The same name the other way round, and why that one may be meant: a person's handle starts with
 * `@`, a project's does not.
 *
 * @example
 * otherSpelling("demo"); // { handle: "@demo", why: "A person's handle starts with @." }
 */
export function otherSpelling(handle: string): { handle: string; why: string } {
  return handle.startsWith("@")
    ? { handle: handle.slice(1), why: "A project's handle has no @." }
    : { handle: `@${handle}`, why: "A person's handle starts with @." };
}

/**
 * The caller's handles: their own, then their projects', each once. None when the caller cannot
 * be read: a hint is a courtesy, never a second error.
 *
 * @example
 * await callerHandles(client); // ["@demo", "acme"]
 */
export async function callerHandles(client: ReduckClient): Promise<string[]> {
  const me = await getMe({ client });
  if (me.error || !isObject(me.data)) return [];
  const projects: unknown[] = Array.isArray(me.data.projects) ? me.data.projects : [];
  // Only handles of the documented shape: a hint names what the user will type next.
  return [me.data.handle, ...projects.map((p) => (isObject(p) ? p.handle : undefined))].filter(
    (h, i, all): h is string => isIdOf("handle", h) && all.indexOf(h) === i,
  );
}
