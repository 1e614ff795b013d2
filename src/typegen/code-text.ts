/**
 * The only ways text from a contract enters the generated module: as a comment or as a string
 * literal. Contracts are written by whoever publishes a script, and the module is committed and
 * imported by someone else, so nothing in that text may end a comment or a string early.
 */
import { visibleText } from "../core/visible-text.js";

/**
 * Text for one line of a `//` or `/* *\/` comment: no line terminator (CR, LF, U+2028, U+2029,
 * which TypeScript reads as line ends), no other control or bidi character, and no `*\/`.
 *
 * @example
 * commentText("x\u2028globalThis.steal()"); // "x\\u2028globalThis.steal()"
 */
export function commentText(text: string): string {
  return visibleText(text).replace(/\*\//g, "*\\/");
}

/**
 * Text for a doc comment spanning lines: split at its line ends (of every kind), each line as
 * commentText makes it.
 *
 * @example
 * commentLines("First.\r\nSecond.\u2028Third."); // ["First.", "Second.", "Third."]
 */
export function commentLines(text: string): string[] {
  return text.split(/\r\n|[\n\r\u2028\u2029]/).map(commentText);
}

/**
 * A double-quoted string literal (a property name, a string literal type): JSON's escapes, and
 * `\uXXXX` for what JSON leaves as it is (DEL, C1 controls, U+2028, U+2029, bidi controls), so
 * the literal holds the same value and reads as it is.
 *
 * @example
 * stringLiteral("a\u2028b"); // '"a\\u2028b"'
 */
export function stringLiteral(text: string): string {
  return visibleText(JSON.stringify(text));
}
