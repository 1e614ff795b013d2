// The official catalogue the seed publishes under the `reduck` project: one JSON contract per script
// in catalogue/<host>/<slug>.json, copied from the real official scripts. Read from this folder (never
// from /work/shared) so the copies are what ships with the tests.
import { readdirSync, readFileSync } from "node:fs";
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

let cached: CatalogueEntry[] | undefined;

/** Every catalogue contract, sorted by host then slug so seeding is deterministic. */
export function loadCatalogue(): CatalogueEntry[] {
  if (cached) return cached;
  const entries: CatalogueEntry[] = [];
  for (const host of readdirSync(CATALOGUE_DIR).sort()) {
    const hostDir = new URL(`${host}/`, CATALOGUE_DIR);
    for (const file of readdirSync(hostDir).filter((f) => f.endsWith(".json")).sort()) {
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
