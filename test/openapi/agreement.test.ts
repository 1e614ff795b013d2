import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { differences, factsOf, isServiceOperation, proseOf } from "../support/openapi-facts.js";
import { REFERENCE_RULE, referenceDescription } from "../support/reference-description.js";

const ours = JSON.parse(readFileSync(new URL("../../openapi.json", import.meta.url), "utf8"));
const snapshot = JSON.parse(readFileSync(new URL("./reference-snapshot.json", import.meta.url), "utf8"));
// The real service's description is outside the repository, on the team's machines and in CI
// (test/support/reference-description.ts says where); the snapshot carries its facts for clones
// without it.
const referenceFile = referenceDescription();

describe("openapi.json", () => {
  test("describes the service's 55 operations (33 catalogue and account, 22 hosted apps), each with an operationId", () => {
    const ids = Object.entries<any>(ours.paths)
      .filter(([p]) => isServiceOperation(p))
      .flatMap(([, item]) => Object.values<any>(item).map((op) => op.operationId));
    expect(ids).toHaveLength(55);
    expect(new Set(ids).size).toBe(55);
    const apps = Object.entries<any>(ours.paths).filter(([p]) => p.startsWith("/api/apps") || p.startsWith("/api/app-images"));
    expect(apps.flatMap(([, item]) => Object.keys(item))).toHaveLength(22);
  });

  test("has its own description for every operation", () => {
    for (const item of Object.values<any>(ours.paths)) for (const op of Object.values<any>(item)) expect(op.description, op.operationId).toMatch(/\w{3,}.*\w/);
  });

  test("agrees with the real service's description on every fact", () => {
    expect(differences(factsOf(ours, isServiceOperation), snapshot.facts)).toEqual([]);
  });

  test("copies no sentence of the real description", () => {
    const theirs = new Set<string>(snapshot.proseHashes);
    expect(theirs.size).toBeGreaterThan(100);
    const copied = proseOf(ours).filter((text) => theirs.has(createHash("sha256").update(text).digest("hex")));
    expect(copied).toEqual([]);
  });

  // A clone without the real description has nothing to compare with: the test shows as skipped,
  // saying why, and the snapshot stands in for the tests above.
  const absent = referenceFile === undefined;
  test.skipIf(absent)(`the snapshot is the real description's${absent ? ` (skipped: not found at ${REFERENCE_RULE})` : ""}`, () => {
    const reference = JSON.parse(readFileSync(referenceFile!, "utf8"));
    expect(differences(snapshot.facts, factsOf(reference, isServiceOperation))).toEqual([]);
  });
});
