/**
 * Scripts as files: one folder per script, `<handle>/<host>/<slug>/`, holding its code
 * (`script.js` or `script.ts`, named for its language) and its contract (`contract.json`), and
 * one lock file for the whole tree (`reduck.lock.json`). This module holds the names, the
 * contract's one written form (keys in a fixed order, 2-space indent, a trailing newline, so a
 * git diff shows only what changed) and the content hashes changes are found by.
 */
import { createHash } from "node:crypto";
import { isObject } from "../core/json.js";

/** The lock file at the root of the tree. */
export const LOCK_FILE = "reduck.lock.json";
/** The contract's file in a script's folder. */
export const CONTRACT_FILE = "contract.json";
/** The code's file for each language. */
export const CODE_FILES = { javascript: "script.js", typescript: "script.ts" } as const;

export type ScriptLanguage = keyof typeof CODE_FILES;

/** A problem with the files, naming the file (or folder) it is in. */
export class ScriptFolderError extends Error {
  override name = "ScriptFolderError";
  constructor(
    /** The file or folder at fault, as given (relative to the tree's root when read from a tree). */
    readonly file: string,
    /** What is wrong and how to fix it. */
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
  }
}

/** A script's contract as `contract.json` holds it. */
export interface ScriptContractFile {
  name?: string;
  description: string;
  input_schema: Record<string, unknown>;
  output_schema: Record<string, unknown>;
  side_effects?: string;
  logged_in?: boolean;
  visibility?: string;
}

/** The keys of contract.json, in the order they are written. */
export const CONTRACT_KEYS = ["name", "description", "input_schema", "output_schema", "side_effects", "logged_in", "visibility"] as const;
export type ContractKey = (typeof CONTRACT_KEYS)[number];

const KEY_TYPES: Record<ContractKey, "string" | "object" | "boolean"> = {
  name: "string",
  description: "string",
  input_schema: "object",
  output_schema: "object",
  side_effects: "string",
  logged_in: "boolean",
  visibility: "string",
};
const REQUIRED: ContractKey[] = ["description", "input_schema", "output_schema"];

/**
 * contract.json's text: the keys in their fixed order (absent ones left out), schemas as given,
 * 2-space indent and a trailing newline.
 *
 * @example
 * contractText({ description: "Gets a title", input_schema: { type: "object" }, output_schema: { type: "object" } });
 */
export function contractText(contract: ScriptContractFile): string {
  const ordered: Record<string, unknown> = {};
  for (const key of CONTRACT_KEYS) if (contract[key] !== undefined) ordered[key] = contract[key];
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/**
 * Reads contract.json's text, or throws a ScriptFolderError naming `file`: not JSON, not an
 * object, a key it does not know, a value of the wrong type, a schema that is not an object.
 */
export function parseContract(text: string, file: string): ScriptContractFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ScriptFolderError(file, `not valid JSON (${(err as Error).message.replace(/\s+/g, " ").trim()})`);
  }
  if (!isObject(value)) throw new ScriptFolderError(file, "must hold a JSON object with description, input_schema and output_schema");
  for (const key of Object.keys(value)) {
    if (!(CONTRACT_KEYS as readonly string[]).includes(key)) {
      throw new ScriptFolderError(file, `unknown key ${JSON.stringify(key)} (a contract has ${CONTRACT_KEYS.join(", ")})`);
    }
  }
  for (const key of REQUIRED) if (value[key] === undefined) throw new ScriptFolderError(file, `${key} is missing`);
  for (const key of CONTRACT_KEYS) {
    const v = value[key];
    if (v === undefined) continue;
    const want = KEY_TYPES[key];
    const ok = want === "object" ? isObject(v) : typeof v === want;
    if (!ok) {
      const found = Array.isArray(v) ? "an array" : v === null ? "null" : `a ${typeof v}`;
      const what = want === "object" ? 'a JSON Schema object such as {"type": "object", "properties": {}}' : `a ${want}`;
      throw new ScriptFolderError(file, `${key} must be ${what}, found ${found}`);
    }
  }
  return value as unknown as ScriptContractFile;
}

/**
 * Lower-case hex SHA-256 of a text's UTF-8 bytes: what the lock records of each file.
 *
 * @example
 * contentHash("x"); // "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"
 */
export function contentHash(text: string | Uint8Array): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A handle as a folder name: `@user` or a project's handle. */
const HANDLE_FOLDER = /^@?[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;
/** A host as a folder name: letters, digits, `.`, `_`, `-`, not starting with a dot. */
const HOST_FOLDER = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,252}$/;
const SLUG_FOLDER = /^[a-z0-9_-]{1,64}$/;

/** The parts of a script's address, which are also its folder's path. */
export interface ScriptFolderAddress {
  handle: string;
  host: string;
  slug: string;
}

/** `handle/host/slug`. */
export const addressText = (a: ScriptFolderAddress) => `${a.handle}/${a.host}/${a.slug}`;

/**
 * Why an address cannot be a folder path (a part that could climb out of the tree, or that no
 * file system takes), or undefined when it can.
 *
 * @example
 * folderProblem({ handle: "@demo", host: "..", slug: "x" }); // "the host \"..\" cannot be a folder name"
 */
export function folderProblem(a: ScriptFolderAddress): string | undefined {
  if (!HANDLE_FOLDER.test(a.handle)) return `the handle ${JSON.stringify(a.handle)} cannot be a folder name`;
  if (!HOST_FOLDER.test(a.host)) return `the host ${JSON.stringify(a.host)} cannot be a folder name`;
  if (!SLUG_FOLDER.test(a.slug)) return `the slug ${JSON.stringify(a.slug)} is not a slug (a-z, 0-9, _ and -, 64 at most)`;
  return undefined;
}

/** The language a code file's name says, or undefined. */
export function languageOfFile(name: string): ScriptLanguage | undefined {
  return name === CODE_FILES.javascript ? "javascript" : name === CODE_FILES.typescript ? "typescript" : undefined;
}
