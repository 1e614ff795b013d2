/**
 * JSON as this client reads it: the one test for "a JSON object" (not null, not an array), one
 * canonical text for comparing values, and the one type for the JSON Schemas of scripts'
 * contracts (2020-12, as the service stores them).
 */

/**
 * A JSON object: not null, not an array.
 *
 * @example
 * isObject({ a: 1 }); // true
 * isObject([1]);      // false
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A script's input or output schema: the keywords this client reads are typed, any other one is
 * kept as it is (for ajv, for the agent tool). Each keyword may be absent.
 */
export interface JsonSchema {
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  /** `base64` on a string that holds a file's bytes. */
  contentEncoding?: string;
  contentMediaType?: string;
  [keyword: string]: unknown;
}

/**
 * A contract's schema as the API types it (any object, or absent), as a JsonSchema: an object
 * is taken as the schema it is; anything else gives undefined.
 */
export function jsonSchemaOf(value: unknown): JsonSchema | undefined {
  return isObject(value) ? (value as JsonSchema) : undefined;
}

/**
 * A canonical JSON text: object keys sorted, so `{a, b}` and `{b, a}` hash (and compare) alike.
 *
 * @example
 * canonical({ b: 1, a: [true] }); // '{"a":[true],"b":1}'
 */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
