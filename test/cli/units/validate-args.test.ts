/**
 * The check of a run's arguments against the script's whole schema: ajv is spared for a contract
 * that asks nothing applyContract has not already checked, and such a contract's verdicts are
 * ajv's own.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { nothingLeftToCheck, schemaProblems } from "../../../src/cli/run/validate-args.js";
import type { JsonSchema } from "../../../src/core/json.js";
import { applyContract, fileInputs } from "../../../src/core/words/arguments.js";

const plain: JsonSchema = {
  type: "object",
  title: "Send",
  properties: {
    to: { type: "string", description: "Who", examples: ["a@b.co"], "x-md-type": "text" },
    count: { type: "integer", default: 1 },
    ratio: { type: "number", deprecated: true },
    loud: { type: "boolean", $comment: "say it twice" },
  },
  required: ["to"],
  additionalProperties: false,
};

describe("nothingLeftToCheck", () => {
  it("is true for named properties of one exact type each, annotations and extensions aside", () => {
    expect(nothingLeftToCheck(plain)).toBe(true);
    expect(nothingLeftToCheck({ properties: {} })).toBe(true);
    expect(nothingLeftToCheck({})).toBe(true);
  });

  // Each of these asks something of a value that applyContract never checks (or might not).
  const asking: Array<[string, JsonSchema]> = [
    ["a format", { properties: { to: { type: "string", format: "email" } } }],
    ["allowed values", { properties: { kind: { type: "string", enum: ["a", "b"] } } }],
    ["a constant", { properties: { kind: { type: "string", const: "a" } } }],
    ["a pattern", { properties: { code: { type: "string", pattern: "^[A-Z]+$" } } }],
    ["a length", { properties: { code: { type: "string", minLength: 2 } } }],
    ["a range", { properties: { n: { type: "integer", minimum: 1 } } }],
    ["alternatives", { properties: { to: { anyOf: [{ type: "string" }, { type: "array" }] } } }],
    ["several types", { properties: { to: { type: ["string", "null"] } } }],
    ["an array", { properties: { to: { type: "array", items: { type: "string" } } } }],
    ["an object", { properties: { crop: { type: "object" } } }],
    ["null", { properties: { nothing: { type: "null" } } }],
    ["no type", { properties: { any: { description: "anything" } } }],
    ["nullable", { properties: { to: { type: "string", nullable: true } } }],
    ["a reference", { properties: { to: { $ref: "#/$defs/to" } }, $defs: { to: { type: "string" } } }],
    // Boolean schemas, as a contract from the service may hold (JsonSchema's type leaves them out).
    ["a property that may not be given", { properties: { to: false as unknown as JsonSchema } }],
    ["a property that may be anything", { properties: { to: true as unknown as JsonSchema } }],
    ["a keyword ajv may know", { properties: { to: { type: "string", unknownKeyword: 1 } } }],
    ["a schema for other properties", { properties: {}, additionalProperties: { type: "string" } }],
    ["a top-level type other than object", { type: "array", properties: {} }],
    ["a top-level rule", { properties: {}, minProperties: 1 }],
    ["a conditional", { properties: { a: { type: "string" } }, if: { required: ["a"] }, then: { required: ["b"] } }],
    ["required names not as a list", { properties: {}, required: "a" as unknown as string[] }],
  ];
  it.each(asking)("is false for %s", (_what, schema) => {
    expect(nothingLeftToCheck(schema)).toBe(false);
  });
});

/** Every contract of the sandbox's catalogue (the real catalogue's, as the reference gives them). */
function catalogueSchemas(): Array<[string, JsonSchema]> {
  const root = fileURLToPath(new URL("../../server/store/catalogue/", import.meta.url));
  const found: Array<[string, JsonSchema]> = [];
  for (const host of readdirSync(root)) {
    for (const file of readdirSync(path.join(root, host)).filter((f) => f.endsWith(".json"))) {
      const entry = JSON.parse(readFileSync(path.join(root, host, file), "utf8")) as { input_schema: JsonSchema };
      found.push([`${host}/${file.replace(/\.json$/, "")}`, entry.input_schema]);
    }
  }
  return found;
}

/** The schema as the arguments meet it: file inputs are given as files, never as arguments. */
function argumentsOf(schema: JsonSchema): JsonSchema {
  const files = fileInputs(schema);
  return { ...schema, properties: Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([name]) => !files.includes(name))) };
}

/** Values a user might type for an input of `type`, right and wrong. */
const TYPED_VALUES: Record<string, string[]> = {
  string: ["x", "", "12", "true", "null", '{"a":1}'],
  number: ["1.5", "-2", "1e3", "0x10", "abc", "", "Infinity"],
  integer: ["3", "3.5", "-0", "1e21", "abc", " 7 "],
  boolean: ["true", "false", "yes", "TRUE"],
};

describe("a contract ajv is spared for", () => {
  const schemas = catalogueSchemas();

  it("is most of the catalogue", () => {
    const spared = schemas.filter(([, schema]) => nothingLeftToCheck(argumentsOf(schema)));
    expect(schemas.length).toBeGreaterThan(5);
    expect(spared.length).toBeGreaterThan(schemas.length / 2);
  });

  // The same arguments checked with ajv: a top-level rule every object meets makes the schema one
  // ajv must read, and changes no verdict.
  const withAjv = (schema: JsonSchema): JsonSchema => ({ ...schema, minProperties: 0 });

  it.each(schemas.filter(([, schema]) => nothingLeftToCheck(argumentsOf(schema))))("%s: ajv says nothing either, whatever was typed", async (_name, schema) => {
    expect(nothingLeftToCheck(argumentsOf(withAjv(schema)))).toBe(false);
    const values = Object.entries(argumentsOf(schema).properties ?? {}) as Array<[string, JsonSchema]>;
    // Nothing typed at all (some take only a file), then each input alone, as typed.
    const none = applyContract({ values: [], files: [] }, schema);
    expect(await schemaProblems(withAjv(schema), none.args, none.fileInputs)).toEqual([]);
    for (const [name, property] of values) {
      for (const raw of TYPED_VALUES[property.type as string]!) {
        const applied = applyContract({ values: [[name, raw]], files: [] }, schema);
        expect(await schemaProblems(schema, applied.args, applied.fileInputs)).toEqual([]);
        expect(await schemaProblems(withAjv(schema), applied.args, applied.fileInputs), `${name}=${raw}`).toEqual([]);
      }
    }
  });

  it("still gets ajv's verdict once it asks more", async () => {
    const ranged: JsonSchema = { ...plain, properties: { ...plain.properties, count: { type: "integer", minimum: 1 } } };
    const applied = applyContract(
      {
        values: [
          ["to", "a@b.co"],
          ["count", "0"],
        ],
        files: [],
      },
      ranged,
    );
    expect(applied.problems).toEqual([]);
    expect(await schemaProblems(ranged, applied.args, applied.fileInputs)).toEqual(["count must be at least 1 (you gave 0)"]);
    // The plain one takes the same arguments.
    const same = applyContract(
      {
        values: [
          ["to", "a@b.co"],
          ["count", "0"],
        ],
        files: [],
      },
      plain,
    );
    expect(await schemaProblems(plain, same.args, same.fileInputs)).toEqual([]);
  });
});
