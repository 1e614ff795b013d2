/**
 * The HTML pages the CLI writes (`runs trace --html`, `batch --report`, `batch report`): where
 * they go, checked before anything is read or run, written whole or not at all, and opened in the
 * user's browser as `gh` opens one: `$BROWSER` when set, else the system's opener.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rename, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { usageError } from "../shell/errors.js";

/**
 * A page's file as given after `flag`, checked before acting: not a folder, in a folder that
 * exists. An existing file is replaced (the name was given for this).
 *
 * @example
 * const file = await checkPageFile("~/run.html", "--html"); // "/home/ada/run.html"
 */
export async function checkPageFile(file: string, flag: string): Promise<string> {
  const target = path.resolve(file);
  const info = await stat(target).catch((err: NodeJS.ErrnoException) => (err.code === "ENOENT" ? undefined : err));
  if (info instanceof Error) throw usageError(`${flag} ${file}: cannot use it (${info.code ?? info.message})`);
  if (info?.isDirectory()) throw usageError(`${flag} ${file}: it is a folder; give a file name such as ${path.join(file, "page.html")}`);
  const folder = await stat(path.dirname(target)).catch(() => undefined);
  if (!folder?.isDirectory()) throw usageError(`${flag} ${file}: the folder ${path.dirname(target)} does not exist`);
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

/**
 * `$BROWSER`'s words as a shell would split them (quotes and backslashes), as `gh` reads it.
 *
 * @example
 * shellWords(`'/opt/My Browser/run' --new-window`); // ["/opt/My Browser/run", "--new-window"]
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let started = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === "\\" && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      started = true;
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[++i];
      started = true;
    } else if (/\s/.test(c)) {
      if (started) words.push(word);
      word = "";
      started = false;
    } else {
      word += c;
      started = true;
    }
  }
  if (started) words.push(word);
  return words;
}

/** The command that opens a URL on this system when `$BROWSER` is not set (what `gh` runs). */
function systemOpener(url: string): [string, string[]] {
  if (process.platform === "darwin") return ["open", [url]];
  if (process.platform === "win32") return ["rundll32", ["url.dll,FileProtocolHandler", url]];
  return ["xdg-open", [url]];
}

/**
 * Opens a page in the user's browser: `$BROWSER` (split into words, the page's `file://` URL
 * added) when set, else `xdg-open`, `open` or Windows' own opener. Waits for that command to end,
 * as `gh` does. Resolves to why it could not, or undefined; never throws (the page is written
 * either way).
 *
 * @example
 * const problem = await openPage("/tmp/reduck-page-x/run.html");
 * if (problem) console.error(`could not open a browser (${problem}): open /tmp/... yourself`);
 */
export function openPage(file: string): Promise<string | undefined> {
  const url = pathToFileURL(file).href;
  const browser = process.env.BROWSER?.trim();
  const words = browser ? shellWords(browser) : [];
  const [command, args] = words.length ? [words[0]!, [...words.slice(1), url]] : systemOpener(url);
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      // Its output goes to stderr: stdout carries only what the command prints (the page's path).
      child = spawn(command, args, { stdio: ["ignore", 2, 2], windowsHide: true });
    } catch (err) {
      resolve(`${command}: ${(err as Error).message}`);
      return;
    }
    child.once("error", (err: NodeJS.ErrnoException) => resolve(err.code === "ENOENT" ? `${command} was not found` : `${command}: ${err.message}`));
    child.once("exit", (code, signal) => resolve(code === 0 ? undefined : `${command} ${signal ? `was stopped by ${signal}` : `exited with code ${code}`}`));
  });
}
