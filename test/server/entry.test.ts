import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import * as index from "./index.js";
import * as internal from "./internal.js";
import * as testing from "./testing/testing.js";

// Plain Node (and vitest when it does not transform the package) reaches the sandbox through
// entry.mjs, which re-exports index.ts by name: a name added to index.ts alone would be
// undefined there. internal.mjs is the same for internal.ts, testing/testing.mjs for testing/testing.ts.
test.each([
  ["entry.mjs", "index.ts", index],
  ["internal.mjs", "internal.ts", internal],
  ["testing/testing.mjs", "testing/testing.ts", testing],
])("%s re-exports every value %s exports", (entry, _source, module) => {
  const text = readFileSync(new URL(`./${entry}`, import.meta.url), "utf8");
  const list = /export const \{([^}]*)\} = (?:sandbox|testing);/.exec(text)?.[1] ?? "";
  const exported = list
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean)
    .sort();
  expect(exported).toEqual(Object.keys(module).sort());
});
