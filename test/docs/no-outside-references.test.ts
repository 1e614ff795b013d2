/**
 * No file of the project names an issue number (the word issue, then a number), a path outside the
 * repository (the team's shared folder, by its relative path) or a path of the machine it was
 * written on (the folders that hold this clone, the user's home): a reader of a clone has none of
 * them, so a fact taken from there is restated where it is used. The check is `git grep` over the
 * tracked files and the untracked ones not ignored (so a new file counts before it is committed),
 * package-lock.json aside (npm writes it).
 */
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { temporaryFolder } from "../support/files.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Top-level folders many machines share (`/home/ana` in an example is no path of this machine). */
const SHARED_TOPS = new Set(["home", "Users", "tmp", "var", "private", "mnt", "opt", "srv", "usr"]);

/**
 * This machine's own paths, read from where this file is rather than written here (the file would
 * name them itself): every folder above the clone (such as the clone's parent and the folder the
 * team's shared material sits beside), short of `/` and of a shared top-level folder, and the
 * user's home when it names the user (`/home/ana`; `/root` is every Linux machine's).
 */
function machinePaths(): string[] {
  const folders = (at: string) => {
    const parts = path.resolve(at).split(path.sep).filter(Boolean);
    return parts.map((_, i) => `/${parts.slice(0, i + 1).join("/")}`).filter((_, i) => i > 0 || !SHARED_TOPS.has(parts[0]!));
  };
  const home = os.homedir();
  return [...folders(ROOT), ...(home.split(path.sep).filter(Boolean).length > 1 ? [home] : [])];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A machine path at the start of a path: not the tail of a longer name or path. */
const machinePathPattern = (folder: string) => `(^|[^[:alnum:]_./~-])${escapeRegExp(folder)}([/[:space:]"'\`:),]|$)`;

const PATTERN = [String.raw`\bissues? #?[0-9]+\b`, String.raw`\.\./shared`, ...machinePaths().map(machinePathPattern)].join("|");

/** `file:line:text` for each hit of PATTERN under `cwd` (a repository, or any folder with `--no-index`). */
async function hits(cwd: string, options: string[], paths: string[]): Promise<string[]> {
  try {
    const { stdout } = await run("git", ["grep", ...options, "-n", "-I", "-i", "-E", "-e", PATTERN, "--", ...paths], { cwd, maxBuffer: 16 * 2 ** 20 });
    return stdout.split("\n").filter(Boolean);
  } catch (error) {
    // git grep exits 1 when nothing matched; anything else is a failure to run it.
    if ((error as { code?: number }).code === 1) return [];
    throw error;
  }
}

test("no file of the project names an issue number or a path outside the repository", async () => {
  const found = await hits(ROOT, ["--untracked"], [".", ":!package-lock.json"]);
  expect(found, `restate the fact in the file itself:\n${found.join("\n")}`).toEqual([]);
});

test("the pattern finds what it is meant to find, and leaves ordinary words alone", async () => {
  const dir = temporaryFolder("reduck-outside-");
  // Built from parts, so that this file is no hit itself.
  const issue = "issue";
  const [top] = machinePaths();
  const bad = [
    `see ${issue} 24`,
    `${issue.toUpperCase()} #10 §3`,
    `(${issue}s 11 and 19)`,
    `..${"/"}shared/CONVENTIONS.md`,
    `read ${top}/spec/service.md first`,
    `"${path.resolve(ROOT, "src", "index.ts")}"`,
  ];
  const fine = [
    "no issues here",
    "a tissue 3 times",
    "shared flags",
    "test/server/",
    "issue: the run failed",
    "/home/ana/Desktop/reduck",
    "/tmp/report.html",
    `docs${top}/x.md`,
    `${top}ing/x.md`,
  ];
  await writeFile(path.join(dir, "probe.txt"), [...bad, ...fine].join("\n"));
  const found = await hits(dir, ["--no-index"], ["probe.txt"]);
  expect(found.map((line) => line.replace(/^probe\.txt:\d+:/, ""))).toEqual(bad);
});
