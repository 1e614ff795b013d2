/**
 * The shapes of what hosted-app calls answer and `flock.json` keeps, checked before any of it is
 * printed, stored or put into a path or a URL: an answer is data, and an app id holding `../` or a
 * NUL would otherwise become a file's contents, a terminal's input or another address. The shapes
 * are the API description's: an app id is a UUID (versions 1 to 8, the nil and the max UUID); a
 * release number a positive integer; an image's slug 1 to 64 of `a-z`, `0-9`, `_`, `-`; a scope's
 * handle `@username` or a project's name.
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
 * What is wrong with an app as an answer names it (its id and its scope's handle), or undefined
 * when both have their shapes. Never quotes the value: it is not fit for a terminal.
 *
 * @example
 * appAnswerProblem({ id: "x\u0000", owner: { handle: "@demo" } }); // "an app id that is not one (a UUID)"
 */
export function appAnswerProblem(app: { id?: unknown; owner?: { handle?: unknown } | null }): string | undefined {
  if (!isAppId(app.id)) return "an app id that is not one (a UUID)";
  if (!isScopeHandle(app.owner?.handle)) return "a scope handle that is not one (@username or a project's name)";
  return undefined;
}
