/**
 * Opening a file inside a folder, race-free, with one rule for symbolic links: followed while
 * they stay inside the folder, refused when they lead out of it. Shared by the agent tool (a file
 * named by `relativePath` inside the reduck folder, uploaded for a managed browser) and by
 * `deployApp` (every file of an app folder, hashed and then uploaded).
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
       * `name`: refused by the relativePath rule (openInsideFolder only) (`problem` is that rule's message);
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
const CHANGED = "it changed while it was being opened; try again";

/** The folder a file must stay in, as messages name it: "reduck folder", "app folder". */
const REDUCK_FOLDER = `${SERVICE_FOLDER} folder`;

/**
 * Why a symbolic link out of `folder` is refused, and how to include its file instead: the one
 * wording for every folder whose files leave this machine.
 *
 * @example
 * leadsOutside("app folder"); // "it leads outside the app folder through a symbolic link: copy the file into the folder instead of linking to it"
 */
export function leadsOutside(folder: string): string {
  return `it leads outside the ${folder} through a symbolic link: copy the file into the folder instead of linking to it`;
}

/** A symbolic link whose target does not exist. */
export const LINK_TO_NOTHING = "it is a symbolic link to nothing: a link must lead to a file inside the folder";
/** Symbolic links that lead back to where they are. */
export const LINK_LOOP = "it is a loop of symbolic links";

/**
 * Opens `<folder>/<relativePath>` for reading if, and only if, `relativePath` passes the
 * relativePath rule and what was opened is a regular file inside `folder` (see `openFileInside`).
 * Never throws.
 *
 * @example
 * const file = await openInsideFolder("/home/me/Desktop/reduck", "2026/invoice.pdf");
 * if (file.ok) try { await file.handle.read(...) } finally { await file.handle.close() }
 */
export async function openInsideFolder(folder: string, relativePath: unknown): Promise<InsideFolder> {
  const nameProblem = relativePathProblem(relativePath);
  if (nameProblem) return { ok: false, reason: "name", problem: nameProblem };
  return openFileInside(folder, relativePath as string, REDUCK_FOLDER);
}

/**
 * Opens `<folder>/<name>` (`name`: its path in the folder, `/` between folders, already checked
 * by the caller's naming rule) for reading if, and only if, what was opened is a regular file
 * inside `folder` (symbolic links are followed only while they stay inside) with a single link.
 * `folderName` is how messages name the folder ("app folder"). Never throws.
 *
 * Hard links: a file with more than one link is refused, since a hard link to a file outside
 * the folder cannot be told apart from a file inside it.
 *
 * @example
 * const file = await openFileInside("./my-app", "assets/logo.png", "app folder");
 * if (!file.ok) console.error(`assets/logo.png: ${file.problem}`);
 */
export async function openFileInside(folder: string, name: string, folderName: string): Promise<InsideFolder> {
  const segments = name.split("/");
  let root: string;
  try {
    root = await realpath(folder);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EACCES" || code === "EPERM") return refused(`it cannot be read (${code})`, "unusable", code);
    return { ok: false, reason: "missing", problem: `there is no ${folderName} at ${folder}` };
  }
  const candidate = path.join(root, ...segments);

  let handle: FileHandle;
  try {
    handle = await open(candidate, OPEN_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return whyMissing(root, segments, folderName);
    if (code === "ELOOP") return refused(LINK_LOOP, "outside");
    return refused(`it cannot be read (${code ?? String(err)})`, "unusable", code);
  }

  let verdict: InsideFolder;
  try {
    verdict = await verify(handle, root, candidate, folderName);
  } catch (err) {
    // Whatever moved under us (the file removed between the open and the checks...).
    const code = (err as NodeJS.ErrnoException).code;
    verdict = refused(code === "ENOENT" ? CHANGED : `it cannot be read (${code ?? String(err)})`);
  }
  if (!verdict.ok) await handle.close().catch(() => undefined);
  return verdict;
}

async function verify(handle: FileHandle, root: string, candidate: string, folderName: string): Promise<InsideFolder> {
  const opened = await handle.stat({ bigint: true });
  const where = await openedPath(handle, candidate, opened);
  if (where === undefined) return refused(CHANGED);
  if (!isInside(root, where)) return refused(leadsOutside(folderName), "outside");
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
async function whyMissing(root: string, segments: string[], folderName: string): Promise<InsideFolder> {
  const missing: InsideFolder = { ok: false, reason: "missing", problem: `no such file in the ${folderName}` };
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
    if (target === undefined) return refused(LINK_TO_NOTHING, "outside");
    if (!isInside(root, target)) return refused(leadsOutside(folderName), "outside");
    current = target;
  }
  return missing;
}

/**
 * True when `candidate` lies strictly inside `root` (both real paths).
 *
 * @example
 * isInside("/home/me/app", "/home/me/app/front.jsx"); // true
 * isInside("/home/me/app", "/home/me/.ssh/id_ed25519"); // false
 */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative !== "" && relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}
