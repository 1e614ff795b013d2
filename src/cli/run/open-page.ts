/**
 * `--open`: a page opened in the user's browser as `gh` opens one: `$BROWSER` when set, else the
 * system's opener. Loaded only when asked (child_process stays out of every other command's start).
 */
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";

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
 * as `gh` does. When it cannot, `note` says why and where the page is; never throws (the page
 * is written either way).
 *
 * @example
 * await openPage("/tmp/reduck-page-x/run.html", (line) => console.error(line));
 */
export async function openPage(file: string, note: (message: string) => void): Promise<void> {
  const problem = await launch(file);
  if (problem) note(`Could not open a browser (${problem}): open ${file} yourself.`);
}

/** Runs the opener on the page; resolves to why it could not, or undefined. */
function launch(file: string): Promise<string | undefined> {
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
