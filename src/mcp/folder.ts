/**
 * The service folder on the desktop (`~/Desktop/reduck`), where the agent tool's files live.
 * Names are checked with the shared relativePath rule, then opened race-free inside the folder
 * (src/run/inside-folder.ts) so a symbolic link cannot lead outside it.
 */
import os from "node:os";
import path from "node:path";
import type { FileHandle } from "node:fs/promises";
import { openInsideFolder } from "../run/inside-folder.js";
import { RELATIVE_PATH_MESSAGE, SERVICE_FOLDER } from "../run/relative-path.js";

/** `$REDUCK_DESKTOP/reduck`, by default `~/Desktop/reduck`. */
export function serviceFolder(env: NodeJS.ProcessEnv = process.env): string {
  const desktop = env.REDUCK_DESKTOP || path.join(os.homedir(), "Desktop");
  return path.join(desktop, SERVICE_FOLDER);
}

export type NamedFileCheck =
  /** `file` is undefined when nothing is there (the browser, or the upload, reports it). */
  | { ok: true; file: { handle: FileHandle; size: number; realPath: string } | undefined }
  | { ok: false; message: string };

/**
 * Opens a named file inside the folder, or says why not. When `file` is given, the caller
 * reads only from its handle (never the path again) and closes it.
 */
export async function checkNamedFile(folder: string, relativePath: unknown): Promise<NamedFileCheck> {
  const opened = await openInsideFolder(folder, relativePath);
  if (opened.ok) return { ok: true, file: opened };
  const name = JSON.stringify(relativePath);
  switch (opened.reason) {
    case "missing":
      return { ok: true, file: undefined };
    case "name":
      return { ok: false, message: opened.problem };
    case "outside":
      return { ok: false, message: `${RELATIVE_PATH_MESSAGE} (${name}: ${opened.problem})` };
    case "unusable":
      return { ok: false, message: `${name} in ${folder} can't be used: ${opened.problem}` };
  }
}
