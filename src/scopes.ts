/**
 * `scopesFor(...functions)`: the OAuth scopes a set of calls needs, so a user-facing application
 * asks its users for exactly those (the spec: a token is requested "with the scopes the calls need").
 */
import * as generated from "./generated/operations.js";
import { operationScopes } from "./generated/scopes.js";
import { runScript } from "./run/run.js";

// Keyed by the functions themselves, not their names: names do not survive a minifier.
const functions: Record<string, unknown> = { ...generated, runScript };
const scopesByFunction = new Map<unknown, readonly string[]>(
  Object.entries(operationScopes)
    .filter(([id]) => typeof functions[id] === "function")
    .map(([id, scopes]) => [functions[id], scopes]),
);

/**
 * The scopes the given operations need, in the order first needed, without repeats. Operations
 * open to anyone (`getPing`, `getVersion`) add none.
 *
 * @example
 * scopesFor(listScripts, runScript); // ["script:read", "run:write"]
 * authorizationUrl.searchParams.set("scope", scopesFor(getMe, listRuns).join(" "));
 */
export function scopesFor(...operations: Array<(...args: never[]) => unknown>): string[] {
  const scopes = new Set<string>();
  for (const operation of operations) {
    const needed = scopesByFunction.get(operation);
    if (!needed) {
      throw new TypeError(
        `scopesFor: ${operation?.name || String(operation)} is not an operation of reduck-client (pass functions such as listScripts or runScript)`,
      );
    }
    for (const scope of needed) scopes.add(scope);
  }
  return [...scopes];
}
