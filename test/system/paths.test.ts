/**
 * The path rules for each system, checked here with path.win32 and path.posix, and the real
 * disk look on this machine.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryFolder } from "../support/files.js";
import { configDir as cliConfigDir } from "../../src/cli/shell/config.js";
import { serviceFolder } from "../../src/mcp/common/folder.js";
import {
  configDir,
  desktopDir,
  desktopPermissionProblem,
  expandHome,
  modesMeaningful,
  realDisk,
  xdgDesktopFromUserDirs,
  type DiskLook,
  type System,
} from "../../src/system/paths.js";

const linux = (env: System["env"] = {}): System => ({ env, platform: "linux", homedir: "/home/ana", path: path.posix });
const mac = (env: System["env"] = {}): System => ({ env, platform: "darwin", homedir: "/Users/ana", path: path.posix });
const windows = (env: System["env"] = {}): System => ({ env, platform: "win32", homedir: "C:\\Users\\ana", path: path.win32 });

/** A disk holding exactly these files (text) and folders. */
function disk(files: Record<string, string> = {}, dirs: string[] = []): DiskLook {
  return { readText: (f) => files[f], isDirectory: (d) => dirs.includes(d) };
}

describe("configDir", () => {
  it("is ~/.config/reduck on Linux and macOS, as the real CLI", () => {
    expect(configDir(linux())).toBe("/home/ana/.config/reduck");
    expect(configDir(mac())).toBe("/Users/ana/.config/reduck");
  });

  it("is %APPDATA%\\reduck on Windows, with AppData\\Roaming when APPDATA is unset", () => {
    expect(configDir(windows({ APPDATA: "D:\\Profiles\\ana\\Roaming" }))).toBe("D:\\Profiles\\ana\\Roaming\\reduck");
    expect(configDir(windows())).toBe("C:\\Users\\ana\\AppData\\Roaming\\reduck");
  });

  it("follows an absolute XDG_CONFIG_HOME everywhere and ignores a relative one, as the XDG spec says", () => {
    expect(configDir(linux({ XDG_CONFIG_HOME: "/data/conf" }))).toBe("/data/conf/reduck");
    expect(configDir(windows({ XDG_CONFIG_HOME: "C:\\xdg", APPDATA: "C:\\AppData" }))).toBe("C:\\xdg\\reduck");
    expect(configDir(linux({ XDG_CONFIG_HOME: "conf" }))).toBe("/home/ana/.config/reduck");
  });

  it("is REDUCK_CONFIG_DIR when set, before anything else", () => {
    expect(configDir(linux({ REDUCK_CONFIG_DIR: "/tmp/r", XDG_CONFIG_HOME: "/x" }))).toBe("/tmp/r");
    expect(configDir(windows({ REDUCK_CONFIG_DIR: "E:\\r", APPDATA: "C:\\a" }))).toBe("E:\\r");
  });

  it("is what the CLI's config uses", () => {
    expect(cliConfigDir({ XDG_CONFIG_HOME: "/data/conf" })).toBe(path.join("/data/conf", "reduck"));
  });
});

describe("desktopDir", () => {
  it("is ~/Desktop by default on every system", () => {
    expect(desktopDir(linux(), disk())).toBe("/home/ana/Desktop");
    expect(desktopDir(mac(), disk())).toBe("/Users/ana/Desktop");
    expect(desktopDir(windows(), disk())).toBe("C:\\Users\\ana\\Desktop");
  });

  it("is REDUCK_DESKTOP when set", () => {
    expect(desktopDir(linux({ REDUCK_DESKTOP: "/srv/desk" }), disk({ "/home/ana/.config/user-dirs.dirs": 'XDG_DESKTOP_DIR="$HOME/Bureau"' }))).toBe(
      "/srv/desk",
    );
  });

  it("on Linux, follows XDG_DESKTOP_DIR in user-dirs.dirs ($HOME expanded, or absolute)", () => {
    const file = ["# This file is written by xdg-user-dirs-update", 'XDG_DOWNLOAD_DIR="$HOME/Téléchargements"', 'XDG_DESKTOP_DIR="$HOME/Bureau"'].join("\n");
    expect(desktopDir(linux(), disk({ "/home/ana/.config/user-dirs.dirs": file }))).toBe("/home/ana/Bureau");
    expect(desktopDir(linux(), disk({ "/home/ana/.config/user-dirs.dirs": 'XDG_DESKTOP_DIR="/mnt/desk"\n' }))).toBe("/mnt/desk");
    // The file lives under XDG_CONFIG_HOME when that is set.
    expect(desktopDir(linux({ XDG_CONFIG_HOME: "/cfg" }), disk({ "/cfg/user-dirs.dirs": 'XDG_DESKTOP_DIR="$HOME/Escritorio"' }))).toBe("/home/ana/Escritorio");
  });

  it("on Linux, ignores what xdg-user-dirs would ignore, and falls back to ~/Desktop", () => {
    for (const text of ['XDG_DESKTOP_DIR="relative/desk"', "XDG_DESKTOP_DIR=$HOME/Bureau", '# XDG_DESKTOP_DIR="$HOME/Bureau"', ""]) {
      expect(desktopDir(linux(), disk({ "/home/ana/.config/user-dirs.dirs": text }))).toBe("/home/ana/Desktop");
    }
  });

  it("reads user-dirs.dirs only where XDG applies (not macOS or Windows)", () => {
    const everywhere = disk({
      "/Users/ana/.config/user-dirs.dirs": 'XDG_DESKTOP_DIR="$HOME/Other"',
      "C:\\Users\\ana\\.config\\user-dirs.dirs": 'XDG_DESKTOP_DIR="$HOME/Other"',
    });
    expect(desktopDir(mac(), everywhere)).toBe("/Users/ana/Desktop");
    expect(desktopDir(windows(), everywhere)).toBe("C:\\Users\\ana\\Desktop");
  });

  it("on Windows, is the OneDrive desktop when it exists", () => {
    const env = { OneDrive: "C:\\Users\\ana\\OneDrive" };
    expect(desktopDir(windows(env), disk({}, ["C:\\Users\\ana\\OneDrive\\Desktop"]))).toBe("C:\\Users\\ana\\OneDrive\\Desktop");
    expect(desktopDir(windows(env), disk())).toBe("C:\\Users\\ana\\Desktop");
    const business = { OneDriveCommercial: "C:\\Users\\ana\\OneDrive - Acme" };
    expect(desktopDir(windows(business), disk({}, ["C:\\Users\\ana\\OneDrive - Acme\\Desktop"]))).toBe("C:\\Users\\ana\\OneDrive - Acme\\Desktop");
  });

  describe("on this machine's disk", () => {
    it("reads the real user-dirs.dirs and the agent tool's folder follows it", async () => {
      const home = temporaryFolder("reduck-home-");
      await mkdir(path.join(home, ".config"));
      await writeFile(path.join(home, ".config", "user-dirs.dirs"), 'XDG_DESKTOP_DIR="$HOME/Schreibtisch"\n');
      const here: System = { env: {}, platform: "linux", homedir: home, path: path.posix };
      expect(desktopDir(here, realDisk)).toBe(path.join(home, "Schreibtisch"));
      expect(realDisk.isDirectory(home)).toBe(true);
      expect(realDisk.isDirectory(path.join(home, "missing"))).toBe(false);
      expect(realDisk.readText(path.join(home, "missing"))).toBeUndefined();
      // serviceFolder() takes this machine's platform and home, with the given environment.
      expect(serviceFolder({ REDUCK_DESKTOP: "/srv/desk" })).toBe(path.join("/srv/desk", "reduck"));
    });
  });
});

