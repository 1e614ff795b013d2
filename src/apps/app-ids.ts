/**
 * The shapes of what `flock.json` keeps and hosted-app calls take in their paths, checked where a
 * value is used: written to `flock.json`, put into a path or an address. The API description types
 * an app's id, its scope's handle and an image's slug in answers as plain strings, so an answer is
 * shown (as text) whatever their shape, and a list with one odd id is still the list; an app id
 * holding `../` or a NUL never becomes a file's contents or another address. The shapes are those of
 * the description's path parameters: an app id is a UUID (versions 1 to 8, the nil and the max
 * UUID); a release number a positive integer; an image's slug 1 to 64 of `a-z`, `0-9`, `_`, `-`; a
 * scope's handle `@username` or a project's name.
 */

import { isIdOf } from "../core/id-shapes.js";

/** An image's slug. */
const SLUG = /^[a-z0-9_-]{1,64}$/;

/**
 * True when `value` is an app id (a UUID).
 *
 * @example
 * isAppId("3f1c2a9e-8b4d-4c1e-9a7f-2d5e6b8c0a13"); // true
 * isAppId("../../etc"); // false
 */
export function isAppId(value: unknown): value is string {
  return isIdOf("app id", value);
}

/**
 * True when `value` is a release number (1, 2, 3...).
 *
 * @example
 * isReleaseNumber(3); // true
 * isReleaseNumber("3/../../x"); // false
 */
export function isReleaseNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0;
}

/**
 * True when `value` is an image's slug.
 *
 * @example
 * isImageSlug("guestbook"); // true
 */
export function isImageSlug(value: unknown): value is string {
  return typeof value === "string" && SLUG.test(value);
}

/**
 * True when `value` is a scope's handle: `@username` or a project's.
 *
 * @example
 * isScopeHandle("@demo"); // true
 * isScopeHandle(".."); // false
 */
export function isScopeHandle(value: unknown): value is string {
  return isIdOf("handle", value);
}

/**
 * What is wrong with an app's id or its scope's handle for being written to `flock.json` (whose
 * readers put both into paths), or undefined when both have their shapes. Never quotes the value:
 * it is not fit for a terminal.
 *
 * @example
 * appAnswerProblem({ id: "x\u0000", owner: { handle: "@demo" } }); // "an app id that is not one (a UUID)"
 */
export function appAnswerProblem(app: { id?: unknown; owner?: { handle?: unknown } | null }): string | undefined {
  if (!isAppId(app.id)) return "an app id that is not one (a UUID)";
  if (!isScopeHandle(app.owner?.handle)) return "a scope handle that is not one (@username or a project's name)";
  return undefined;
}
