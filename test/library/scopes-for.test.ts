import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import * as library from "../../src/index.js";
import { getMe, getPing, listRuns, listScripts, runScript, scopesFor } from "../../src/index.js";

describe("scopesFor", () => {
  test("the scopes the calls need, in order, without repeats", () => {
    expect(scopesFor(listScripts, runScript)).toEqual(["script:read", "run:write"]);
    expect(scopesFor(getMe, listRuns, listScripts, listRuns)).toEqual(["profile", "run:read", "script:read"]);
  });

  test("operations open to anyone need no scope", () => {
    expect(scopesFor(getPing)).toEqual([]);
    expect(scopesFor()).toEqual([]);
  });

  test("agrees with openapi.json's bearer requirement for every operation function", () => {
    const spec = JSON.parse(readFileSync(new URL("../../openapi.json", import.meta.url), "utf8"));
    let checked = 0;
    for (const item of Object.values<Record<string, any>>(spec.paths)) {
      for (const op of Object.values<any>(item)) {
        if (!op?.operationId) continue;
        // GET /batches/{batchId} (getBatch) is hand-written and polled inside runScript/waitForRun, not a function of its own.
        if (op["x-reduck-handwritten"] && !(op.operationId in library)) continue;
        const fn = (library as Record<string, unknown>)[op.operationId];
        expect(typeof fn, op.operationId).toBe("function");
        const bearer = (op.security ?? []).flatMap((r: any) => r.bearerAuth ?? []);
        expect(scopesFor(fn as () => unknown), op.operationId).toEqual(bearer);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  test("a function that is not an operation is a mistake said plainly", () => {
    expect(() => scopesFor(function fetchEverything() {})).toThrow(/fetchEverything is not an operation of reduck-client/);
  });
});
