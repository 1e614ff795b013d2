// A script version's input contract as POST /run applies it: which properties are file inputs, and
// the arguments checked against the rest of the schema (defaults filled in).
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { messageOf, type FieldErrors } from "../../contract/openapi.js";

// ajv-formats is CommonJS: depending on the loader its default import is the plugin or a namespace holding it.
const addFormats: typeof addFormatsModule.default = typeof addFormatsModule === "function" ? addFormatsModule : addFormatsModule.default;

type Schema = Record<string, unknown>;

// strict: false because script schemas carry their own annotations (x-md-type, examples...).
const ajv = new Ajv2020({ strict: false, allErrors: true, useDefaults: true, coerceTypes: false });
addFormats(ajv);
ajv.addFormat("file", true);

const compiled = new Map<string, ValidateFunction>();

function properties(schema: Schema): Record<string, Schema> {
  const props = schema.properties;
  return props && typeof props === "object" ? (props as Record<string, Schema>) : {};
}

function isFileInput(property: Schema): boolean {
  return property?.type === "string" && property?.format === "file";
}

/** Names of the schema's file inputs: top-level properties with `type: "string", format: "file"`. */
export function fileInputsOf(schema: Schema): string[] {
  return Object.entries(properties(schema))
    .filter(([, p]) => isFileInput(p))
    .map(([name]) => name);
}

/** Names listed in `required`. */
export function requiredOf(schema: Schema): string[] {
  return Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : [];
}

/** The schema without its file inputs (they are bound as files, never given as arguments). */
function argumentSchema(schema: Schema): Schema {
  const files = new Set(fileInputsOf(schema));
  const { $schema: _ignored, $id: _id, ...rest } = schema;
  if (!files.size) return rest;
  return {
    ...rest,
    properties: Object.fromEntries(Object.entries(properties(schema)).filter(([name]) => !files.has(name))),
    ...(Array.isArray(schema.required) ? { required: requiredOf(schema).filter((r) => !files.has(r)) } : {}),
  };
}

export class ContractProblem extends Error {
  override name = "ContractProblem";
}

function validatorFor(schema: Schema): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    try {
      validate = ajv.compile(schema);
    } catch (error) {
      throw new ContractProblem(`the script's input schema does not compile: ${(error as Error).message}`);
    }
    compiled.set(key, validate);
  }
  return validate;
}

function argumentErrors(errors: ErrorObject[]): FieldErrors {
  const out: FieldErrors = {};
  for (const error of errors) {
    if (error.keyword === "anyOf" || error.keyword === "oneOf") continue;
    const segments = error.instancePath
      .split("/")
      .slice(1)
      .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
    let message = messageOf(error);
    if (error.keyword === "required") segments.push(String((error.params as { missingProperty: string }).missingProperty));
    if (error.keyword === "additionalProperties") {
      segments.push(String((error.params as { additionalProperty: string }).additionalProperty));
      message = segments.length === 1 ? "is not an argument of this script" : "is not allowed here";
    }
    const field = segments.length ? segments.join(".") : "args";
    if (!(out[field] ??= []).includes(message)) out[field].push(message);
  }
  return out;
}

export type ArgumentCheck = { ok: true; args: Record<string, unknown> } | { ok: false; variables: FieldErrors };

/**
 * Checks arguments against the input schema without its file inputs. Unknown arguments are refused
 * only when the schema says `additionalProperties: false`. On success, returns a copy with the
 * schema's defaults filled in. Throws ContractProblem when the schema itself is broken.
 *
 * @example
 * checkArguments(sendEmailSchema, { to: "me@example.com" });
 * // { ok: false, variables: { subject: ["is required"] } }
 */
export function checkArguments(schema: Schema, args: Record<string, unknown>): ArgumentCheck {
  const validate = validatorFor(argumentSchema(schema));
  const copy = structuredClone(args);
  if (validate(copy)) return { ok: true, args: copy };
  return { ok: false, variables: argumentErrors(validate.errors ?? []) };
}

/** `subject is required; to must be string` */
export function describeFieldErrors(variables: FieldErrors): string {
  return Object.entries(variables)
    .map(([field, messages]) => `${field} ${messages.join(", ")}`)
    .join("; ");
}
