/**
 * The service folder on the desktop (`~/Desktop/reduck`), where the agent tool's files live.
 * Names are checked with the shared relativePath rule, then resolved on disk so a symbolic
 * link cannot lead outside the folder.
 */
import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { currentSystem, desktopDir, desktopPermissionProblem } from "../system/paths.js";
import { relativePathProblem, RELATIVE_PATH_MESSAGE, SERVICE_FOLDER } from "../run/relative-path.js";

/** `<desktop>/reduck`; the desktop rules (REDUCK_DESKTOP, XDG, OneDrive) are in system/paths. */
export function serviceFolder(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(desktopDir({ ...currentSystem(), env }), SERVICE_FOLDER);
}

export type NamedFileCheck =
  | { ok: true; absolutePath: string; exists: boolean }
  | { ok: false; message: string };

export async function checkNamedFile(folder: string, relativePath: unknown): Promise<NamedFileCheck> {
  const problem = relativePathProblem(relativePath);
  if (problem) return { ok: false, message: problem };
  const name = relativePath as string;
  const candidate = path.join(folder, ...name.split("/"));
  let realFolder: string;
  let realFile: string;
  try {
    realFolder = await realpath(folder);
    realFile = await realpath(candidate);
  } catch (err) {
    const denied = desktopPermissionProblem((err as NodeJS.ErrnoException).code, folder);
    if (denied) return { ok: false, message: denied };
    // Nothing there (or no folder): not an escape. The browser, or the upload, reports it.
    return { ok: true, absolutePath: candidate, exists: false };
  }
  if (realFile !== realFolder && !realFile.startsWith(realFolder + path.sep)) {
    return { ok: false, message: `${RELATIVE_PATH_MESSAGE} (${JSON.stringify(name)} is a link that leads outside it)` };
  }
  const info = await stat(realFile);
  return { ok: true, absolutePath: realFile, exists: info.isFile() };
}
