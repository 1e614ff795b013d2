/**
 * reduck.lock.json: for each script of the tree, the version its files were pulled from (or last
 * pushed as, marked as a draft until this CLI promotes it) and the SHA-256 of each file as written then. Written whole through a temporary
 * file renamed over it, so a push stopped at any moment leaves either the old lock or the new
 * one, never half of one. Read strictly: a torn file or one edited by hand (anything other than
 * the exact text this module writes) is refused, naming the file and how to recover.
 */
import { readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { isObject } from "../core/json.js";
import { isIdOf } from "../core/id-shapes.js";
import { LOCK_FILE, ScriptFolderError, folderProblem } from "./layout.js";

/** What the lock records of one script. */
export interface LockEntry {
  /** The version the files stand on: the one pulled, or the draft last pushed. */
  versionId: string;
  versionNumber: number;
  /** SHA-256 of the code file as written; null when the service withheld the code. */
  codeHash: string | null;
  /** SHA-256 of contract.json as written. */
  contractHash: string;
  /**
   * Present (true) when the version is a draft pushed from here and not promoted by this CLI since:
   * the service may have promoted it another way (its web page), which only the service can say.
   */
  draft?: true;
}

export interface ScriptLock {
  lockVersion: 1;
  /** By address, `handle/host/slug`. */
  scripts: Record<string, LockEntry>;
}

const HASH = /^[0-9a-f]{64}$/;
const ENTRY_KEYS = ["codeHash", "contractHash", "versionId", "versionNumber"];
// Written only when true, so a lock with no unpromoted draft reads as it did before the key existed.
const DRAFT_KEYS = ["codeHash", "contractHash", "draft", "versionId", "versionNumber"];

/**
 * The lock's text: keys sorted, 2-space indent, a trailing newline.
 *
 * @example
 * lockText({ lockVersion: 1, scripts: {} }); // '{\n  "lockVersion": 1,\n  "scripts": {}\n}\n'
 */
export function lockText(lock: ScriptLock): string {
  const scripts: Record<string, LockEntry> = {};
  for (const address of Object.keys(lock.scripts).sort()) {
    const e = lock.scripts[address]!;
    scripts[address] = {
      codeHash: e.codeHash,
      contractHash: e.contractHash,
      ...(e.draft ? { draft: true } : {}),
      versionId: e.versionId,
      versionNumber: e.versionNumber,
    };
  }
  return `${JSON.stringify({ lockVersion: 1, scripts }, null, 2)}\n`;
}

/**
 * The tree's lock: an empty one when the file is absent; a ScriptFolderError naming the file
 * (relative to the root, as every problem with a tree) when it is torn, of another lockVersion, or not as this module writes it.
 *
 * @example
 * const lock = await readLock("./scripts");
 */
export async function readLock(root: string): Promise<ScriptLock> {
  const file = path.join(root, LOCK_FILE);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { lockVersion: 1, scripts: {} };
    throw new ScriptFolderError(LOCK_FILE, `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return parseLock(text, LOCK_FILE);
}

const RECOVER = "restore it from git (git checkout -- reduck.lock.json), or pull again with --force";

/** The lock's text read strictly (see readLock). */
export function parseLock(text: string, file: string = LOCK_FILE): ScriptLock {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ScriptFolderError(file, `is not valid JSON (torn, or a merge left conflict markers): ${RECOVER}`);
  }
  if (!isObject(value) || value.lockVersion !== 1 || !isObject(value.scripts)) {
    throw new ScriptFolderError(file, `is not a lock this CLI writes (expected {"lockVersion": 1, "scripts": {...}}): ${RECOVER}`);
  }
  for (const [address, entry] of Object.entries(value.scripts)) {
    const [handle = "", host = "", slug = "", ...rest] = address.split("/");
    const problem = rest.length > 0 ? "is not handle/host/slug" : (folderProblem({ handle, host, slug }) ?? entryProblem(entry));
    if (problem) throw new ScriptFolderError(file, `the entry ${JSON.stringify(address)} ${problem}: ${RECOVER}`);
  }
  const lock = value as unknown as ScriptLock;
  if (lockText(lock) !== text) throw new ScriptFolderError(file, `was edited by hand (it is not as the CLI writes it): ${RECOVER}`);
  return lock;
}

function entryProblem(entry: unknown): string | undefined {
  if (!isObject(entry)) return "is not an object";
  const keys = Object.keys(entry).sort();
  if (keys.join() !== ENTRY_KEYS.join() && keys.join() !== DRAFT_KEYS.join()) return `must have exactly ${ENTRY_KEYS.join(", ")} (and draft: true for a draft)`;
  if ("draft" in entry && entry.draft !== true) return "has a draft that is not true";
  if (!isIdOf("version id", entry.versionId)) return "has a versionId that is not a version id";
  if (!Number.isInteger(entry.versionNumber) || (entry.versionNumber as number) < 1) return "has a versionNumber that is not a whole number from 1";
  if (entry.codeHash !== null && !(typeof entry.codeHash === "string" && HASH.test(entry.codeHash))) return "has a codeHash that is not a SHA-256";
  if (!(typeof entry.contractHash === "string" && HASH.test(entry.contractHash))) return "has a contractHash that is not a SHA-256";
  return undefined;
}

/**
 * Writes the lock whole: a temporary file beside it, renamed over it.
 *
 * @example
 * await writeLock("./scripts", lock);
 */
export async function writeLock(root: string, lock: ScriptLock): Promise<void> {
  const file = path.join(root, LOCK_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, lockText(lock));
  await rename(temporary, file);
}
