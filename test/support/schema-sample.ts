/**
 * A value that satisfies a JSON Schema, made from the schema alone: every property present (the
 * optional ones too), arrays at their minimum length (one item at least), the first branch of an
 * `anyOf` that is not null. Patterns are not inverted in general: the few the service's description
 * uses have a sample each in PATTERN_SAMPLES, and an unknown one is an error that says so.
 */
type Schema = Record<string, any>;

export const PATTERN_SAMPLES: Record<string, string> = {
  "^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$":
    "3f0e8c1a-5b2d-4c6e-9a7b-1d2e3f405162",
  "^[a-z0-9_-]+$": "sample-slug",
  "^[A-Za-z_][A-Za-z0-9_]{0,63}$": "SAMPLE_SECRET",
  "^[A-Za-z0-9][A-Za-z0-9._/-]{0,127}$": "assets/app.js",
  "^[0-9a-f]{64}$": "ab".repeat(32),
  "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$": "sample_task",
  "^(?:(@?[A-Za-z0-9_.-]+)\\/)?([A-Za-z0-9._-]+)\\/([A-Za-z0-9_.-]+)$": "reduck/mail.google.com/send_email",
};

const UUID = "6d1f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b";

function stringSample(schema: Schema, name: string): string {
  if (typeof schema.pattern === "string") {
    const sample = PATTERN_SAMPLES[schema.pattern];
    if (sample === undefined) throw new Error(`no sample for the pattern ${schema.pattern} (of ${name}): add one to PATTERN_SAMPLES`);
    return sample;
  }
  if (schema.format === "uuid") return UUID;
  if (schema.format === "date-time") return "2026-01-02T03:04:05.000Z";
  const base = name === "handle" ? "@demo" : name === "host" ? "example.com" : `sample ${name || "text"}`;
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Number.POSITIVE_INFINITY;
  return base.padEnd(min, "x").slice(0, max);
}

function numberSample(schema: Schema, integer: boolean): number {
  let value = integer ? 3 : 2.5;
  if (typeof schema.minimum === "number") value = Math.max(value, schema.minimum);
  if (typeof schema.exclusiveMinimum === "number") value = Math.max(value, schema.exclusiveMinimum + 1);
  if (typeof schema.maximum === "number") value = Math.min(value, schema.maximum);
  return value;
}

/** A value the schema accepts. `name` is the property or parameter it is for (for readable strings). */
export function sampleOf(schema: Schema | undefined, name = ""): unknown {
  if (!schema || Object.keys(schema).length === 0) return { sample: name || "value" };
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (Array.isArray(schema.anyOf)) return sampleOf(schema.anyOf.find((s: Schema) => s.type !== "null") ?? schema.anyOf[0], name);
  const type = Array.isArray(schema.type) ? (schema.type.find((t: string) => t !== "null") ?? "null") : schema.type;
  switch (type) {
    case "string":
      return stringSample(schema, name);
    case "integer":
      return numberSample(schema, true);
    case "number":
      return numberSample(schema, false);
    case "boolean":
      return true;
    case "null":
      return null;
    case "array":
      return Array.from({ length: Math.max(1, schema.minItems ?? 0) }, (_, i) => sampleOf(schema.items, `${name}${i}`));
    default: {
      // An object (or a schema with properties and no type).
      const out: Record<string, unknown> = {};
      for (const [key, property] of Object.entries<Schema>(schema.properties ?? {})) out[key] = sampleOf(property, key);
      if (schema.additionalProperties && typeof schema.additionalProperties === "object" && !schema.properties) {
        const key = schema.propertyNames ? String(sampleOf(schema.propertyNames, "key")) : "sample_key";
        out[key] = sampleOf(schema.additionalProperties, key);
      }
      return out;
    }
  }
}
