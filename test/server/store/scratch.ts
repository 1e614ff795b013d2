// Each store's own temporary folder: the parts of a run in progress (kept for the real browser) and
// the screenshots its runs' traces refer to. Made on first use, removed when the process exits (or,
// in the tests, when a test file ends), so nothing of a sandbox is left behind in the temporary folder.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const folders = new WeakMap<object, string>();
const made = new Set<string>();

/**
 * The store's folder.
 *
 * @example
 * const parts = await mkdtemp(path.join(scratchFolder(store), "parts-"));
 */
export function scratchFolder(store: object): string {
  let folder = folders.get(store);
  if (!folder) {
    if (made.size === 0) process.once("exit", removeScratchFolders);
    folder = mkdtempSync(path.join(os.tmpdir(), "reduck-sandbox-"));
    folders.set(store, folder);
    made.add(folder);
  }
  return folder;
}

/** Removes every store's folder (their stores' runs lose their screenshots). */
export function removeScratchFolders(): void {
  for (const folder of made) rmSync(folder, { recursive: true, force: true });
  made.clear();
}
