/**
 * Records what the tests need from the real service's API description, so they run on a
 * clone without it: its facts (no prose) for every operation under /api, and a hash of each of
 * its descriptions (to prove ours copy none).
 *
 *   npx tsx scripts/snapshot-reference.ts [PATH/reduck-openapi.json]
 *
 * Without a path, it reads the description where test/support/reference-description.ts finds it.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { factsOf, proseOf, isServiceOperation } from "../test/support/openapi-facts.js";
import { REFERENCE_RULE, referenceDescription } from "../test/support/reference-description.js";

const [file = referenceDescription()] = process.argv.slice(2);
if (!file) {
  console.error(`usage: npx tsx scripts/snapshot-reference.ts PATH/reduck-openapi.json (none found at ${REFERENCE_RULE})`);
  process.exit(2);
}
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
