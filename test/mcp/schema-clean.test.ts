import { expect, test } from "vitest";
import { withoutExtensions } from "../../src/mcp/common/schema-clean.js";

test("x-* keywords go at every depth; properties named x-... and values stay", () => {
  const schema = {
    type: "object",
    "x-md-type": "any",
    properties: {
      "x-request-id": { type: "string", "x-md-type": "any" },
      to: {
        anyOf: [
          { type: "string", "x-note": 1 },
          { type: "array", items: { type: "string", "x-enum-from-output-doc": ["a"] } },
        ],
      },
      kind: { enum: ["x-one", "two"], default: { "x-kept": true } },
    },
    $defs: { when: { type: "string", "x-format": "date" } },
    additionalProperties: { type: "number", "x-unit": "s" },
  };
  expect(withoutExtensions(schema)).toEqual({
    type: "object",
    properties: {
      "x-request-id": { type: "string" },
      to: { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] },
      kind: { enum: ["x-one", "two"], default: { "x-kept": true } },
    },
    $defs: { when: { type: "string" } },
    additionalProperties: { type: "number" },
  });
  expect(withoutExtensions(undefined)).toBeUndefined();
});
