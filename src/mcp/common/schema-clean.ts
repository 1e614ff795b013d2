/**
 * Script contracts carry the service's own annotations (`x-md-type`, `x-enum-from-output-doc`):
 * keywords no JSON Schema reader knows, which only cost an agent tokens and attention. They are
 * removed from every schema object, while a property that happens to be named `x-...` stays:
 * under `properties` the keys are names, not keywords.
 */

import { isObject } from "../../core/json.js";

/** Keywords whose value is a map from names to schemas. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** Keywords whose value is a schema, or an array of schemas. */
const SCHEMAS = new Set([
  "items",
  "additionalItems",
  "prefixItems",
  "additionalProperties",
  "unevaluatedItems",
  "unevaluatedProperties",
  "propertyNames",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "allOf",
  "anyOf",
  "oneOf",
]);

/**
 * A copy of a JSON Schema without its `x-*` keywords, at every depth.
 *
 * @example
 * withoutExtensions({ type: "string", "x-md-type": "any" }) // { type: "string" }
 */
export function withoutExtensions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutExtensions);
  if (!isObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith("x-")) continue;
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, withoutExtensions(sub)]));
    } else if (SCHEMAS.has(key)) {
      out[key] = withoutExtensions(value);
    } else {
      // enum, const, default, examples...: values, kept as they are.
      out[key] = value;
    }
  }
  return out;
}
