// `--scripts DIR` (and startSandbox's `scripts`): the user's own scripts, seeded under the demo
// account beside the official catalogue, so that code under test can run them as it runs its
// real ones. A script is two files: DIR/<host>/<slug>.js, the body (as the catalogue's example
// scripts), and DIR/<host>/<slug>.json, its contract:
// `{ "description", "input_schema", "output_schema", "name"?, "side_effects"?, "logged_in"? }`.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { SideEffects } from "./records.js";
import type { SandboxStore } from "./store.js";

/** A folder of scripts that cannot be seeded: the message says which file and what to fix. */
export class ScriptsFolderError extends Error {
  override name = "ScriptsFolderError";
}

const SIDE_EFFECTS = new Set(["none", "read", "write", "destructive"]);

interface Contract {
  description?: unknown;
  name?: unknown;
  input_schema?: unknown;
  output_schema?: unknown;
  side_effects?: unknown;
  logged_in?: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Seeds every `<host>/<slug>.js` + `.json` pair of `dir` under @demo; returns their addresses
 * (`@demo/<host>/<slug>`). Throws ScriptsFolderError, before seeding any, on a bad pair.
 *
 * @example
 * seedUserScripts(store, "./my-scripts"); // ["@demo/example.org/get_total"]
 */
export function seedUserScripts(store: SandboxStore, dir: string): string[] {
  const found: Array<{ host: string; slug: string; body: string; contract: Contract }> = [];
  for (const host of readdirSync(dir).sort()) {
    const hostDir = path.join(dir, host);
    if (!statSync(hostDir).isDirectory()) continue;
    const names = readdirSync(hostDir);
    for (const file of names.filter((name) => name.endsWith(".js")).sort()) {
      const slug = file.slice(0, -3);
      const where = path.join(hostDir, slug);
      if (!names.includes(`${slug}.json`))
        throw new ScriptsFolderError(`${where}.js has no contract: write ${where}.json (description, input_schema, output_schema)`);
      let contract: unknown;
      try {
        contract = JSON.parse(readFileSync(`${where}.json`, "utf8"));
      } catch (error) {
        throw new ScriptsFolderError(`${where}.json is not JSON: ${(error as Error).message}`);
      }
      if (!isObject(contract)) throw new ScriptsFolderError(`${where}.json must be an object (description, input_schema, output_schema)`);
      if (typeof contract.description !== "string") throw new ScriptsFolderError(`${where}.json needs a "description" (a string)`);
      for (const key of ["input_schema", "output_schema"] as const) {
        if (!isObject(contract[key])) throw new ScriptsFolderError(`${where}.json needs an "${key}" (a JSON Schema object, e.g. {"type": "object"})`);
      }
      if (contract.side_effects !== undefined && !SIDE_EFFECTS.has(String(contract.side_effects))) {
        throw new ScriptsFolderError(`${where}.json: "side_effects" must be one of ${[...SIDE_EFFECTS].join(", ")}`);
      }
      found.push({ host, slug, body: readFileSync(`${where}.js`, "utf8"), contract });
    }
    for (const file of names.filter((name) => name.endsWith(".json"))) {
      if (!names.includes(`${file.slice(0, -5)}.js`))
        throw new ScriptsFolderError(`${path.join(hostDir, file)} has no body: write ${path.join(hostDir, file.slice(0, -5))}.js`);
    }
  }
  return found.map(({ host, slug, body, contract }) => {
    store.addScript({
      handle: "@demo",
      host,
      slug,
      name: typeof contract.name === "string" ? contract.name : slug,
      description: contract.description as string,
      content: body,
      language: "javascript",
      inputSchema: contract.input_schema as Record<string, unknown>,
      outputSchema: contract.output_schema as Record<string, unknown>,
      ...(contract.side_effects === undefined ? {} : { sideEffects: contract.side_effects as SideEffects }),
      ...(contract.logged_in === undefined ? {} : { loggedIn: Boolean(contract.logged_in) }),
      note: `Seeded from ${path.join(dir, host, slug)}`,
    });
    return `@demo/${host}/${slug}`;
  });
}
