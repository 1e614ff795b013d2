/**
 * The HTML pages the CLI writes (`runs trace --html`, `batch --report`, `batch report`): where
 * they go, checked before anything is read or run, and written whole or not at all. Opening one
 * is open-page.ts's, loaded only by `--open` (it needs child_process, which no other command loads).
 */
import { mkdtemp, open, rename, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { usageError } from "../shell/errors.js";
import { checkFileToWrite } from "../shell/write-check.js";

/**
 * A page's file as given after `flag`, checked before acting as every file a command writes is
 * (checkFileToWrite: in a folder that exists and takes it, not a folder), and none of `keep` (the command's own input or results, which a page must never
 * replace). Another existing file is replaced (the name was given for this).
 *
 * @example
 * const file = await checkPageFile("~/run.html", "--html"); // "/home/ada/run.html"
 * await checkPageFile("people.results.jsonl", "--html", [["/home/ada/people.results.jsonl", "the results file"]]); // refused
 */
export async function checkPageFile(file: string, flag: string, keep: ReadonlyArray<readonly [string, string]> = []): Promise<string> {
  // The checks every file a command writes gets (a folder that exists and takes it, not a folder itself).
  const target = await checkFileToWrite(file, `${flag} ${file}`);
  const info = await stat(target).catch(() => undefined);
  for (const [other, what] of keep) {
    const same =
      path.resolve(other) === target ||
      (info !== undefined &&
        (await stat(other).then(
          (o) => o.ino === info.ino && o.dev === info.dev,
          () => false,
        )));
    if (same) throw usageError(`${flag} ${file} is ${what}: the page would replace it; give another file name, such as report.html`);
  }
  return target;
}

/** How many `.partial` names a page tries before giving up (each taken by something else). */
export const PARTIAL_NAMES = 10;

/** The `.partial` names a page for `file` may be written into first, in the order they are tried. */
export function partialNames(file: string, pid = process.pid): string[] {
  return Array.from({ length: PARTIAL_NAMES }, (_, i) => `${file}.${pid}${i ? `.${i}` : ""}.partial`);
}

/**
 * Writes a page whole: into a new file beside it, then renamed over it, so no reader ever sees
 * half a page. The new file is created exclusively ("wx": never an existing file, nor through a
 * link planted under its name in a folder others can write), trying the next name when one is taken.
 */
export async function writePage(file: string, html: string): Promise<void> {
  for (const partial of partialNames(file)) {
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(partial, "wx", 0o644);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw err;
    }
    try {
      await handle.writeFile(html);
      await handle.close();
      await rename(partial, file);
      return;
    } catch (err) {
      await handle.close().catch(() => undefined);
      await rm(partial, { force: true });
      throw err;
    }
  }
  throw usageError(
    `${file}: every name for its temporary copy (${path.basename(partialNames(file)[0]!)} and ${PARTIAL_NAMES - 1} more) is taken in ${path.dirname(file)}; remove those files, or write the page elsewhere`,
  );
}

/** A file for a page in a new folder of the system's temporary folder (kept: the browser reads it after we exit). */
export async function temporaryPage(name: string): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), "reduck-page-"));
  return path.join(folder, name);
}
