/**
 * JSON Schema to TypeScript, for the forms script contracts use: object (required and optional
 * properties, `additionalProperties`), string, number, integer, boolean, null, array, enum,
 * const, `type: [..., "null"]`, anyOf/oneOf and `$ref` into `$defs`/`definitions`. Anything else
 * becomes `unknown` with a comment saying why: a looser type than the schema, never a wrong one.
 *
 * The text is laid out as biome formats this project (2 spaces, double quotes, semicolons, every
 * object type on lines of its own), so a generated file passes `biome format` unchanged.
 */

import { isObject, type JsonSchema } from "../core/json.js";
import { commentLines, commentText, stringLiteral } from "./code-text.js";

/** A node of a schema as JSON Schema allows it: an object schema, or `true`/`false` (anything, nothing). */
export type SchemaNode = boolean | JsonSchema;

/** How `$ref`s are named, and what the converter could not express (to say so in comments). */
export interface Conversion {
  /** The TypeScript name of a `$defs`/`definitions` entry, or undefined when the pointer names none. */
  refName(pointer: string): string | undefined;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property name as TypeScript needs it: bare when it can be, else a double-quoted string. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : stringLiteral(name);
}

/** Keywords that say what a value is; a schema without any of them takes anything. */
const TYPE_KEYWORDS = ["type", "enum", "const", "$ref", "anyOf", "oneOf", "allOf", "properties", "items", "additionalProperties"];
/** Keywords this converter does not express; seen beside nothing it does, the type is `unknown`. */
const UNSUPPORTED = ["not", "if", "then", "else", "patternProperties", "prefixItems", "dependentSchemas", "propertyNames", "unevaluatedProperties"];

/** A schema's description, as the lines of a doc comment (see commentLines). */
export function docComment(text: unknown, indent: string): string {
  if (typeof text !== "string" || !text.trim()) return "";
  const lines = commentLines(text.trim()).map((l) => l.trimEnd());
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => (l ? `${indent} * ${l}` : `${indent} *`)).join("\n")}\n${indent} */\n`;
}

/** A literal type for a JSON value, or undefined when it is not a primitive. */
function literal(value: unknown): string | undefined {
  if (value === null) return "null";
  if (typeof value === "string") return stringLiteral(value);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return String(value);
  return undefined;
}

/** `unknown`, with the reason noted for the comment above the property (or type) it is in. */
function unknownBecause(notes: string[], why: string): string {
  notes.push(why);
  return "unknown";
}

function union(members: string[]): string {
  const unique = [...new Set(members)];
  if (unique.includes("unknown")) return "unknown";
  return unique.length === 0 ? "never" : unique.join(" | ");
}

/** An array's element or a union's member, parenthesised where TypeScript needs it. */
function wrap(type: string): string {
  return !type.startsWith("{") && topLevelUnion(type) ? `(${type})` : type;
}

/** Whether `type` is a union at its top level (not only inside braces or parentheses). */
function topLevelUnion(type: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < type.length; i++) {
    const c = type[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "(" || c === "[") depth++;
    else if (c === "}" || c === ")" || c === "]") depth--;
    else if (depth === 0 && c === "|") return true;
  }
  return false;
}

/**
 * The TypeScript type of `schema`, laid out for a line indented by `indent` (an object type's
 * properties go one level deeper). Why a part became `unknown` is pushed onto `notes`.
 *
 * @example
 * toTypeScript({ type: ["string", "null"] }, conversion, "", []); // "string | null"
 */
export function toTypeScript(schema: SchemaNode | undefined, conversion: Conversion, indent: string, notes: string[]): string {
  if (schema === undefined || schema === true) return "unknown";
  if (schema === false) return "never";
  if (!isObject(schema)) return unknownBecause(notes, "not a schema");
  const type = typeOf(schema, conversion, indent, notes);
  return schema.nullable === true && type !== "unknown" && !type.split(" | ").includes("null") ? `${wrap(type)} | null` : type;
}

function typeOf(schema: Record<string, unknown>, conversion: Conversion, indent: string, notes: string[]): string {
  if (typeof schema.$ref === "string") {
    return conversion.refName(schema.$ref) ?? unknownBecause(notes, `$ref ${schema.$ref} is not an entry of this schema's $defs`);
  }
  if ("const" in schema) return literal(schema.const) ?? unknownBecause(notes, "a const that is not a string, number, boolean or null");
  if (Array.isArray(schema.enum)) {
    const members = schema.enum.map(literal);
    if (members.some((m) => m === undefined)) return unknownBecause(notes, "an enum with values that are not strings, numbers, booleans or null");
    return union(members as string[]);
  }
  const keyword = Array.isArray(schema.anyOf) ? "anyOf" : Array.isArray(schema.oneOf) ? "oneOf" : undefined;
  const alternatives = keyword ? (schema[keyword] as SchemaNode[]) : undefined;
  // Alternatives that only add constraints (`required`, `format`) leave the type as the rest says.
  if (keyword && alternatives?.some(saysWhatItIs)) {
    const beside = ownTypeKeywords(schema);
    if (beside.length) return unknownBecause(notes, `${keyword} beside ${beside.join(", ")} is not converted`);
    return union(alternatives.map((a) => wrap(toTypeScript(a, conversion, indent, notes))));
  }
  if (Array.isArray(schema.allOf)) {
    if (schema.allOf.length === 1 && !ownTypeKeywords(schema).length) return toTypeScript(schema.allOf[0] as SchemaNode, conversion, indent, notes);
    return unknownBecause(notes, "allOf is not converted");
  }
  const unsupported = UNSUPPORTED.filter((k) => k in schema);
  if (unsupported.length) return unknownBecause(notes, `${unsupported.join(", ")} ${unsupported.length === 1 ? "is" : "are"} not converted`);
  const types = schema.type === undefined ? undefined : Array.isArray(schema.type) ? (schema.type as unknown[]) : [schema.type];
  if (types === undefined) {
    if (isObject(schema.properties) || "additionalProperties" in schema) return objectType(schema, conversion, indent);
    if ("items" in schema) return arrayType(schema, conversion, indent, notes);
    return "unknown";
  }
  const members = types.map((t) => {
    switch (t) {
      case "string":
        return "string";
      case "number":
      case "integer":
        return "number";
      case "boolean":
        return "boolean";
      case "null":
        return "null";
      case "array":
        return arrayType(schema, conversion, indent, notes);
      case "object":
        return objectType(schema, conversion, indent);
      default:
        return unknownBecause(notes, `type ${JSON.stringify(t)} is not a JSON Schema type`);
    }
  });
  return union(members.map(wrap));
}

