// The official catalogue the seed publishes under the `reduck` project: one JSON contract per script
// in catalogue/<host>/<slug>.json, copied from the real official scripts, except where a description
// sends the reader to a script the sandbox does not have (search_emails, search_transactions,
// list_invoices): there it says where the sandbox's pages show that id instead
// (catalogue-references.test.ts holds every copy to that). Read from this folder (never
// from outside the repository) so the copies are what ships with the tests. Scripts with a source run it:
// the example-scripts/<host>/<slug>.js here (the repository's examples/scripts links to it), one body
// for the real browser (runtime/browser/) and the simulated page (runtime/simulated/) alike.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { ScriptLanguage, SideEffects } from "./records.js";

export interface CatalogueEntry {
  handle: string;
  host: string;
  slug: string;
  name: string;
  description: string;
  logged_in: boolean;
  side_effects: SideEffects;
  input_schema: Record<string, unknown>;
  output_schema: Record<string, unknown>;
  /** Optional script body; without it the seed stores a placeholder. */
  content?: string;
  language?: ScriptLanguage;
}

const CATALOGUE_DIR = new URL("./catalogue/", import.meta.url);
/** The example script sources, carried in this folder (the package ships them). */
export const EXAMPLE_SCRIPTS_DIR = new URL("./example-scripts/", import.meta.url);
/**
 * The body of a catalogue script: `example-scripts/<host>/<slug>.js` when that file exists (read
 * now, so an edited example is picked up by the next store); else whatever the contract carried.
 */
export function exampleSource(
  host: string,
  slug: string,
  fallback: { content?: string; language?: ScriptLanguage } = {},
): { content?: string; language?: ScriptLanguage } {
  const file = new URL(`${host}/${slug}.js`, EXAMPLE_SCRIPTS_DIR);
  if (!existsSync(file)) return fallback;
  return { content: readFileSync(file, "utf8"), language: "javascript" };
}

let cached: CatalogueEntry[] | undefined;

/** Every catalogue contract, sorted by host then slug so seeding is deterministic. */
export function loadCatalogue(): CatalogueEntry[] {
  if (cached) return cached;
  const entries: CatalogueEntry[] = [];
  for (const host of readdirSync(CATALOGUE_DIR).sort()) {
    const hostDir = new URL(`${host}/`, CATALOGUE_DIR);
    for (const file of readdirSync(hostDir)
      .filter((f) => f.endsWith(".json"))
      .sort()) {
      const entry = JSON.parse(readFileSync(new URL(file, hostDir), "utf8")) as CatalogueEntry;
      if (entry.host !== host || `${entry.slug}.json` !== file) {
        throw new Error(`catalogue/${host}/${file} describes ${entry.host}/${entry.slug}; the path must match`);
      }
      entries.push(entry);
    }
  }
  cached = entries;
  return entries;
}
