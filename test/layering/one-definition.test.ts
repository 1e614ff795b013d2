/**
 * Helpers the whole client shares are defined once, in src/core/, and imported everywhere else:
 * a second copy drifts (one of the seven former `isObject`s let arrays through). The sandbox
 * (test/server/) keeps its own: it imports nothing of the client's.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isObject, jsonSchemaOf } from "../../src/core/json.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Where src/ defines `name` (a function, or a const bound to one), as file paths. */
function definitionsOf(name: string): string[] {
  const pattern = new RegExp(`(function\\s+${name}\\s*[(<]|const\\s+${name}\\s*=)`);
  return sources(join(root, "src"))
    .filter((file) => pattern.test(readFileSync(file, "utf8")))
    .map((file) => relative(root, file));
}

describe("one definition each, in src/core/", () => {
  it("isObject", () => {
    expect(definitionsOf("isObject")).toEqual(["src/core/json.ts"]);
  });

  it("the JSON Schema type of contracts", () => {
    expect(definitionsOf("jsonSchemaOf")).toEqual(["src/core/json.ts"]);
    const others = sources(join(root, "src")).filter((file) => /^(export\s+)?(type|interface)\s+\w*Schema\b/m.test(readFileSync(file, "utf8")));
    expect(others.map((file) => relative(root, file))).toEqual(["src/core/json.ts"]);
  });
});

describe("one way to end a sentence before a hint, in src/core/words/sentence.ts", () => {
  it("only sentence.ts tests whether a message already ends as a sentence (the CLI's errors and the agent tool's answers import it)", () => {
    const ending = sources(join(root, "src")).filter((file) => readFileSync(file, "utf8").includes("[.!?]$"));
    expect(ending.map((file) => relative(root, file))).toEqual(["src/core/words/sentence.ts"]);
  });
});

describe("one status line on a terminal, in src/cli/shell/", () => {
  it("only status-line.ts writes the sequence that clears a line (every progress line draws through it)", () => {
    const clearing = sources(join(root, "src")).filter((file) => /\\x1b\[K|\\u001b\[K/.test(readFileSync(file, "utf8")));
    expect(clearing.map((file) => relative(root, file))).toEqual(["src/cli/shell/status-line.ts"]);
  });
});

describe("isObject and jsonSchemaOf", () => {
  it("a JSON object is neither null nor an array", () => {
    expect([{}, { a: 1 }, [], null, "x", 1, undefined].map(isObject)).toEqual([true, true, false, false, false, false, false]);
  });

  it("a contract's schema is an object, else absent", () => {
    const schema = { type: "object", properties: { to: { type: "string" } } };
    expect(jsonSchemaOf(schema)).toBe(schema);
    expect([undefined, null, [], "x"].map(jsonSchemaOf)).toEqual([undefined, undefined, undefined, undefined]);
  });
});
