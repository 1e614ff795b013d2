/**
 * A run's arguments checked against the script's whole input JSON Schema before anything is
 * uploaded (a refused run still counts against the quota): ranges, enums, patterns, lengths,
 * formats, nested objects and array items, each problem named in CLI words
 * (`width must be at least 1 (you gave 0)`).
 *
 * The schema is compiled with ajv, loaded on first use so commands that never run a script
 * do not pay for it; and not at all for a contract that asks only what applyContract has already
 * checked (most catalogue scripts' do: named text, number and true/false arguments). Nor is it
 * loaded while the contract is on its way: its load (a synchronous 8-10 ms) would hold up the
 * answer of every contract that needs none of it, to save a contract that does the 4-5 ms the
 * sandbox takes to answer (measured).
 */
import type { ErrorObject, ValidateFunction } from "ajv";

import { isObject, type JsonSchema } from "../../core/json.js";
import { EXACT_TYPES } from "../../core/words/arguments.js";

let validators: Promise<(schema: JsonSchema) => ValidateFunction> | undefined;

/** One ajv, as the service reads script schemas: JSON Schema 2020-12, unknown keywords ignored. */
function compiler(): Promise<(schema: JsonSchema) => ValidateFunction> {
  validators ??= (async () => {
    // A file of its own in the build (src/cli/vendor/ajv.ts), loaded only here.
    const { Ajv2020, addFormats } = await import("../vendor/ajv.js");
    const ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true, validateSchema: false });
    addFormats(ajv);
    ajv.addFormat("file", true);
    const cache = new Map<string, ValidateFunction>();
    return (schema: JsonSchema) => {
      const key = JSON.stringify(schema);
      let validate = cache.get(key);
      if (!validate) cache.set(key, (validate = ajv.compile(schema)));
      return validate;
    };
  })();
  return validators;
}

const compiledFor = new WeakMap<JsonSchema, Map<string, ValidateFunction | null>>();

/** Keywords that describe a value and check nothing. */
const ANNOTATIONS = new Set(["title", "description", "examples", "default", "deprecated", "readOnly", "writeOnly", "$comment"]);

/** A keyword ajv reads and checks nothing with: an annotation, or an extension (`x-...`), which ajv ignores unstrict. */
const checksNothing = (key: string) => ANNOTATIONS.has(key) || key.startsWith("x-");

/**
 * Whether an argument schema (file inputs left out) asks nothing of the arguments that
 * applyContract has not already checked, so ajv could only agree with it: an object of named
 * properties, each of one type of text, number, whole number or true/false (which coercion
 * either gives the value or refuses), with required names (applyContract reports the missing)
 * and no others (it reports the unknown). Anything else, however harmless, goes to ajv.
 *
 * @example
 * nothingLeftToCheck({ type: "object", properties: { to: { type: "string", description: "Who" } }, required: ["to"] }); // true
 * nothingLeftToCheck({ type: "object", properties: { to: { type: "string", format: "email" } } }); // false
 */
export function nothingLeftToCheck(schema: JsonSchema): boolean {
  for (const [key, value] of Object.entries(schema)) {
    if (checksNothing(key)) continue;
    if (key === "type" && value === "object") continue;
    if (key === "required" && Array.isArray(value)) continue;
    if (key === "additionalProperties" && typeof value === "boolean") continue;
    if (key === "properties" && isObject(value) && Object.values(value).every(checksOnlyType)) continue;
    return false;
  }
  return true;
}

/** A property's schema that asks for one exact type and nothing more. */
function checksOnlyType(property: unknown): boolean {
  if (!isObject(property) || typeof property.type !== "string" || !EXACT_TYPES.has(property.type)) return false;
  return Object.keys(property).every((key) => key === "type" || checksNothing(key));
}

/** The schema without its file inputs: files are given as file:INPUT=PATH, never as arguments. */
function argumentSchema(schema: JsonSchema, fileInputs: string[]): JsonSchema {
  const { $schema: _draft, $id: _id, ...rest } = schema;
  if (!fileInputs.length) return rest;
  const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([name]) => !fileInputs.includes(name)));
  const required = Array.isArray(schema.required) ? schema.required.filter((r) => !fileInputs.includes(r)) : undefined;
  return { ...rest, properties, ...(required ? { required } : {}) };
}

/** `/items/0/name` -> `items[0].name` */
function argumentPath(instancePath: string): string {
  return instancePath
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((out, segment) => (/^\d+$/.test(segment) ? `${out}[${segment}]` : out ? `${out}.${segment}` : segment), "");
}

