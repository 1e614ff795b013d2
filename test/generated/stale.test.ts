import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { generate } from "../../scripts/generate.js";

test("src/generated/ is what npm run generate writes from openapi.json", async () => {
  const files = await generate();
  for (const [name, text] of Object.entries(files)) {
    const committed = readFileSync(new URL(`../../src/generated/${name}`, import.meta.url), "utf8");
    expect(committed === text, `src/generated/${name} is stale: run npm run generate`).toBe(true);
  }
});

test("one exported function per operationId", async () => {
  const spec = JSON.parse(readFileSync(new URL("../../openapi.json", import.meta.url), "utf8"));
  const mod = await import("../../src/generated/operations.js");
  for (const item of Object.values<any>(spec.paths)) {
    for (const op of Object.values<any>(item)) {
      if (op["x-reduck-handwritten"]) continue; // POST /run: the hand-written runScript
      expect(typeof (mod as any)[op.operationId], op.operationId).toBe("function");
    }
  }
});
