/**
 * What was pulled, kept by content hash outside the tree (in the CLI's config folder): the lock
 * records only hashes, so that status can name the contract fields changed and diff can show the
 * code as it was, offline. A file here is read only when its bytes still hash to its name.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { contentHash } from "./layout.js";

/**
 * Keeps `text` under its hash in `store`.
 *
 * @example
 * await keepBase(store, "return 1;");
 */
export async function keepBase(store: string, text: string): Promise<void> {
  const hash = contentHash(text);
  await mkdir(store, { recursive: true });
  const file = path.join(store, hash);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, file);
}

/**
 * The text kept under `hash`, or undefined when it is not kept (another machine pulled) or its
 * bytes no longer match.
 *
 * @example
 * const before = await readBase(store, lock.scripts[address].contractHash);
 */
export async function readBase(store: string | undefined, hash: string | null | undefined): Promise<string | undefined> {
  if (!store || !hash || !/^[0-9a-f]{64}$/.test(hash)) return undefined;
  const text = await readFile(path.join(store, hash), "utf8").catch(() => undefined);
  return text !== undefined && contentHash(text) === hash ? text : undefined;
}
