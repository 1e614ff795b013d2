/**
 * Where the real service's API description (`reduck-openapi.json`) is, when this machine has it.
 * It is not part of the repository: the team's machines and CI keep it outside, and the tests
 * carry its facts in test/openapi/reference-snapshot.json for clones without it.
 *
 * The rule: the folder `REDUCK_REFERENCE_DIR` names, else the first `shared/reference` folder
 * found in a folder above the repository (its parent, then the parent's parent, and so on).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REPOSITORY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const FILE = "reduck-openapi.json";

/** The description's path, or undefined when it is not on this machine. */
export function referenceDescription(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.REDUCK_REFERENCE_DIR) {
    const named = path.join(env.REDUCK_REFERENCE_DIR, FILE);
    return existsSync(named) ? named : undefined;
  }
  for (let dir = path.dirname(REPOSITORY); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "shared", "reference", FILE);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Where the rule looks, in words, for a skipped test's name and a script's usage line. */
export const REFERENCE_RULE = `$REDUCK_REFERENCE_DIR/${FILE}, else shared/reference/${FILE} in a folder above the repository`;
