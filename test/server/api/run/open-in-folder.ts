/**
 * How the sandbox's paired browser opens a file named by `relativePath`: the description allows
 * only files inside the service folder, so a name (or a symbolic link on its way) that leads out
 * of it is refused. The sandbox's own code, not the client's: it opens first and then proves that
 * what it opened lies inside, so a name swapped for a link between a check and the open cannot
 * smuggle a file out.
 *
 * @example
 * ```ts
 * const opened = await openInFolder("/home/me/Desktop/reduck", "2026/invoice.pdf");
 * if (opened.ok) try { await opened.handle.read(...) } finally { await opened.handle.close() }
 * ```
 */
import { constants, lstat, open, readlink, realpath, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { SERVICE_FOLDER } from "../../contract/service-rules.js";

export type Opened = { ok: true; handle: FileHandle } | { ok: false; missing: boolean; problem: string };

const LEADS_OUT = `it leads outside the ${SERVICE_FOLDER} folder through a symbolic link`;
const CHANGED = "it changed while it was being opened; try again";
// Non-blocking so that a FIFO cannot hang the open; never a controlling terminal.
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

const refuse = (problem: string): Opened => ({ ok: false, missing: false, problem });
const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);

function inside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel !== "" && !path.isAbsolute(rel) && rel.split(path.sep)[0] !== "..";
}

/** Opens `<folder>/<relativePath>` (a name already found plain) if it is a regular, singly linked file inside. */
export async function openInFolder(folder: string, relativePath: string): Promise<Opened> {
  const root = await realpath(folder).catch(() => undefined);
  if (root === undefined) return { ok: false, missing: true, problem: `there is no ${SERVICE_FOLDER} folder` };
  const parts = relativePath.split("/");
  let handle: FileHandle;
  try {
    handle = await open(path.join(root, ...parts), FLAGS);
  } catch (error) {
    const code = codeOf(error);
    if (code === "ENOENT" || code === "ENOTDIR") return explainMissing(root, parts);
    return refuse(code === "ELOOP" ? "it is a loop of symbolic links" : `it cannot be read (${code})`);
  }
  const verdict = await check(handle, root, path.join(root, ...parts)).catch((error) =>
    refuse(codeOf(error) === "ENOENT" ? CHANGED : `it cannot be read (${codeOf(error)})`),
  );
  if (!verdict.ok) await handle.close().catch(() => undefined);
  return verdict;
}

async function check(handle: FileHandle, root: string, name: string): Promise<Opened> {
  const info = await handle.stat({ bigint: true });
  const where = await whereOpened(handle, name, info);
  if (where === undefined) return refuse(CHANGED);
  if (!inside(root, where)) return refuse(LEADS_OUT);
  if (!info.isFile()) return refuse("it is not a regular file");
  // A hard link to a file outside cannot be told from a file inside: the browser would read it.
  if (info.nlink > 1n) return refuse(`it has ${info.nlink} hard links, so it may be a file from outside the folder: put a copy of it in the folder instead`);
  return { ok: true, handle };
}

/** Where the opened file lies: the kernel's word on Linux, else the name's real path if it is still that file. */
async function whereOpened(handle: FileHandle, name: string, info: { dev: bigint; ino: bigint }): Promise<string | undefined> {
  if (process.platform === "linux") {
    const target = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    if (target !== undefined) return target.endsWith(" (deleted)") ? undefined : target;
  }
  const real = await realpath(name);
  const now = await lstat(real, { bigint: true });
  return now.dev === info.dev && now.ino === info.ino && (await realpath(name)) === real ? real : undefined;
}

/** Nothing opened: plainly absent, or a link on the way that leads out of the folder or to nothing. */
async function explainMissing(root: string, parts: string[]): Promise<Opened> {
  let at = root;
  for (const part of parts) {
    const next = path.join(at, part);
    const info = await lstat(next).catch(() => undefined);
    if (!info) break;
    if (!info.isSymbolicLink()) {
      at = next;
      continue;
    }
    const target = await realpath(next).catch(() => undefined);
    if (target === undefined) return refuse("it is a symbolic link to nothing: a link must lead to a file inside the folder");
    if (!inside(root, target)) return refuse(LEADS_OUT);
    at = target;
  }
  return { ok: false, missing: true, problem: `no such file in the ${SERVICE_FOLDER} folder` };
}
