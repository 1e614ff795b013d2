/**
 * What `reduck login` asks for covers what the CLI does: every operation named in the code the CLI
 * and `reduck mcp` run (all of src/ but the library's public surface, which names every
 * operation) needs only scopes in CLI_SCOPES.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { CLI_SCOPES } from "../../src/auth/sign-in.js";
import { operationScopes } from "../../src/generated/scopes.js";

const SRC = path.resolve(import.meta.dirname, "../../src");
/** Files that name operations without calling them: the generated code and the library's exports. */
const NOT_CALLERS = new Set(["generated", "index.ts", "scopes.ts"]);

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (folder === SRC && NOT_CALLERS.has(entry.name)) return [];
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** Each scope the CLI's code needs, with one operation that needs it. */
function neededScopes(): Map<string, string> {
  const needed = new Map<string, string>();
  const text = sources(SRC).map((file) => readFileSync(file, "utf8"));
  for (const [operation, scopes] of Object.entries(operationScopes)) {
    const named = new RegExp(`\\b${operation}\\b`);
    if (!text.some((source) => named.test(source))) continue;
    for (const scope of scopes) if (!needed.has(scope)) needed.set(scope, operation);
  }
  return needed;
}

test("the CLI's sign-in asks for every scope its commands' operations need", () => {
  const needed = neededScopes();
  // The scan finds the commands it should: flock's operations among them.
  expect(needed.get("app:write")).toBeDefined();
  const missing = [...needed].filter(([scope]) => !CLI_SCOPES.includes(scope)).map(([scope, operation]) => `${scope} (for ${operation})`);
  expect(missing).toEqual([]);
});

test("the CLI's sign-in asks for a refresh token and the app scopes", () => {
  expect(CLI_SCOPES).toEqual(expect.arrayContaining(["offline_access", "app:read", "app:write", "profile"]));
  expect(new Set(CLI_SCOPES).size).toBe(CLI_SCOPES.length);
});
