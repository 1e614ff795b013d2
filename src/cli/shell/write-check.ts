/**
 * Checking, before the first request, that what a command will write after the service has acted
 * can be written: a folder it will create files in, a file it will write. A write that fails once
 * the service has acted leaves a user with work done and nothing to show for it (an installed app
 * no flock.json names, a run whose screenshots went nowhere), and a retry does the work again.
 *
 * Nothing is written by a check: a folder that does not exist yet is judged by the nearest one
 * that does (it must be a folder this process may create entries in).
 */
import { constants } from "node:fs";
import { access, mkdir, stat } from "node:fs/promises";
import path from "node:path";
import { usageError } from "./errors.js";

type Found = { kind: "folder" | "other"; at: string } | { kind: "missing" } | { kind: "refused"; at: string; code: string };

async function look(at: string): Promise<Found> {
  try {
    return { kind: (await stat(at)).isDirectory() ? "folder" : "other", at };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "error";
    // ENOTDIR: a file on the way, which the walk up to it names.
    return code === "ENOENT" || code === "ENOTDIR" ? { kind: "missing" } : { kind: "refused", at, code };
  }
}

const CHOOSE = "choose a folder you can write to";

/**
 * Why no file can be created in `dir`, with what to do, or undefined when one can. A missing
 * `dir` is judged by the nearest folder that exists (it will be made) when `mayBeMade`, else is
 * the problem.
 */
async function folderProblem(dir: string, mayBeMade = true): Promise<string | undefined> {
  let at = dir;
  for (;;) {
    const found = await look(at);
    if (found.kind === "missing" && !mayBeMade) return `the folder ${dir} does not exist: make it first`;
    if (found.kind === "refused") return `${found.at} cannot be reached (${found.code}): ${CHOOSE}`;
    if (found.kind === "other") return `${at === dir ? dir : `${dir} cannot be made: ${at}`} is a file, not a folder: ${CHOOSE}`;
    if (found.kind === "folder") {
      const ok = await access(at, constants.W_OK | constants.X_OK).then(
        () => true,
        (err: NodeJS.ErrnoException) => err.code ?? "error",
      );
      if (ok === true) return undefined;
      return `${at === dir ? "" : `${dir} cannot be made: `}no file can be created in ${at} (${ok}): ${CHOOSE}`;
    }
    const parent = path.dirname(at);
    if (parent === at) return `${dir} cannot be made: ${CHOOSE}`;
    at = parent;
  }
}

/**
 * Checks that files can be created in `dir`, or that it can be made; nothing is written. A usage
 * error (exit 2) starting with `what` (the flag and what was given) otherwise. Returns the
 * absolute path.
 *
 * @example
 * const shots = await checkFolderToWrite(expandHome(flags.screenshots), `--screenshots ${flags.screenshots}`);
 */
export async function checkFolderToWrite(dir: string, what: string): Promise<string> {
  const absolute = path.resolve(dir);
  const problem = await folderProblem(absolute);
  if (problem) throw usageError(`${what}: ${problem}`);
  return absolute;
}

/**
 * Makes `dir` (and its parents) unless it exists, after checking that files can be created in it.
 * A usage error (exit 2) starting with `what` when they cannot. Returns the absolute path.
 *
 * @example
 * const dir = await prepareFolder(folderOf(flags.dir), `--dir ${flags.dir}`);
 */
export async function prepareFolder(dir: string, what: string): Promise<string> {
  const absolute = await checkFolderToWrite(dir, what);
  try {
    await mkdir(absolute, { recursive: true });
  } catch (err) {
    throw usageError(`${what}: ${absolute} cannot be made (${(err as NodeJS.ErrnoException).code ?? String(err)}): ${CHOOSE}`);
  }
  return absolute;
}

/**
 * Checks that `file` can be written: its folder exists and takes new files, and the file, if it
 * is there already, is a file this process may write. Nothing is written. A usage error (exit 2)
 * starting with `what` otherwise. Returns the absolute path.
 *
 * @example
 * const out = await checkFileToWrite(path.resolve(flags.out), `--out ${flags.out}`);
 */
export async function checkFileToWrite(file: string, what: string): Promise<string> {
  const absolute = path.resolve(file);
  const found = await look(absolute);
  if (found.kind === "folder") throw usageError(`${what}: ${absolute} is a folder: give a file's name`);
  if (found.kind === "refused") throw usageError(`${what}: ${absolute} cannot be reached (${found.code}): choose a file you can write`);
  if (found.kind === "other") {
    const writable = await access(absolute, constants.W_OK).then(
      () => true,
      (err: NodeJS.ErrnoException) => err.code ?? "error",
    );
    if (writable !== true) throw usageError(`${what}: ${absolute} cannot be written (${writable}): choose a file you can write`);
  }
  const problem = await folderProblem(path.dirname(absolute), false);
  if (problem) throw usageError(`${what}: ${problem}`);
  return absolute;
}
