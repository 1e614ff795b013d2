/**
 * Opening a file named by `relativePath` inside the reduck folder, race-free: shared by the
 * agent tool (which uploads it for a managed browser) and the reference server (which reads it
 * as the paired browser would).
 *
 * Checking a path and then opening it is a race: between the two, the name can be swapped for
 * a symbolic link to a file outside. So the file is opened first, and then what was opened is
 * proven to lie inside the folder; only that open handle is read afterwards.
 */
import { constants, lstat, open, readlink, realpath, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { relativePathProblem, SERVICE_FOLDER } from "./relative-path.js";

export type InsideFolder =
  | {
      ok: true;
      /** Read only from this handle; the caller closes it. */
      handle: FileHandle;
      size: number;
      /** Where the file really is (for messages; never open it again by this path). */
      realPath: string;
    }
  | {
      ok: false;
      /**
       * `name`: refused by the relativePath rule (`problem` is that rule's message);
       * `missing`: nothing is there (not an escape: a browser reading the name will say so);
       * `outside`: a link out of the folder, or to nothing; `unusable`: not a regular file,
       * hard-linked, unreadable, or changed while being opened.
       */
      reason: "name" | "missing" | "outside" | "unusable";
      /** Why, as a clause: "it leads outside the reduck folder through a symbolic link". */
      problem: string;
      /** The system's code when the file system refused (EACCES, EPERM...). */
      code?: string;
    };

// Non-blocking, so naming a FIFO cannot hang the open; no controlling terminal from a tty.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

const refused = (problem: string, reason: "outside" | "unusable" = "unusable", code?: string): InsideFolder =>
  code ? { ok: false, reason, problem, code } : { ok: false, reason, problem };
const LEADS_OUT = `it leads outside the ${SERVICE_FOLDER} folder through a symbolic link`;
const CHANGED = "it changed while it was being opened; try again";

/**
 * Opens `<folder>/<relativePath>` for reading if, and only if, what was opened is a regular
 * file inside `folder` (symbolic links are followed only while they stay inside) with a single
 * link. Never throws.
 *
 * Hard links: a file with more than one link is refused, since a hard link to a file outside
 * the folder cannot be told apart from a file inside it.
 *
 * @example
 * const file = await openInsideFolder("/home/me/Desktop/reduck", "2026/invoice.pdf");
 * if (file.ok) try { await file.handle.read(...) } finally { await file.handle.close() }
 */
export async function openInsideFolder(folder: string, relativePath: unknown): Promise<InsideFolder> {
  const nameProblem = relativePathProblem(relativePath);
  if (nameProblem) return { ok: false, reason: "name", problem: nameProblem };
  const segments = (relativePath as string).split("/");
  let root: string;
  try {
    root = await realpath(folder);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EACCES" || code === "EPERM") return refused(`it cannot be read (${code})`, "unusable", code);
    return { ok: false, reason: "missing", problem: `there is no ${SERVICE_FOLDER} folder at ${folder}` };
  }
  const candidate = path.join(root, ...segments);

  let handle: FileHandle;
  try {
    handle = await open(candidate, OPEN_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return whyMissing(root, segments);
    if (code === "ELOOP") return refused("it is a loop of symbolic links", "outside");
    return refused(`it cannot be read (${code ?? String(err)})`, "unusable", code);
  }

  let verdict: InsideFolder;
  try {
    verdict = await verify(handle, root, candidate);
  } catch (err) {
    // Whatever moved under us (the file removed between the open and the checks...).
    const code = (err as NodeJS.ErrnoException).code;
    verdict = refused(code === "ENOENT" ? CHANGED : `it cannot be read (${code ?? String(err)})`);
  }
  if (!verdict.ok) await handle.close().catch(() => undefined);
  return verdict;
}

async function verify(handle: FileHandle, root: string, candidate: string): Promise<InsideFolder> {
  const opened = await handle.stat({ bigint: true });
  const where = await openedPath(handle, candidate, opened);
  if (where === undefined) return refused(CHANGED);
  if (!isInside(root, where)) return refused(LEADS_OUT, "outside");
  if (!opened.isFile()) return refused("it is not a regular file");
  if (opened.nlink > 1n) {
    return refused(`it has ${opened.nlink} hard links, so it may be a file from outside the folder: put a copy of it in the folder instead`);
  }
  return { ok: true, handle, size: Number(opened.size), realPath: where };
}

/**
 * Where the open file really is. On Linux the kernel says so (`/proc/self/fd/N`), which no
 * later swap can change. Elsewhere: the real path of the name after opening, accepted only if
 * the entry there (not following a link) is the very file that was opened, and the name still
 * resolves the same way after that check. Undefined when the file moved meanwhile.
 */
async function openedPath(handle: FileHandle, candidate: string, opened: { dev: bigint; ino: bigint }): Promise<string | undefined> {
  if (process.platform === "linux") {
    const linked = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    if (linked !== undefined) return linked.endsWith(" (deleted)") ? undefined : linked;
  }
  const real = await realpath(candidate);
  const there = await lstat(real, { bigint: true });
  if (there.dev !== opened.dev || there.ino !== opened.ino) return undefined;
  return (await realpath(candidate)) === real ? real : undefined;
}

/** Nothing could be opened: plainly missing, or a link that leads out or nowhere. */
async function whyMissing(root: string, segments: string[]): Promise<InsideFolder> {
  const missing: InsideFolder = { ok: false, reason: "missing", problem: `no such file in the ${SERVICE_FOLDER} folder` };
  let current = root;
  for (const segment of segments) {
    const next = path.join(current, segment);
    const info = await lstat(next).catch(() => undefined);
    if (!info) return missing;
    if (!info.isSymbolicLink()) {
      current = next;
      continue;
    }
    // A dangling link is refused too: whatever later appears at its target, anywhere, would be read.
    const target = await realpath(next).catch(() => undefined);
    if (target === undefined) return refused("it is a symbolic link to nothing: a link must lead to a file inside the folder", "outside");
    if (!isInside(root, target)) return refused(LEADS_OUT, "outside");
    current = target;
  }
  return missing;
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative !== "" && relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}
