import { readdirSync, readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { operationTable } from "../../src/generated/operations.js";

// A guard for the rule "every function on a happy path and an error path": each generated
// function must be called by at least one library test file.
test("every generated function is exercised by the library tests", () => {
  const dir = new URL("./", import.meta.url);
  const sources = readdirSync(dir)
    .filter((f) => f.endsWith(".test.ts") && f !== "every-function.test.ts")
    .map((f) => readFileSync(new URL(f, dir), "utf8"))
    .join("\n");
  const untested = Object.keys(operationTable).filter((id) => !new RegExp(`\\b${id}\\(`).test(sources));
  expect(untested).toEqual([]);
});
