/**
 * The service folder on the desktop (`~/Desktop/reduck`), where the agent tool's files live.
 * Names are checked with the shared relativePath rule, then opened race-free inside the folder
 * (src/run/inside-folder.ts) so a symbolic link cannot lead outside it.
 */
import path from "node:path";
import type { FileHandle } from "node:fs/promises";
import { openInsideFolder } from "../../run/inside-folder.js";
import { RELATIVE_PATH_MESSAGE, SERVICE_FOLDER } from "../../run/relative-path.js";
import { currentSystem, desktopDir, desktopPermissionProblem } from "../../system/paths.js";

/** `<desktop>/reduck`; the desktop rules (REDUCK_DESKTOP, XDG, OneDrive) are in system/paths. */
export function serviceFolder(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(desktopDir({ ...currentSystem(), env }), SERVICE_FOLDER);
}

export type NamedFileCheck =
  /** `file` is undefined when nothing is there (the browser, or the upload, reports it). */
  { ok: true; file: { handle: FileHandle; size: number; realPath: string } | undefined } | { ok: false; message: string };

/**
 * Opens a named file inside the folder, or says why not. When `file` is given, the caller
 * reads only from its handle (never the path again) and closes it.
 */
export async function checkNamedFile(folder: string, relativePath: unknown): Promise<NamedFileCheck> {
  const opened = await openInsideFolder(folder, relativePath);
  if (opened.ok) return { ok: true, file: opened };
  const denied = desktopPermissionProblem(opened.code, folder);
  if (denied) return { ok: false, message: denied };
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