describe("xdgDesktopFromUserDirs", () => {
  it("takes the last assignment, as a shell sourcing the file would, and unescapes", () => {
    expect(xdgDesktopFromUserDirs('XDG_DESKTOP_DIR="$HOME/A"\nXDG_DESKTOP_DIR="$HOME/B"', "/h", path.posix)).toBe("/h/B");
    expect(xdgDesktopFromUserDirs('XDG_DESKTOP_DIR="$HOME/My \\"Desk\\""', "/h", path.posix)).toBe('/h/My "Desk"');
    expect(xdgDesktopFromUserDirs('XDG_DESKTOP_DIR="$HOME"', "/h", path.posix)).toBe("/h");
    expect(xdgDesktopFromUserDirs('XDG_DESKTOP_DIR="$HOME/D"\r\n', "/h", path.posix)).toBe("/h/D");
  });
});

describe("expandHome", () => {
  it("expands ~ and ~/ everywhere, ~\\ where \\ separates folders (Windows)", () => {
    expect(expandHome("~", linux())).toBe("/home/ana");
    expect(expandHome("~/Downloads/cv.pdf", linux())).toBe("/home/ana/Downloads/cv.pdf");
    expect(expandHome("~\\Downloads\\cv.pdf", windows())).toBe("C:\\Users\\ana\\Downloads\\cv.pdf");
    expect(expandHome("~/Downloads/cv.pdf", windows())).toBe("C:\\Users\\ana\\Downloads\\cv.pdf");
    expect(expandHome("~", windows())).toBe("C:\\Users\\ana");
  });

  it("leaves other paths alone: ~user, ~ inside a name, a backslash name on POSIX", () => {
    expect(expandHome("~bob/cv.pdf", linux())).toBe("~bob/cv.pdf");
    expect(expandHome("./~/cv.pdf", linux())).toBe("./~/cv.pdf");
    expect(expandHome("~\\cv.pdf", linux())).toBe("~\\cv.pdf");
    expect(expandHome("/abs/cv.pdf", linux())).toBe("/abs/cv.pdf");
  });
});

describe("modesMeaningful", () => {
  it("is false only on Windows, where 0600 protects nothing", () => {
    expect(modesMeaningful("linux")).toBe(true);
    expect(modesMeaningful("darwin")).toBe(true);
    expect(modesMeaningful("win32")).toBe(false);
  });
});

describe("desktopPermissionProblem", () => {
  it("says a denied read is a permission problem, with the macOS privacy prompt on macOS", () => {
    expect(desktopPermissionProblem("EPERM", "/Users/ana/Desktop/reduck", "darwin")).toMatch(
      /^permission denied reading \/Users\/ana\/Desktop\/reduck \(EPERM\); macOS may ask for permission to read the Desktop: allow it for your terminal/,
    );
    expect(desktopPermissionProblem("EACCES", "/home/ana/Desktop/reduck", "linux")).toMatch(
      /^permission denied reading .*\(EACCES\); give your user read access/,
    );
  });

  it("says nothing for other failures", () => {
    expect(desktopPermissionProblem("ENOENT", "/x", "darwin")).toBeUndefined();
    expect(desktopPermissionProblem(undefined, "/x", "darwin")).toBeUndefined();
  });
});
