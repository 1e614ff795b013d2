/**
 * A file sent as bytes arrives named after its input (`attachment`, no extension). When the
 * script's contract has a name argument for that input (`attachmentName` for `attachment`,
 * `documentName` for `document`) and it was not given, the user is told once what the other side
 * will see and which argument changes it. Nothing is filled in for them: the name is theirs to
 * choose (and a script may use it for more than display).
 */
import path from "node:path";

import type { JsonSchema as JsonSchema } from "../../core/json.js";

/** The name argument a file input has in this contract, if any: `<input>Name`, `<input>_name`, `<input>Filename` or `<input>_filename`. */
export function nameArgumentFor(input: string, schema: JsonSchema): string | undefined {
  const properties = schema.properties ?? {};
  return [`${input}Name`, `${input}_name`, `${input}Filename`, `${input}_filename`].find((name) => {
    const p = properties[name];
    return p !== undefined && p.format !== "file" && (p.type === undefined || p.type === "string");
  });
}

/**
 * One note per file input sent as bytes whose name argument was left out.
 *
 * @example
 * fileNameNotes(sendEmail.input_schema, { to: "a@b.c", subject: "Hi" }, { attachment: "/home/me/banner.png" });
 * // ['Note: the file sent as attachment (banner.png) arrives named "attachment", without an extension: that is the name the recipient sees. Add attachmentName=banner.png to name it.']
 */
export function fileNameNotes(schema: JsonSchema, args: Record<string, unknown>, files: Record<string, string>): string[] {
  const notes: string[] = [];
  for (const [input, file] of Object.entries(files)) {
    const nameArg = nameArgumentFor(input, schema);
    if (!nameArg || args[nameArg] !== undefined) continue;
    const local = path.basename(file);
    notes.push(
      `Note: the file sent as ${input} (${local}) arrives named "${input}", without an extension: that is the name the recipient sees. ` +
        `Add ${nameArg}=${/^[\w.@%+,:-]+$/.test(local) ? local : `'${local.replace(/'/g, `'\\''`)}'`} to name it.`,
    );
  }
  return notes;
}
