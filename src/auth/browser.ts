/** Opening a link in the user's browser, with each system's own opener. */
import { nodeChildProcess } from "../core/builtins.js";

export interface OpenCommand {
  command: string;
  args: string[];
  /** Windows: the arguments are passed to cmd.exe as written (the link is quoted there). */
  verbatim?: boolean;
}

/**
 * The command that opens `url` on `platform`: `open` on macOS, `start` (through cmd.exe) on
 * Windows, `xdg-open` elsewhere.
 *
 * @example
 * browserCommand("darwin", "https://example.com/a?b=1&c=2"); // { command: "open", args: ["https://example.com/a?b=1&c=2"] }
 */
export function browserCommand(platform: NodeJS.Platform, url: string): OpenCommand {
  if (platform === "darwin") return { command: "open", args: [url] };
  if (platform === "win32") {
    // `start` is a cmd.exe built-in; its first quoted argument is a window title, hence "". The
    // link goes in double quotes so cmd.exe does not split it at `&` (a URL never holds a `"`).
    return { command: "cmd.exe", args: ["/d", "/s", "/c", `start "" "${url.replace(/"/g, "%22")}"`], verbatim: true };
  }
  return { command: "xdg-open", args: [url] };
}

/**
 * Starts the system's opener for `url` and leaves it running on its own. Resolves with a reason
 * when it could not be started (no `xdg-open` on a server, say), otherwise with undefined.
 */
export function openBrowser(url: string, platform: NodeJS.Platform = process.platform): Promise<string | undefined> {
  const { command, args, verbatim } = browserCommand(platform, url);
  return new Promise((resolve) => {
    let child: ReturnType<ReturnType<typeof nodeChildProcess>["spawn"]>;
    try {
      child = nodeChildProcess().spawn(command, args, { stdio: "ignore", detached: true, windowsHide: true, windowsVerbatimArguments: verbatim });
    } catch (err) {
      resolve(`${command}: ${(err as Error).message}`);
      return;
    }
    child.once("error", (err: NodeJS.ErrnoException) => resolve(`${command}: ${err.code ?? err.message}`));
    child.once("spawn", () => {
      child.unref();
      resolve(undefined);
    });
  });
}
