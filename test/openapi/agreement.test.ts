import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { differences, factsOf, isServiceOperation, proseOf } from "../support/openapi-facts.js";

const ours = JSON.parse(readFileSync(new URL("../../openapi.json", import.meta.url), "utf8"));
const snapshot = JSON.parse(readFileSync(new URL("./reference-snapshot.json", import.meta.url), "utf8"));
// The real service's description sits beside the repository on the team's machines and in CI;
// the snapshot carries its facts for clones without it.
const referenceFile = new URL("../../../shared/reference/reduck-openapi.json", import.meta.url);

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

  // A clone without ../shared has no real description to compare with: the test shows as skipped,
  // saying why, and the snapshot stands in for the tests above.
  const absent = !existsSync(referenceFile);
  test.skipIf(absent)(`the snapshot is the real description's${absent ? ` (skipped: ${fileURLToPath(referenceFile)} is not here)` : ""}`, () => {
    const reference = JSON.parse(readFileSync(referenceFile, "utf8"));
    expect(differences(snapshot.facts, factsOf(reference, isServiceOperation))).toEqual([]);
  });
});
