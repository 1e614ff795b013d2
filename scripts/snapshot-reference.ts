/**
 * Records what the tests need from the real service's API description, so they run on a
 * clone without it: its facts (no prose) for every operation under /api, and a hash of each of
 * its descriptions (to prove ours copy none).
 *
 *   npx tsx scripts/snapshot-reference.ts ../shared/reference/reduck-openapi.json
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { factsOf, proseOf, isServiceOperation } from "../test/support/openapi-facts.js";

const [file = "../shared/reference/reduck-openapi.json"] = process.argv.slice(2);
const reference = JSON.parse(readFileSync(file, "utf8"));
const snapshot = {
  note: "Facts of the real service's API description (descriptions removed), written by scripts/snapshot-reference.ts.",
  facts: factsOf(reference, isServiceOperation),
  proseHashes: proseOf(reference)
    .map((t) => createHash("sha256").update(t).digest("hex"))
    .sort(),
};
writeFileSync(new URL("../test/openapi/reference-snapshot.json", import.meta.url), JSON.stringify(snapshot, null, 1) + "\n");
console.log("wrote test/openapi/reference-snapshot.json");
