/**
 * The one way the CLI writes a JSON document (to a terminal or a pipe): `JSON.stringify`, with the
 * characters it leaves raw but a terminal obeys or a reader is fooled by (C1 controls such as
 * U+009B, the line and paragraph separators, the bidi overrides and isolates) written as `\uXXXX`
 * escapes. They can only stand inside JSON strings, where the escape means the same character:
 * the parsed value is unchanged, and the bytes never hold them raw.
 */

/** What JSON.stringify leaves raw and a terminal must not receive raw (C0 and DEL it escapes or leaves harmless). */
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `value` as JSON text (indented by 2 unless told), with no acting character raw.
 *
 * @example
 * jsonText({ name: "\u009b2Jevil\u202e" }); // '{\n  "name": "\\u009b2Jevil\\u202e"\n}'
 */
export function jsonText(value: unknown, indent: number | undefined = 2): string {
  const json = JSON.stringify(value, null, indent);
  return json === undefined ? "null" : json.replace(RAW_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
