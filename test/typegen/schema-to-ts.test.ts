/**
 * JSON Schema to TypeScript, one case per schema form a contract uses, and what becomes
 * `unknown` (with the reason noted) rather than a wrong type.
 */
import { describe, expect, test } from "vitest";
import { toTypeScript, type SchemaNode } from "../../src/typegen/schema-to-ts.js";
import { inputChanges } from "../../src/typegen/drift.js";

const noRefs = { refName: () => undefined };

function convert(schema: SchemaNode, refs: Record<string, string> = {}): { type: string; notes: string[] } {
  const notes: string[] = [];
  const type = toTypeScript(schema, { refName: (p) => refs[p] }, "", notes);
  return { type, notes };
}

describe("each schema form", () => {
  test.each([
    ["string", { type: "string" }, "string"],
    ["number", { type: "number" }, "number"],
    ["integer", { type: "integer" }, "number"],
    ["boolean", { type: "boolean" }, "boolean"],
    ["null", { type: "null" }, "null"],
    ["array of a type", { type: "array", items: { type: "string" } }, "string[]"],
    ["array without items", { type: "array" }, "unknown[]"],
    ["array of a union", { type: "array", items: { type: ["string", "number"] } }, "(string | number)[]"],
    ["enum", { enum: ["a", "b", 3, true, null] }, '"a" | "b" | 3 | true | null'],
    ["const", { const: "fixed" }, '"fixed"'],
    ["type with null", { type: ["string", "null"] }, "string | null"],
    ["anyOf", { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] }, "string | string[]"],
    ["oneOf", { oneOf: [{ type: "integer" }, { const: "all" }] }, 'number | "all"'],
    ["anyOf that only constrains", { type: "string", anyOf: [{ format: "email" }, { format: "uri" }] }, "string"],
    ["OpenAPI nullable", { type: "string", nullable: true }, "string | null"],
    ["an empty schema", {}, "unknown"],
    ["true", true, "unknown"],
    ["false", false, "never"],
  ] as Array<[string, SchemaNode, string]>)("%s", (_, schema, expected) => {
    expect(convert(schema)).toEqual({ type: expected, notes: [] });
  });

  test("object: required and optional properties, sorted, with descriptions as doc comments", () => {
    const { type } = convert({
      type: "object",
      properties: { subject: { type: "string", description: "The subject." }, "x-count": { type: "integer" }, body: { type: "string" } },
      required: ["subject"],
    });
    expect(type).toBe(`{
  body?: string;
  /** The subject. */
  subject: string;
  "x-count"?: number;
}`);
  });

  test("object: additionalProperties as a schema, true, false, and with named properties", () => {
    expect(convert({ type: "object", additionalProperties: { type: "number" } }).type).toBe("{\n  [key: string]: number;\n}");
    expect(convert({ type: "object", additionalProperties: true }).type).toBe("{\n  [key: string]: unknown;\n}");
    expect(convert({ type: "object", additionalProperties: false }).type).toBe("Record<string, never>");
    expect(convert({ type: "object" }).type).toBe("Record<string, unknown>");
    // An index signature must admit the named properties too.
    expect(convert({ type: "object", properties: { a: { type: "string" } }, additionalProperties: { type: "number" } }).type).toBe(
      "{\n  a?: string;\n  [key: string]: unknown;\n}",
    );
  });

  test("a nested object, nullable, is laid out one level deeper", () => {
    expect(convert({ type: "object", properties: { at: { type: ["object", "null"], properties: { x: { type: "number" } }, required: ["x"] } } }).type).toBe(
      "{\n  at?: {\n    x: number;\n  } | null;\n}",
    );
  });

  test("multi-line descriptions become a block comment, and */ cannot end it early", () => {
    expect(convert({ type: "object", properties: { a: { type: "string", description: "one\ntwo */ three" } } }).type).toBe(
      "{\n  /**\n   * one\n   * two *\\/ three\n   */\n  a?: string;\n}",
    );
  });

  test("$ref into $defs is the definition's name; any other $ref is unknown, saying why", () => {
    expect(convert({ $ref: "#/$defs/Person" }, { "#/$defs/Person": "SendEmailArgsPerson" })).toEqual({ type: "SendEmailArgsPerson", notes: [] });
    expect(convert({ $ref: "https://example.com/schema.json" })).toEqual({
      type: "unknown",
      notes: ["$ref https://example.com/schema.json is not an entry of this schema's $defs"],
    });
  });
});

describe("what is not converted becomes unknown, with the reason", () => {
  test.each([
    ["not", { not: { type: "string" } }, "not is not converted"],
    ["if/then", { type: "string", if: { minLength: 1 }, then: { format: "email" } }, "if, then are not converted"],
    ["patternProperties", { type: "object", patternProperties: { "^x": { type: "string" } } }, "patternProperties is not converted"],
    ["allOf of several", { allOf: [{ type: "string" }, { minLength: 2 }] }, "allOf is not converted"],
    ["tuple items", { type: "array", items: [{ type: "string" }, { type: "number" }] }, "tuple items are not converted"],
    ["an enum of objects", { enum: [{ a: 1 }] }, "an enum with values that are not strings, numbers, booleans or null"],
    [
      "anyOf beside properties",
      { type: "object", properties: { a: { type: "string" } }, anyOf: [{ type: "object" }] },
      "anyOf beside type, properties is not converted",
    ],
    ["an unknown type name", { type: "date" }, 'type "date" is not a JSON Schema type'],
  ] as Array<[string, SchemaNode, string]>)("%s", (_, schema, why) => {
    expect(convert(schema)).toEqual({ type: "unknown", notes: [why] });
  });

  test("inside an object, the property is unknown and a comment above it says why", () => {
    expect(convert({ type: "object", properties: { when: { not: { type: "null" } } } }).type).toBe(
      "{\n  // unknown: not is not converted\n  when?: unknown;\n}",
    );
  });

  test("a union with one unconvertible member is unknown as a whole", () => {
    expect(convert({ anyOf: [{ type: "string" }, { not: {} }] })).toEqual({ type: "unknown", notes: ["not is not converted"] });
  });
});

describe("input changes between two versions", () => {
  test("added, removed, now required, no longer required, type changed; files as file", () => {
    const before = {
      type: "object",
      properties: { to: { type: "string" }, cc: { type: "string" }, body: { type: "string" }, doc: { type: "string", format: "file" } },
      required: ["body"],
    };
    const after = {
      type: "object",
      properties: { to: { type: "array", items: { type: "string" } }, body: { type: "string" }, priority: { enum: ["low", "high"] }, doc: { type: "string" } },
      required: ["to"],
    };
    expect(inputChanges(before, after)).toEqual([
      "body: no longer required",
      "cc: removed",
      "doc: type changed from file to string",
      'priority: added (optional, "low" | "high")',
      "to: now required",
      "to: type changed from string to string[]",
    ]);
    expect(inputChanges(after, after)).toEqual([]);
    expect(toTypeScript(undefined, noRefs, "", [])).toBe("unknown");
  });
});
