/**
 * Text from the service shown as text: the characters that act instead of showing (a terminal
 * obeys ESC and BEL; TypeScript ends a comment at U+2028; a bidi override makes a line read
 * backwards) written out as `\u001b`-style escapes. The generated-code writer (src/typegen) and the
 * CLI's terminal sanitiser both build on it, so both name the same characters.
 */

/**
 * C0 controls, DEL, C1 controls, the line and paragraph separators, and the bidi embeddings,
 * overrides (U+202A-U+202E) and isolates (U+2066-U+2069).
 */
export const ACTING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `\u001b` for ESC: the escape JavaScript, JSON and a reader all understand. */
const escaped = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * `text` with every acting character written as its `\uXXXX` escape, except those in `keep`
 * (say `"\n"` where the text is meant to span lines). What it returns holds no acting
 * character but those kept, so applying it again changes nothing.
 *
 * @example
 * visibleText("\u001b[2Jhello\u0007"); // "\\u001b[2Jhello\\u0007"
 * visibleText("one\ntwo", "\n");       // "one\ntwo"
 */
export function visibleText(text: string, keep = ""): string {
  return text.replace(ACTING, (c) => (keep.includes(c) ? c : escaped(c)));
}
