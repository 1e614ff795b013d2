// The desktop the sandbox makes for itself when it is given none (no --desktop, no ~/Desktop): a
// temporary folder that goes when the sandbox stops, unless someone put files in it to try runs
// with; then it stays, and the sandbox says where, so nothing a user made is lost without a word.
// The start-up line that names the desktop says so (TEMPORARY_DESKTOP_NOTE); the exit is silent
// when there is nothing to say (a sandbox that fails to start says exactly one line).
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const made = new Set<string>();

/** What the sandbox's start-up line adds after a temporary desktop's name. */
export const TEMPORARY_DESKTOP_NOTE = " (a temporary folder, removed when the sandbox stops unless you put files in it; --desktop DIR picks one)";

/**
 * Whether `folder` is a desktop `makeTemporaryDesktop` made.
 *
 * @example
 * const note = isTemporaryDesktop(desktop) ? TEMPORARY_DESKTOP_NOTE : "";
 */
export function isTemporaryDesktop(folder: string): boolean {
  return made.has(folder);
}

/** Whether `folder` holds anything but empty folders. */
function holdsFiles(folder: string): boolean {
  return readdirSync(folder, { withFileTypes: true }).some((entry) => !entry.isDirectory() || holdsFiles(path.join(folder, entry.name)));
}

/**
 * Makes a temporary desktop with its (empty) `serviceFolder` in it, and arranges that it is removed
 * when the process exits (process.exit() included, as after SIGINT or SIGTERM), or kept, with a line
 * on stderr, if files were added to it.
 *
 * @example
 * const desktop = makeTemporaryDesktop("reduck"); // /tmp/reduck-sandbox-desktop-XXXXXX
 */
export function makeTemporaryDesktop(serviceFolder: string): string {
  const desktop = mkdtempSync(path.join(os.tmpdir(), "reduck-sandbox-desktop-"));
  mkdirSync(path.join(desktop, serviceFolder));
  made.add(desktop);
  process.once("exit", () => {
    try {
      if (holdsFiles(desktop)) {
        process.stderr.write(`sandbox: kept the temporary desktop ${desktop}: it holds files you put there (remove it when done)\n`);
      } else {
        rmSync(desktop, { recursive: true, force: true }); // said at start-up (TEMPORARY_DESKTOP_NOTE)
      }
    } catch {
      // Already gone, or unreadable: nothing of ours to remove.
    }
  });
  return desktop;
}
