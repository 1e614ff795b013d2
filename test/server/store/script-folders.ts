// Reading a folder of scripts as `reduck scripts pull` writes it: DIR/<handle>/<host>/<slug>/ with
// script.js or script.ts (the body, named for its language) and contract.json. A folder with the
// contract alone is a script whose code the service withholds (as official scripts come down).
// Everything is read and checked before anything is seeded: a bad folder is an error naming the
// file and what to write instead. reduck.lock.json (the client's) is not read.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { isHostname } from "../contract/hostnames.js";
import type { ScriptLanguage, SideEffects, Visibility } from "./records.js";

/** A folder of scripts that cannot be seeded: the message says which file and what to fix. */
export class ScriptsFolderError extends Error {
  override name = "ScriptsFolderError";
}

/** One script folder, read and checked. */
export interface ScriptFolder {
  handle: string;
  host: string;
  slug: string;
  /** The folder itself, for messages. */
  folder: string;
  /** The body and its language; absent: the code is withheld (contract.json alone). */
  code?: { content: string; language: ScriptLanguage };
  contract: {
    name?: string;
    description: string;
    inputSchema: Record<string, unknown>;
    outputSchema: Record<string, unknown>;
    sideEffects?: SideEffects;
    loggedIn?: boolean;
    visibility?: Visibility;
  };
}

// The values ScriptSideEffects takes in the API description.
const SIDE_EFFECTS = ["none", "undetermined", "write"];
const VISIBILITIES = ["private", "public"];
const CODE_FILES: Record<string, ScriptLanguage> = { "script.js": "javascript", "script.ts": "typescript" };
/** A handle as the service spells it: `@alice` (a user) or `acme` (a project). */
const HANDLE = /^@?[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const SLUG = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The folders inside `dir`, sorted; dot-folders (.git) and node_modules are never scripts. */
function subfolders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith(".") && entry.name !== "node_modules")
    .filter((entry) => entry.isDirectory() || (entry.isSymbolicLink() && statSync(path.join(dir, entry.name)).isDirectory()))
    .map((entry) => entry.name)
    .sort();
}

function readContract(file: string): ScriptFolder["contract"] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new ScriptsFolderError(`${file} is not JSON: ${(error as Error).message}`);
  }
  const needs =
    '(description, input_schema, output_schema; e.g. {"description": "…", "input_schema": {"type": "object"}, "output_schema": {"type": "object"}})';
  if (!isObject(parsed)) throw new ScriptsFolderError(`${file} must be a JSON object ${needs}`);
  if (typeof parsed.description !== "string") throw new ScriptsFolderError(`${file} needs a "description" (a string)`);
  for (const key of ["input_schema", "output_schema"] as const) {
    if (!isObject(parsed[key])) throw new ScriptsFolderError(`${file}: "${key}" must be a JSON Schema object, e.g. {"type": "object"}`);
  }
  if (parsed.name !== undefined && typeof parsed.name !== "string") throw new ScriptsFolderError(`${file}: "name" must be a string`);
  if (parsed.side_effects !== undefined && !SIDE_EFFECTS.includes(parsed.side_effects as string)) {
    throw new ScriptsFolderError(`${file}: "side_effects" must be one of ${SIDE_EFFECTS.join(", ")} (got ${JSON.stringify(parsed.side_effects)})`);
  }
  if (parsed.logged_in !== undefined && typeof parsed.logged_in !== "boolean") throw new ScriptsFolderError(`${file}: "logged_in" must be true or false`);
  if (parsed.visibility !== undefined && !VISIBILITIES.includes(parsed.visibility as string)) {
    throw new ScriptsFolderError(`${file}: "visibility" must be one of ${VISIBILITIES.join(", ")} (got ${JSON.stringify(parsed.visibility)})`);
  }
  return {
    ...(parsed.name === undefined ? {} : { name: parsed.name as string }),
    description: parsed.description,
    inputSchema: parsed.input_schema as Record<string, unknown>,
    outputSchema: parsed.output_schema as Record<string, unknown>,
    ...(parsed.side_effects === undefined ? {} : { sideEffects: parsed.side_effects as SideEffects }),
    ...(parsed.logged_in === undefined ? {} : { loggedIn: parsed.logged_in as boolean }),
    ...(parsed.visibility === undefined ? {} : { visibility: parsed.visibility as Visibility }),
  };
}

function readScriptFolder(root: string, handle: string, host: string, slug: string): ScriptFolder {
  const folder = path.join(root, handle, host, slug);
  const files = readdirSync(folder);
  const codeFiles = files.filter((name) => name in CODE_FILES).sort();
  if (codeFiles.length > 1) {
    throw new ScriptsFolderError(`${folder} has two code files (${codeFiles.join(" and ")}): keep one, named for its language`);
  }
  const contractFile = path.join(folder, "contract.json");
  if (!files.includes("contract.json")) {
    throw new ScriptsFolderError(
      codeFiles.length
        ? `${path.join(folder, codeFiles[0]!)} has no contract: write ${contractFile} (description, input_schema, output_schema)`
        : `${folder} holds no script: write script.js or script.ts (the code) and contract.json (description, input_schema, output_schema)`,
    );
  }
  if (!HANDLE.test(handle)) throw new ScriptsFolderError(`${path.join(root, handle)}: "${handle}" is not a handle (@user or a project's handle)`);
  if (!isHostname(host)) throw new ScriptsFolderError(`${path.join(root, handle, host)}: "${host}" is not a host name such as example.com`);
  if (!SLUG.test(slug)) throw new ScriptsFolderError(`${folder}: "${slug}" is not a slug (letters, digits, _ - .)`);
  const contract = readContract(contractFile);
  const codeFile = codeFiles[0];
  if (codeFile === undefined) return { handle, host, slug, folder, contract };
  const content = readFileSync(path.join(folder, codeFile), "utf8");
  return { handle, host, slug, folder, contract, code: { content, language: CODE_FILES[codeFile]! } };
}

/**
 * Every script folder under `root` (`<handle>/<host>/<slug>/`), read and checked. Throws
 * ScriptsFolderError naming the first bad file; files beside the folders (reduck.lock.json, a
 * README) are not read.
 *
 * @example
 * readScriptFolders("./scripts"); // [{ handle: "@alice", host: "shop.example", slug: "get_total", code: {...}, contract: {...} }]
 */
export function readScriptFolders(root: string): ScriptFolder[] {
  const found: ScriptFolder[] = [];
  for (const handle of subfolders(root)) {
    for (const host of subfolders(path.join(root, handle))) {
      for (const slug of subfolders(path.join(root, handle, host))) found.push(readScriptFolder(root, handle, host, slug));
    }
  }
  return found;
}
