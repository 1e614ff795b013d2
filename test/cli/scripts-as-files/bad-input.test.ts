/**
 * Bad input to the scripts-as-files commands: one clear line naming the file (exit 2), or the
 * script the service refuses (exit 11), and nothing sent.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { archiveScript } from "../../../src/index.js";
import { temporaryFolder } from "../../support/files.js";
import { STORIES, TITLE, useScriptsSandbox } from "./scripts-sandbox.js";

const { sandbox, reduck, pulled } = useScriptsSandbox("reduck-folders-bad-");

/** Every command that reads the tree refuses it in the same words, with exit 2. */
async function refusedEverywhere(dir: string, message: string | RegExp): Promise<void> {
  for (const args of [["status"], ["diff"], ["push", "--note", "x"], ["types", "--from", dir, "--out", path.join(dir, "t.ts")]]) {
    const [verb, ...rest] = args as [string, ...string[]];
    const result = await reduck("scripts", verb, ...(verb === "types" ? rest : ["--dir", dir, ...rest]));
    expect(result.code, `${verb}: ${result.stderr}`).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  }
}

describe("a tree that is not as pull writes it", () => {
  it("a torn lock file", async () => {
    const dir = await pulled();
    const lock = path.join(dir, "reduck.lock.json");
    writeFileSync(lock, readFileSync(lock, "utf8").slice(0, 40));
    await refusedEverywhere(dir, `${path.join(dir, "reduck.lock.json")}: is not valid JSON`);
  });

  it("a lock file edited by hand", async () => {
    const dir = await pulled();
    const lock = path.join(dir, "reduck.lock.json");
    writeFileSync(lock, readFileSync(lock, "utf8").replace('"lockVersion": 1,', '"lockVersion":1,'));
    await refusedEverywhere(dir, "reduck.lock.json: was edited by hand");
  });

  it("two code files in one folder", async () => {
    const dir = await pulled();
    writeFileSync(path.join(dir, TITLE, "script.js"), "return 1;\n");
    await refusedEverywhere(dir, `${path.join(dir, TITLE)}: holds both script.js and script.ts`);
  });

  it("a contract that is not JSON, and one whose schema is not an object", async () => {
    const dir = await pulled();
    const file = path.join(dir, TITLE, "contract.json");
    writeFileSync(file, "{ not json");
    await refusedEverywhere(dir, `${file}: not valid JSON`);
    writeFileSync(file, JSON.stringify({ description: "d", input_schema: [], output_schema: {} }));
    await refusedEverywhere(dir, `${file}: input_schema must be a JSON Schema object`);
  });

  it("a folder without its code, or without its contract", async () => {
    const dir = await pulled();
    rmSync(path.join(dir, TITLE, "script.ts"));
    await refusedEverywhere(dir, `${path.join(dir, TITLE)}: has no code file`);
    writeFileSync(path.join(dir, TITLE, "script.ts"), "return 1;\n");
    rmSync(path.join(dir, STORIES, "contract.json"));
    await refusedEverywhere(dir, `${path.join(dir, STORIES, "contract.json")}: is missing`);
  });

  it("a --dir that does not exist", async () => {
    const result = await reduck("scripts", "status", "--dir", path.join(sandbox.home, "nowhere"));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("no such folder (pull scripts into it first");
  });
});

describe("what the service refuses", () => {
  it("an address the service does not know, on pull", async () => {
    const dir = temporaryFolder("tree-", { inside: sandbox.home });
    const result = await reduck("scripts", "pull", "@demo/example.com/get_titel", "@demo/news.ycombinator.com/top_stories", "--dir", dir);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/^Error: reading @demo\/example.com\/get_titel: .*Did you mean @demo\/example.com\/get_title\?/);
    // Nothing was written, not even the script that exists.
    expect(existsSync(path.join(dir, "reduck.lock.json"))).toBe(false);
    expect(existsSync(path.join(dir, "@demo"))).toBe(false);
  });

  it("a push of a script archived on the service, or of a folder whose code the service withholds: nothing is sent", async () => {
    const dir = await pulled("reduck/mail.google.com/send_email", "@demo");
    const contract = path.join(dir, "reduck/mail.google.com/send_email/contract.json");
    writeFileSync(contract, readFileSync(contract, "utf8").replace('"description": "', '"description": "Mine: '));
    const withheld = await reduck("scripts", "push", "--dir", dir, "--note", "x");
    expect(withheld.code).toBe(11);
    expect(withheld.stderr).toContain("reduck/mail.google.com/send_email: the service withholds its code, so its folder cannot be pushed");
    writeFileSync(path.join(dir, STORIES, "script.ts"), "return { stories: [1] };\n");
    await archiveScript({ client: sandbox.client, path: { handle: "@demo", host: "news.ycombinator.com", slug: "top_stories" } });
    const count = sandbox.store.versions.size;
    const archived = await reduck("scripts", "push", STORIES, "--dir", dir, "--note", "x");
    expect(archived.code).toBe(11);
    expect(archived.stderr).toContain(`${STORIES} is archived on the service`);
    expect(sandbox.store.versions.size).toBe(count);
  });

  it("a push without --note, a new script without side_effects", async () => {
    const dir = await pulled();
    writeFileSync(path.join(dir, TITLE, "script.ts"), "return { title: 'x' };\n");
    const noNote = await reduck("scripts", "push", "--dir", dir);
    expect(noNote.code).toBe(2);
    expect(noNote.stderr).toContain("--note is required");
    const folder = path.join(dir, "@demo/example.com/fresh");
    mkdirSync(folder);
    writeFileSync(path.join(folder, "script.js"), "return {};\n");
    writeFileSync(path.join(folder, "contract.json"), JSON.stringify({ description: "d", input_schema: {}, output_schema: {} }));
    const noEffects = await reduck("scripts", "push", folder, "--dir", dir, "--note", "x");
    expect(noEffects.code).toBe(11);
    expect(noEffects.stderr).toContain('@demo/example.com/fresh/contract.json: a new script needs side_effects: "none"');
  });
});
