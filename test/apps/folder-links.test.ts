/**
 * Symbolic links in an app folder, by the agent tool's rule: followed once while they stay
 * inside the folder, refused (listed before anything is read further) when they lead out of it,
 * to nothing, or round in a loop. What is hashed is what lies inside the folder.
 */
import { link, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { AppFolderError, readAppFolder } from "../../src/index.js";
import { leadsOutside } from "../../src/run/inside-folder.js";
import { sha256, temporaryFolder } from "../support/files.js";

const SECRET = "OUTSIDE-SECRET-do-not-send";

/** An app folder with `front.jsx`, and a folder beside it holding a secret and a JSON document. */
async function layout(): Promise<{ dir: string; outside: string }> {
  const base = temporaryFolder("reduck-app-links-");
  const dir = path.join(base, "app");
  const outside = path.join(base, "elsewhere");
  await mkdir(path.join(dir, "assets"), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(dir, "front.jsx"), "export default () => null;\n");
  await writeFile(path.join(dir, "assets", "logo.svg"), "<svg/>");
  await writeFile(path.join(outside, "secret.txt"), SECRET);
  await writeFile(path.join(outside, "config.json"), JSON.stringify({ apiKey: SECRET }));
  return { dir, outside };
}

async function problemsOf(dir: string): Promise<string[]> {
  const error = await readAppFolder(dir).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppFolderError);
  return (error as AppFolderError).problems;
}

describe("readAppFolder and symbolic links", () => {
  test("a link to a file outside is refused, naming the link and saying how to include the file instead", async () => {
    const { dir, outside } = await layout();
    await symlink(path.join(outside, "secret.txt"), path.join(dir, "assets", "notes.txt"));
    const problems = await problemsOf(dir);
    expect(problems).toEqual([`assets/notes.txt: ${leadsOutside("app folder")}`]);
    expect(problems[0]).toContain("copy the file into the folder instead of linking to it");
  });

  test("the same words as the agent tool's refusal of such a link", async () => {
    // The agent tool's clause for its own folder, from the one rule.
    expect(leadsOutside("reduck folder")).toBe(
      "it leads outside the reduck folder through a symbolic link: copy the file into the folder instead of linking to it",
    );
    expect(leadsOutside("app folder")).toBe(leadsOutside("reduck folder").replace("reduck folder", "app folder"));
  });

  test("a link to a folder outside, a link to nothing and a loop are each refused, all listed at once", async () => {
    const { dir, outside } = await layout();
    await symlink(outside, path.join(dir, "vendor"));
    await symlink(path.join(outside, "not-yet.txt"), path.join(dir, "later.txt"));
    await symlink(dir, path.join(dir, "assets", "again"));
    const problems = await problemsOf(dir);
    expect(problems.sort()).toEqual(
      [
        `assets/again: it is a loop of symbolic links`,
        `later.txt: it is a symbolic link to nothing: a link must lead to a file inside the folder`,
        `vendor: ${leadsOutside("app folder")}`,
      ].sort(),
    );
  });

  test("manifest.json and .api-keys.json linked from outside are never read into the release", async () => {
    const { dir, outside } = await layout();
    await symlink(path.join(outside, "config.json"), path.join(dir, ".api-keys.json"));
    await symlink(path.join(outside, "secret.txt"), path.join(dir, "manifest.json"));
    const problems = await problemsOf(dir);
    expect(problems.sort()).toEqual([`.api-keys.json: ${leadsOutside("app folder")}`, `manifest.json: ${leadsOutside("app folder")}`]);
    for (const p of problems) expect(p).not.toContain(SECRET);
  });

  test("a hard link is refused as the agent tool refuses it: it may be a file from outside", async () => {
    const { dir, outside } = await layout();
    await link(path.join(outside, "secret.txt"), path.join(dir, "hard.txt"));
    expect(await problemsOf(dir)).toEqual([
      "hard.txt: it has 2 hard links, so it may be a file from outside the folder: put a copy of it in the folder instead",
    ]);
  });

  test("links inside the folder are followed once: a file under the link's name, a linked folder walked once", async () => {
    const { dir } = await layout();
    await symlink(path.join(dir, "front.jsx"), path.join(dir, "index.jsx"));
    await symlink("assets", path.join(dir, "static"));
    const read = await readAppFolder(dir);
    expect(read.files.map((f) => f.name)).toEqual(["assets/logo.svg", "front.jsx", "index.jsx", "static/logo.svg"]);
    const front = sha256(await readFile(path.join(dir, "front.jsx")));
    expect(read.files.find((f) => f.name === "index.jsx")).toMatchObject({ sha256: front, path: path.join(dir, "front.jsx") });
    expect(read.files.find((f) => f.name === "static/logo.svg")!.path).toBe(path.join(dir, "assets", "logo.svg"));
  });
});
