import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import * as index from "./index.js";

// Plain Node (and vitest when it does not transform the package) reaches the sandbox through
// entry.mjs, which re-exports index.ts by name: a name added to index.ts alone would be
// undefined there.
test("entry.mjs re-exports every value index.ts exports", () => {
  const text = readFileSync(new URL("./entry.mjs", import.meta.url), "utf8");
  const list = /export const \{([^}]*)\} = sandbox;/.exec(text)?.[1] ?? "";
  const exported = list
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean)
    .sort();
  expect(exported).toEqual(Object.keys(index).sort());
});
