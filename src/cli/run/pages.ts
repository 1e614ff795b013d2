/**
 * The HTML pages the CLI writes (`runs trace --html`, `batch --report`, `batch report`): where
 * they go, checked before anything is read or run, and written whole or not at all. Opening one
 * is open-page.ts's, loaded only by `--open` (it needs child_process, which no other command loads).
 */
import { mkdtemp, rename, rm, stat, writeFile } from "node:fs/promises";
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

/** Writes a page whole: into a new file beside it, then renamed over it, so no reader ever sees half a page. */
export async function writePage(file: string, html: string): Promise<void> {
  const partial = `${file}.${process.pid}.partial`;
  try {
    await writeFile(partial, html, { mode: 0o644 });
    await rename(partial, file);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
}

/** A file for a page in a new folder of the system's temporary folder (kept: the browser reads it after we exit). */
export async function temporaryPage(name: string): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), "reduck-page-"));
  return path.join(folder, name);
}