/** A schema that says what its values are (not just constraints such as `required` or `format`). */
function saysWhatItIs(schema: SchemaNode): boolean {
  return typeof schema === "boolean" || (isObject(schema) && TYPE_KEYWORDS.some((k) => k in schema));
}

function ownTypeKeywords(schema: Record<string, unknown>): string[] {
  return ["type", "properties", "items", "enum", "const", "$ref"].filter((k) => k in schema);
}

function arrayType(schema: Record<string, unknown>, conversion: Conversion, indent: string, notes: string[]): string {
  const items = schema.items;
  if (items === undefined || items === true) return "unknown[]";
  if (Array.isArray(items)) return unknownBecause(notes, "tuple items are not converted");
  const element = toTypeScript(items as SchemaNode, conversion, indent, notes);
  return `${wrap(element)}[]`;
}

/**
 * An object type. Properties are sorted (so a contract that lists them in another order gives
 * the same file); an absent `additionalProperties` is read as closed, so a misspelt name is a
 * compile error; `true` or a schema adds an index signature. `omit` leaves properties out (the
 * file inputs, typed apart).
 */
export function objectType(schema: Record<string, unknown>, conversion: Conversion, indent: string, omit: ReadonlySet<string> = new Set()): string {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : []);
  const names = Object.keys(properties)
    .filter((n) => !omit.has(n))
    .sort(byCodeUnit);
  const extra = schema.additionalProperties;
  const inner = `${indent}  `;
  const lines: string[] = [];
  for (const name of names) {
    const property = properties[name] as SchemaNode;
    const notes: string[] = [];
    const type = toTypeScript(property, conversion, inner, notes);
    const description = isObject(property) ? property.description : undefined;
    lines.push(`${docComment(description, inner)}${noteLines(notes, inner)}${inner}${propertyKey(name)}${required.has(name) ? "" : "?"}: ${type};`);
  }
  if (extra !== undefined && extra !== false) {
    // An index signature must admit every named property's type too: `unknown` unless there are none.
    const notes: string[] = [];
    const value = names.length === 0 && extra !== true ? toTypeScript(extra as SchemaNode, conversion, inner, notes) : "unknown";
    lines.push(`${noteLines(notes, inner)}${inner}[key: string]: ${value};`);
  }
  // No property left once the file inputs are omitted: closed, like any object with properties.
  if (lines.length === 0) return extra === false || names.length < Object.keys(properties).length ? "Record<string, never>" : "Record<string, unknown>";
  return `{\n${lines.join("\n")}\n${indent}}`;
}

/** Why a type is `unknown`, as comment lines above it. */
export function noteLines(notes: string[], indent: string): string {
  return [...new Set(notes)].map((n) => `${indent}// unknown: ${commentText(n)}\n`).join("");
}

export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
