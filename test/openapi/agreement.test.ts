import { existsSync, readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { differences, factsOf } from "../support/openapi-facts.js";

const ours = JSON.parse(readFileSync(new URL("../../openapi.json", import.meta.url), "utf8"));
// The real service's description sits beside the repository on the team's machines and in CI.
const referenceFile = new URL("../../../shared/reference/reduck-openapi.json", import.meta.url);
const haveReference = existsSync(referenceFile);

/** The 33 catalogue operations: everything but the hosted-apps endpoints. */
const catalogue = (p: string) => p.startsWith("/api/") && !p.startsWith("/api/apps") && !p.startsWith("/api/app-images");

describe("openapi.json", () => {
  test("describes the 33 catalogue operations, each with an operationId", () => {
    const ids = Object.entries<any>(ours.paths)
      .filter(([p]) => catalogue(p))
      .flatMap(([, item]) => Object.values<any>(item).map((op) => op.operationId));
    expect(ids).toHaveLength(33);
    expect(new Set(ids).size).toBe(33);
  });

  test("has its own description for every operation", () => {
    for (const item of Object.values<any>(ours.paths)) for (const op of Object.values<any>(item)) expect(op.description, op.operationId).toBeTruthy();
  });

  test.runIf(haveReference)("agrees with the real service's description on every fact", () => {
    const reference = JSON.parse(readFileSync(referenceFile, "utf8"));
    expect(differences(factsOf(ours, catalogue), factsOf(reference, catalogue))).toEqual([]);
  });

  test.runIf(haveReference)("copies no sentence of the real description", () => {
    const reference = JSON.parse(readFileSync(referenceFile, "utf8"));
    const prose = (spec: any) => {
      const found: string[] = [];
      JSON.stringify(spec, (key, value) => {
        if ((key === "description" || key === "summary") && typeof value === "string" && value.length > 20) found.push(value);
        return value;
      });
      return found;
    };
    const theirs = new Set(prose(reference));
    expect(prose(ours).filter((text) => theirs.has(text))).toEqual([]);
  });
});
