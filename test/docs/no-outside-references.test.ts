/**
 * No file of the project names an issue number (the word issue, then a number) or a path outside the
 * repository (the team's shared folder, by its relative or its absolute path): a reader of a
 * clone has neither, so a fact taken from there is restated where it is used. The check is
 * `git grep` over the tracked files and the untracked ones not ignored (so a new file counts
 * before it is committed), package-lock.json aside (npm writes it).
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, test } from "vitest";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

// `[/]` keeps this file from naming the absolute path it looks for.
const PATTERN = String.raw`\bissues? #?[0-9]+\b|\.\./shared|/work[/]shared`;

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
  const dir = await mkdtemp(path.join(os.tmpdir(), "reduck-outside-"));
  try {
    // Built from parts, so that this file is no hit itself.
    const issue = "issue";
    const bad = [
      `see ${issue} 24`,
      `${issue.toUpperCase()} #10 §3`,
      `(${issue}s 11 and 19)`,
      `..${"/"}shared/CONVENTIONS.md`,
      `/work/${"shared"}/spec/service.md`,
    ];
    const fine = ["no issues here", "a tissue 3 times", "shared flags", "test/server/", "issue: the run failed"];
    await writeFile(path.join(dir, "probe.txt"), [...bad, ...fine].join("\n"));
    const found = await hits(dir, ["--no-index"], ["probe.txt"]);
    expect(found.map((line) => line.replace(/^probe\.txt:\d+:/, ""))).toEqual(bad);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
