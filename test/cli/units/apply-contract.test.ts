import { describe, expect, it } from "vitest";
import { applyContract } from "../../../src/core/words/arguments.js";
import type { JsonSchema } from "../../../src/core/json.js";
import { checkPathFile } from "../../../src/run/files.js";

const schema: JsonSchema = {
  type: "object",
  properties: { to: { type: "string" }, attachment: { type: "string", format: "file" } },
  required: ["attachment"],
};

describe("applyContract's files", () => {
  it("hands on the file the caller checked, the same object, so the run sends it without a second check", async () => {
    const checked = await checkPathFile("attachment", "package.json");
    const applied = applyContract({ values: [["to", "a@b.c"]], files: [["attachment", checked]] }, schema);
    expect(applied.problems).toEqual([]);
    expect(applied.files.attachment).toBe(checked);
    expect(applied.args).toEqual({ to: "a@b.c" });
  });

  it("still names a file input given twice or unknown, whatever a file is", () => {
    const applied = applyContract(
      {
        values: [],
        files: [
          ["attachment", { path: "a" }],
          ["attachment", { path: "b" }],
          ["atachment", { path: "c" }],
        ],
      },
      schema,
    );
    expect(applied.problems).toEqual([
      "file:attachment is given twice",
      "unknown file input atachment: did you mean attachment? (its file inputs: attachment)",
    ]);
    expect(applied.files.attachment).toEqual({ path: "a" });
  });
});

describe("applyContract's arguments", () => {
  it("takes only the contract's own properties: a name every object inherits is an unknown argument", () => {
    const applied = applyContract(
      {
        values: [
          ["to", "a@b.c"],
          ["constructor", "x"],
          ["toString", "y"],
          ["__proto__", "z"],
        ],
        files: [["attachment", "contract.pdf"]],
      },
      schema,
    );
    expect(applied.problems).toEqual(["unknown arguments constructor, toString, __proto__; it takes: to"]);
    expect(applied.args).toEqual({ to: "a@b.c" });
    expect(Object.keys(applied.args)).toEqual(["to"]);
  });

  it("sends a property the contract itself names __proto__ as the argument it is", () => {
    const odd = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"integer"}}}') as JsonSchema;
    const applied = applyContract({ values: [["__proto__", "3"]], files: [] }, odd);
    expect(applied.problems).toEqual([]);
    expect(JSON.stringify(applied.args)).toBe('{"__proto__":3}');
    expect(Object.getPrototypeOf(applied.args)).toBe(Object.prototype);
  });
});
