/**
 * A script's arguments from text: `name=value` on the command line, a CSV cell, a JSONL value.
 * Values are coerced to the types the script's input schema asks for; every argument or file
 * input the contract does not take, is missing or cannot be converted is named. Pure: shared by
 * `reduck run` (src/cli) and the library's `runMany` (src/batch), which cannot import the CLI.
 */
import { isObject, type JsonSchema } from "../json.js";
import { closest } from "./suggest.js";

/** A value that cannot be what its input asks for; the message says what it must be. */
export class ArgumentProblem extends Error {
  override name = "ArgumentProblem";
}

/**
 * The `name=value` pairs and `file:INPUT=PATH` of one run. A file is its path as given, or
 * whatever the caller made of it (the CLI's checked file): applyContract hands it on as it is.
 */
export interface ArgumentValues<File = string> {
  /** Raw `name=value` pairs, in order. */
  values: Array<[string, string]>;
  /** `file:INPUT=PATH`. */
  files: Array<[string, File]>;
}

export function fileInputs(schema: JsonSchema): string[] {
  return shapeOf(schema).fileNames;
}

/**
 * What applyContract reads of a schema, worked out once per schema object: a batch applies the
 * same contract to every row, and working these out anew per row was most of what a 100,000-row
 * `--dry-run` allocated (and so of the young generation V8 grew for it).
 */
interface ContractShape {
  properties: Record<string, JsonSchema>;
  fileNames: string[];
  argNames: string[];
}

const shapes = new WeakMap<JsonSchema, ContractShape>();

function shapeOf(schema: JsonSchema): ContractShape {
  let shape = shapes.get(schema);
  if (!shape) {
    const properties = schema.properties ?? {};
    const fileNames = Object.entries(properties)
      .filter(([, p]) => isObject(p) && p.type === "string" && p.format === "file")
      .map(([name]) => name);
    // Frozen: every caller shares them.
    shape = {
      properties,
      fileNames: Object.freeze(fileNames) as string[],
      argNames: Object.freeze(Object.keys(properties).filter((n) => !fileNames.includes(n))) as string[],
    };
    shapes.set(schema, shape);
  }
  return shape;
}

const types = new WeakMap<JsonSchema, string[]>();

/** The JSON types a schema takes, its anyOf and oneOf included (once per schema object). */
function typesOf(schema: JsonSchema): string[] {
  let found = types.get(schema);
  if (!found) {
    const own = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
    const alternatives = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap(typesOf);
    found = Object.freeze([...own, ...alternatives]) as string[];
    types.set(schema, found);
  }
  return found;
}

/**
 * The single types `coerce` leaves a value in exactly or refuses (text as given, a finite number,
 * a whole number, true or false), as typedValueProblem does for a typed value: an input of one
 * of them, once applied, needs no other check of its type.
 */
export const EXACT_TYPES: ReadonlySet<string> = new Set(["string", "number", "integer", "boolean"]);

/** Coerces one command-line value to the type its schema property asks for. */
export function coerce(name: string, raw: string, schema: JsonSchema | undefined): unknown {
  const types = schema ? typesOf(schema) : [];
  if (types.length === 0) return raw;
  const fail = (what: string) => new ArgumentProblem(`${name} must be ${what} (you gave ${JSON.stringify(raw)})`);
  // Structured values are JSON; a lone value for an array that also takes strings stays a string.
  if (types.includes("array") || types.includes("object")) {
    const trimmed = raw.trim();
    if (trimmed.startsWith("[") || trimmed.startsWith("{")) {
      try {
        const value = JSON.parse(trimmed);
        if ((Array.isArray(value) && types.includes("array")) || (!Array.isArray(value) && types.includes("object"))) return value;
      } catch {
        throw fail(`valid JSON (${types.join(" or ")})`);
      }
    }
    if (types.includes("string")) return raw;
    if (types.includes("array")) return [raw];
    throw fail('a JSON object, e.g. \'{"key":"value"}\'');
  }
  if (types.includes("string")) return raw;
  if (types.includes("integer") || types.includes("number")) {
    const n = Number(raw);
    if (raw.trim() === "" || !Number.isFinite(n)) throw fail("a number");
    if (types.includes("integer") && !types.includes("number") && !Number.isInteger(n)) throw fail("a whole number");
    return n;
  }
  if (types.includes("boolean")) {
    if (raw === "true") return true;
    if (raw === "false") return false;
    throw fail("true or false");
  }
  if (types.includes("null") && raw === "null") return null;
  return raw;
}

/** What each JSON Schema type asks for, in words. */
const TYPE_WORDS: Record<string, string> = {
  string: "text",
  integer: "a whole number",
  number: "a number",
  boolean: "true or false",
  object: "a JSON object",
  array: "a JSON array",
  null: "null",
};

