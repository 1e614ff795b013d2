/**
 * What changed in a script's inputs between two versions, in words for `reduck scripts types
 * --check`: inputs added, removed, now required, no longer required, or of another type.
 */
import { isObject } from "../core/json.js";
import { fileInputNames } from "./module.js";
import { byCodeUnit, toTypeScript, type SchemaNode } from "./schema-to-ts.js";

interface InputShape {
  type: string;
  required: boolean;
}

/** Each input's type (as the generated module writes it, `file` for a file input) and whether it is required. */
function inputs(schema: unknown): Map<string, InputShape> {
  const out = new Map<string, InputShape>();
  if (!isObject(schema) || !isObject(schema.properties)) return out;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const files = new Set(fileInputNames(schema));
  const noRefs = { refName: () => undefined };
  for (const [name, property] of Object.entries(schema.properties)) {
    // One line per type: nested object types are compared as text all the same.
    const type = files.has(name) ? "file" : toTypeScript(property as SchemaNode, noRefs, "", []).replace(/\s+/g, " ");
    out.set(name, { type, required: required.has(name) });
  }
  return out;
}

/**
 * The changes to the inputs from `before` to `after`, one line each, sorted by input name.
 *
 * @example
 * inputChanges({ properties: { to: { type: "string" } } }, { properties: { to: { type: "array" } }, required: ["to"] });
 * // ["to: now required", "to: type changed from string to unknown[]"]
 */
export function inputChanges(before: unknown, after: unknown): string[] {
  const was = inputs(before);
  const now = inputs(after);
  const lines: string[] = [];
  for (const name of [...new Set([...was.keys(), ...now.keys()])].sort(byCodeUnit)) {
    const a = was.get(name);
    const b = now.get(name);
    if (!a && b) lines.push(`${name}: added (${b.required ? "required" : "optional"}, ${b.type})`);
    else if (a && !b) lines.push(`${name}: removed`);
    else if (a && b) {
      if (!a.required && b.required) lines.push(`${name}: now required`);
      if (a.required && !b.required) lines.push(`${name}: no longer required`);
      if (a.type !== b.type) lines.push(`${name}: type changed from ${a.type} to ${b.type}`);
    }
  }
  return lines;
}
