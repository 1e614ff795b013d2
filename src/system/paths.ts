/**
 * Where things are on the user's system: the config folder, the desktop, `~`.
 *
 * Pure rules over a {@link System} (environment, platform, home folder, a `path` module), so
 * the Windows rules are checked on Linux with `path.win32`. Reading the disk is left to the
 * caller through {@link DiskLook}; {@link currentSystem} and {@link realDisk} are this
 * machine's.
 */
import { readFileSync, statSync } from "node:fs";
import os from "node:os";
import nodePath from "node:path";

export interface System {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  homedir: string;
  path: nodePath.PlatformPath;
}

/** What the desktop rule needs to know about the disk. */
export interface DiskLook {
  /** The text of a file, or `undefined` when it cannot be read. */
  readText(file: string): string | undefined;
  isDirectory(dir: string): boolean;
}

export function currentSystem(): System {
  return { env: process.env, platform: process.platform, homedir: os.homedir(), path: nodePath };
}

export const realDisk: DiskLook = {
  readText(file) {
    try {
      return readFileSync(file, "utf8");
    } catch {
      return undefined;
    }
  },
  isDirectory(dir) {
    try {
      return statSync(dir).isDirectory();
    } catch {
      return false;
    }
  },
};

/** `$XDG_CONFIG_HOME` when set to an absolute path (the XDG spec ignores a relative one). */
function givenXdgConfigHome({ env, path }: System): string | undefined {
  const given = env.XDG_CONFIG_HOME;
  return given && path.isAbsolute(given) ? given : undefined;
}

/**
 * The CLI's config folder, in gh's order: `$REDUCK_CONFIG_DIR`, else `$XDG_CONFIG_HOME/reduck`,
 * else `%APPDATA%\reduck` on Windows, else `~/.config/reduck` (macOS too, as the real CLI).
 *
 * @example
 * configDir({ env: { APPDATA: "C:\\Users\\ana\\AppData\\Roaming" }, platform: "win32", homedir: "C:\\Users\\ana", path: path.win32 });
 * // "C:\\Users\\ana\\AppData\\Roaming\\reduck"
 */
export function configDir(system: System = currentSystem()): string {
  const { env, platform, homedir, path } = system;
  if (env.REDUCK_CONFIG_DIR) return env.REDUCK_CONFIG_DIR;
  const xdg = givenXdgConfigHome(system);
  if (xdg) return path.join(xdg, "reduck");
  if (platform === "win32") return path.join(env.APPDATA || path.join(homedir, "AppData", "Roaming"), "reduck");
  return path.join(homedir, ".config", "reduck");
}

/**
 * `XDG_DESKTOP_DIR` from the text of `user-dirs.dirs`, which xdg-user-dirs writes as shell
 * assignments: `XDG_DESKTOP_DIR="$HOME/Bureau"` or an absolute path. Anything else is ignored,
 * as xdg-user-dirs does.
 */
export function xdgDesktopFromUserDirs(text: string, homedir: string, path: nodePath.PlatformPath): string | undefined {
  let found: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*XDG_DESKTOP_DIR\s*=\s*"((?:[^"\\]|\\.)*)"\s*$/.exec(line);
    if (!m) continue;
    const value = m[1]!.replace(/\\(.)/g, "$1");
    if (value === "$HOME" || value.startsWith("$HOME/")) found = path.join(homedir, value.slice("$HOME".length));
    else if (value.startsWith("/")) found = value;
  }
  return found; // the last assignment wins, as when the shell reads the file
}

/**
 * The desktop folder, which holds the agent tool's `reduck` folder:
 * `$REDUCK_DESKTOP`; else on Linux (and other XDG systems) `XDG_DESKTOP_DIR` from
 * `$XDG_CONFIG_HOME/user-dirs.dirs` (a localised or moved desktop); on Windows the OneDrive
 * desktop when OneDrive backs it up (`%OneDrive%\Desktop` exists); else `~/Desktop`.
 *
 * @example
 * desktopDir(currentSystem(), realDisk); // "/home/ana/Bureau" on a French Ubuntu
 */
export function desktopDir(system: System = currentSystem(), disk: DiskLook = realDisk): string {
  const { env, platform, homedir, path } = system;
  if (env.REDUCK_DESKTOP) return env.REDUCK_DESKTOP;
  if (platform === "win32") {
    for (const oneDrive of [env.OneDrive, env.OneDriveConsumer, env.OneDriveCommercial]) {
      if (!oneDrive) continue;
      const candidate = path.join(oneDrive, "Desktop");
      if (disk.isDirectory(candidate)) return candidate;
    }
  } else if (platform !== "darwin") {
    const text = disk.readText(path.join(givenXdgConfigHome(system) ?? path.join(homedir, ".config"), "user-dirs.dirs"));
    const xdg = text === undefined ? undefined : xdgDesktopFromUserDirs(text, homedir, path);
    if (xdg) return xdg;
  }
  return path.join(homedir, "Desktop");
}

/**
 * Expands a leading `~` the way a shell would, for paths the shell did not expand (after
 * `=`, in quotes, from an MCP client). `~\` too where `\` separates folders (Windows).
 * `~user` is left alone.
 *
 * @example
 * expandHome("~/Downloads/cv.pdf"); // "/home/ana/Downloads/cv.pdf"
 */
export function expandHome(p: string, system: System = currentSystem()): string {
  const { homedir, path } = system;
  if (p === "~") return homedir;
  if (p.startsWith("~/") || (path.sep === "\\" && p.startsWith("~\\"))) return path.join(homedir, p.slice(2));
  return p;
}

/**
 * Whether file modes such as 0600 protect anything here. On Windows Node maps them onto the
 * read-only flag only, so "readable only by you" must not be claimed there.
 */
export function modesMeaningful(platform: NodeJS.Platform = process.platform): boolean {
  return platform !== "win32";
}

/**
 * What to tell the user when reading the desktop folder failed with `code` (a Node error
 * code), or `undefined` when the failure is not about permission. macOS guards the Desktop
 * behind a privacy prompt, and a denied (or unanswered) prompt looks like EPERM.
 */
export function desktopPermissionProblem(code: string | undefined, folder: string, platform: NodeJS.Platform = process.platform): string | undefined {
  if (code !== "EACCES" && code !== "EPERM") return undefined;
  const hint =
    platform === "darwin"
      ? "macOS may ask for permission to read the Desktop: allow it for your terminal (System Settings > Privacy & Security > Files and Folders)"
      : "give your user read access to it, or set REDUCK_DESKTOP to another folder";
  return `permission denied reading ${folder} (${code}); ${hint}`;
}