/**
 * For a value that arrives typed (a JSONL row's), what is wrong with its JSON type for the input,
 * or undefined when the contract takes it (or declares no type). Text is not judged here: it is
 * coerced as `name=value` is. Nothing else is coerced: an object or array where the contract
 * asks for text is refused, not sent as its JSON text, and so is a number or boolean for text.
 *
 * @example
 * typedValueProblem("subject", { nested: true }, { type: "string" }); // 'subject must be text, not a JSON object ({"nested":true})'
 * typedValueProblem("n", 4, { type: "integer" }); // undefined
 */
export function typedValueProblem(name: string, value: unknown, schema: JsonSchema | undefined): string | undefined {
  if (typeof value === "string") return undefined;
  const types = schema ? typesOf(schema) : [];
  if (types.length === 0) return undefined;
  const kind = value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "object" ? "object" : typeof value;
  const fits =
    kind === "number"
      ? types.includes("number") || (types.includes("integer") && Number.isInteger(value))
      : kind === "boolean" || kind === "object" || kind === "array" || kind === "null"
        ? types.includes(kind)
        : true;
  if (fits) return undefined;
  const wanted = [...new Set(types.map((t) => TYPE_WORDS[t] ?? t))].join(" or ");
  const text = JSON.stringify(value);
  const given =
    kind === "object"
      ? `a JSON object (${text.length > 40 ? `${text.slice(0, 37)}...` : text})`
      : kind === "array"
        ? `a JSON array (${text.length > 40 ? `${text.slice(0, 37)}...` : text})`
        : kind === "null"
          ? "null"
          : `the ${kind} ${text}`;
  const quoted = kind === "number" || kind === "boolean" ? ` (write it as "${text}" for text)` : "";
  return `${name} must be ${wanted}, not ${given}${types.includes("string") ? quoted : ""}`;
}

export interface AppliedContract<File = string> {
  args: Record<string, unknown>;
  /** The files given, by file input. */
  files: Record<string, File>;
  /** The schema's file inputs. */
  fileInputs: string[];
  /** Everything wrong with the step's arguments, in CLI words (empty when nothing is). */
  problems: string[];
}

/**
 * Builds a step's args and files from its contract, naming every argument or file input the
 * contract does not take, is missing or cannot be converted. (The values themselves are checked
 * against the whole schema afterwards, in validate-args.ts.)
 */
export function applyContract<File = string>(step: ArgumentValues<File>, schema: JsonSchema): AppliedContract<File> {
  const { properties, fileNames, argNames } = shapeOf(schema);
  const problems: string[] = [];
  const args: Record<string, unknown> = {};
  const given = new Set<string>();
  const unknown: string[] = [];
  for (const [name, raw] of step.values) {
    if (fileNames.includes(name)) {
      problems.push(`${name} is a file input: write file:${name}=PATH`);
    } else if (!Object.hasOwn(properties, name)) {
      // Own properties only: `constructor` or `toString` is no argument of any contract.
      const guess = closest(name, argNames);
      unknown.push(`${name}${guess ? ` (did you mean ${guess}?)` : ""}`);
    } else if (given.has(name)) {
      problems.push(`${name} is given twice`);
    } else {
      given.add(name);
      try {
        // Defined, not assigned: a contract's own `__proto__` is an argument like any other.
        Object.defineProperty(args, name, { value: coerce(name, raw, properties[name]), enumerable: true, writable: true, configurable: true });
      } catch (err) {
        problems.push((err as Error).message);
      }
    }
  }
  if (unknown.length) {
    problems.unshift(`unknown argument${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}; it takes: ${argNames.join(", ") || "no arguments"}`);
  }
  const files: Record<string, File> = {};
  for (const [input, file] of step.files) {
    if (!fileNames.includes(input)) {
      const guess = closest(input, fileNames);
      problems.push(`unknown file input ${input}${guess ? `: did you mean ${guess}?` : ""} (its file inputs: ${fileNames.join(", ") || "none"})`);
    } else if (input in files) {
      problems.push(`file:${input} is given twice`);
    } else {
      files[input] = file;
    }
  }
  const missing = (schema.required ?? []).filter((n) => !given.has(n) && !(n in files));
  if (missing.length) {
    const how = missing.map((n) => (fileNames.includes(n) ? `file:${n}=path` : `${n}=...`)).join(" ");
    problems.push(`missing ${missing.map((n) => (fileNames.includes(n) ? `file input ${n}` : n)).join(", ")} (add ${how})`);
  }
  return { args, files, fileInputs: fileNames, problems };
}