function shown(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function oneOf(values: unknown[]): string {
  const words = values.map(shown);
  return words.length <= 1 ? (words[0] ?? "nothing") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

const FORMATS: Record<string, string> = {
  email: "an email address",
  uri: "a full URL (e.g. https://example.com/page)",
  "uri-reference": "a URL",
  url: "a full URL (e.g. https://example.com/page)",
  "date-time": "a date and time (e.g. 2026-01-31T09:00:00Z)",
  date: "a date (YYYY-MM-DD)",
  time: "a time (e.g. 09:00:00Z)",
  hostname: "a host name (e.g. example.com)",
  ipv4: "an IPv4 address",
  ipv6: "an IPv6 address",
  uuid: "a UUID",
};

/** One ajv error in CLI words, or undefined for errors another message already covers. */
function describe(error: ErrorObject, where: string): string | undefined {
  const p = error.params as Record<string, any>;
  const gave = ` (you gave ${shown(error.data)})`;
  switch (error.keyword) {
    case "minimum":
      return `${where} must be at least ${p.limit}${gave}`;
    case "exclusiveMinimum":
      return `${where} must be more than ${p.limit}${gave}`;
    case "maximum":
      return `${where} must be at most ${p.limit}${gave}`;
    case "exclusiveMaximum":
      return `${where} must be less than ${p.limit}${gave}`;
    case "multipleOf":
      return `${where} must be a multiple of ${p.multipleOf}${gave}`;
    case "minLength":
      return `${where} must be at least ${plural(p.limit, "character")} long (you gave ${plural([...String(error.data)].length, "character")})`;
    case "maxLength":
      return `${where} must be at most ${plural(p.limit, "character")} long (you gave ${plural([...String(error.data)].length, "character")})`;
    case "pattern":
      return `${where} must match the pattern ${p.pattern}${gave}`;
    case "format":
      return `${where} must be ${FORMATS[p.format] ?? `in the format ${p.format}`}${gave}`;
    case "enum":
      return `${where} must be one of ${oneOf(p.allowedValues)}${gave}`;
    case "const":
      return `${where} must be ${shown(p.allowedValue)}${gave}`;
    case "type":
      return `${where} must be ${String(p.type).split(",").join(" or ")}${gave}`;
    case "minItems":
      return `${where} must have at least ${plural(p.limit, "item")} (you gave ${(error.data as unknown[]).length})`;
    case "maxItems":
      return `${where} must have at most ${plural(p.limit, "item")} (you gave ${(error.data as unknown[]).length})`;
    case "uniqueItems":
      return `${where} must not repeat an item (items ${p.j} and ${p.i} are the same)`;
    case "minProperties":
      return `${where} must have at least ${plural(p.limit, "key")}`;
    case "maxProperties":
      return `${where} must have at most ${plural(p.limit, "key")}`;
    case "required":
      // Top-level arguments are reported as missing before this check runs.
      return where ? `${where}.${p.missingProperty} is required` : undefined;
    case "additionalProperties":
      // Unknown top-level arguments are refused before this check runs.
      return where ? `${where} does not take ${p.additionalProperty}` : undefined;
    case "anyOf":
    case "oneOf":
      return `${where || "the arguments"} match none of the forms the script allows`;
    default:
      return `${where || "the arguments"} ${error.message ?? "are not valid"}`;
  }
}

/**
 * Every way `args` breaks the input schema, in CLI words; empty when they fit.
 *
 * @example
 * await schemaProblems({ type: "object", properties: { width: { type: "integer", minimum: 1 } } }, { width: 0 }, []);
 * // ["width must be at least 1 (you gave 0)"]
 */
export async function schemaProblems(schema: JsonSchema, args: Record<string, unknown>, fileInputs: string[]): Promise<string[]> {
  // `reduck batch` checks every row against one schema: find its validator without turning the
  // schema into text again for each row (100,000 rows made 200 MB of garbage that way).
  const forSchema = compiledFor.get(schema) ?? new Map<string, ValidateFunction | null>();
  compiledFor.set(schema, forSchema);
  const inputsKey = fileInputs.join("\n");
  let validate = forSchema.get(inputsKey);
  if (validate === undefined) {
    const argSchema = argumentSchema(schema, fileInputs);
    if (nothingLeftToCheck(argSchema)) validate = null;
    else {
      const compile = await compiler();
      // Rows are checked side by side: another may have compiled it meanwhile.
      validate = forSchema.get(inputsKey);
      if (validate === undefined) {
        try {
          validate = compile(argSchema);
        } catch {
          validate = null;
        }
      }
    }
    forSchema.set(inputsKey, validate);
  }
  // Nothing applyContract has not checked, or a schema ajv cannot read (the judgement is then the service's).
  if (validate === null) return [];
  if (validate(structuredClone(args))) return [];
  // A failed anyOf/oneOf also reports why each alternative failed: name the value once instead.
  const problems = (validate.errors ?? [])
    .filter((e) => !/\/(anyOf|oneOf)\/\d+\//.test(e.schemaPath))
    .map((e) => describe(e, argumentPath(e.instancePath)))
    .filter((m): m is string => Boolean(m));
  return [...new Set(problems)];
}
