/**
 * `scripts status` after a push: a draft pushed without --promote is said as not promoted (and is
 * pending for --exit-code) until promoted; offline as the lock records it, with --remote as the
 * service answers, which also knows of a promotion made elsewhere. And `scripts pull` keeps such a
 * draft's folder rather than put the version the service runs in its place.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { promoteScriptVersion } from "../../../src/index.js";
import { STORIES, TITLE, useScriptsSandbox } from "./scripts-sandbox.js";

const { sandbox, reduck, pulled, scriptOf, versionsOf, lockOf } = useScriptsSandbox("reduck-draft-status-");
const currentNumber = (key: string) => versionsOf(key).find((v) => v.id === scriptOf(key).currentVersionId)!.versionNumber;

function touch(dir: string, key: string, line: string): void {
  const file = path.join(dir, key, "script.ts");
  writeFileSync(file, `${readFileSync(file, "utf8")}${line}\n`);
}

/** A fresh pull, then `key` changed and pushed as a draft, not promoted: the folder and the draft. */
async function pushedDraft(key: string, note: string) {
  const dir = await pulled();
  touch(dir, key, `// ${note}`);
  const push = await reduck("scripts", "push", "--dir", dir, "--note", note);
  expect(push.code, push.stderr).toBe(0);
  return { dir, draft: versionsOf(key)[0]! };
}

async function status(dir: string, ...flags: string[]) {
  const human = await reduck("scripts", "status", "--dir", dir, "--exit-code", ...flags);
  const json = await reduck("scripts", "status", "--dir", dir, "--json", ...flags);
  expect(json.code, json.stderr).toBe(0);
  return { code: human.code, stdout: human.stdout, stderr: human.stderr, json: JSON.parse(json.stdout) };
}
const rowOf = (json: { scripts: Array<{ address: string }> }, key: string) => json.scripts.find((r) => r.address === key) as Record<string, unknown>;

describe("status after a push", () => {
  it("without --promote: the draft is not promoted, pending (exit 10), offline and with --remote", async () => {
    const { dir, draft } = await pushedDraft(TITLE, "Draft only");
    expect(draft.draft).toBe(true);
    expect(lockOf(dir)[TITLE]).toMatchObject({ versionId: draft.id, draft: true });

    const offline = await status(dir);
    expect(offline.code, offline.stderr).toBe(10);
    expect(offline.stdout).toBe(
      `not promoted  ${TITLE} (pushed as draft version ${draft.versionNumber}; reduck.lock.json records no promotion); promote it: reduck scripts push --promote ${TITLE} --dir ${dir}\n`,
    );
    expect(offline.stderr).toContain("1 pending");
    expect(rowOf(offline.json, TITLE)).toMatchObject({ state: "unchanged", unpromoted: true, pulled: { versionId: draft.id } });
    expect(rowOf(offline.json, STORIES)).toMatchObject({ state: "unchanged", unpromoted: false });
    expect(offline.json.pending).toBe(1);

    const remote = await status(dir, "--remote");
    expect(remote.code, remote.stderr).toBe(10);
    expect(remote.stdout).toBe(
      `not promoted  ${TITLE} (pushed as draft version ${draft.versionNumber}; the service runs version ${currentNumber(TITLE)}); promote it: reduck scripts push --promote ${TITLE} --dir ${dir}\n`,
    );
    expect(rowOf(remote.json, TITLE)).toMatchObject({ remote: "same", unpromoted: true, conflict: false });
    expect(remote.json.pending).toBe(1);

    // The command the line gives is the one that ends it.
    const promote = await reduck("scripts", "push", "--promote", TITLE, "--dir", dir);
    expect(promote.code, promote.stderr).toBe(0);
    expect(scriptOf(TITLE).currentVersionId).toBe(draft.id);
    const after = await status(dir, "--remote");
    expect([after.code, after.stdout, rowOf(after.json, TITLE).unpromoted]).toEqual([0, "", false]);
  });

  it("with --promote: unchanged, nothing pending (exit 0), and the lock records no draft", async () => {
    const dir = await pulled();
    touch(dir, STORIES, "// promoted at once");
    const push = await reduck("scripts", "push", "--dir", dir, "--note", "Promoted", "--promote");
    expect(push.code, push.stderr).toBe(0);
    expect(scriptOf(STORIES).currentVersionId).toBe(lockOf(dir)[STORIES].versionId);
    expect(lockOf(dir)[STORIES].draft).toBeUndefined();
    for (const flags of [[], ["--remote"]]) {
      const after = await status(dir, ...flags);
      expect(after.code, after.stderr).toBe(0);
      expect(after.stdout).toBe("");
      expect(rowOf(after.json, STORIES)).toMatchObject({ state: "unchanged", unpromoted: false });
      expect(after.json.pending).toBe(0);
    }
  });

  it("a draft promoted elsewhere: offline the lock still says not promoted; --remote says unchanged", async () => {
    const { dir, draft } = await pushedDraft(TITLE, "Promoted on the web");
    const [handle, host, slug] = TITLE.split("/") as [string, string, string];
    const promoted = await promoteScriptVersion({ client: sandbox.client, path: { handle, host, slug, versionId: draft.id } });
    expect(promoted.error).toBeUndefined();

    const offline = await status(dir);
    expect(offline.code).toBe(10);
    expect(offline.stdout).toContain(`not promoted  ${TITLE} (pushed as draft version ${draft.versionNumber}; reduck.lock.json records no promotion)`);
    const remote = await status(dir, "--remote");
    expect(remote.code, remote.stderr).toBe(0);
    expect(remote.stdout).toBe("");
    expect(rowOf(remote.json, TITLE)).toMatchObject({ remote: "same", unpromoted: false });
  });

  it("a new script pushed as a draft runs nothing yet: not promoted, and a change on top of it is no conflict", async () => {
    const dir = await pulled();
    const key = "@demo/example.com/get_footer";
    const folder = path.join(dir, key);
    mkdirSync(folder, { recursive: true });
    const contract = { description: "Reads the footer", input_schema: { type: "object" }, output_schema: { type: "object" }, side_effects: "none" };
    writeFileSync(path.join(folder, "contract.json"), `${JSON.stringify(contract, null, 2)}\n`);
    writeFileSync(path.join(folder, "script.ts"), "return { footer: 'f' };\n");
    expect((await reduck("scripts", "push", "--dir", dir, "--note", "New")).code).toBe(0);

    const remote = await status(dir, "--remote");
    expect(remote.code, remote.stderr).toBe(10);
    expect(remote.stdout).toBe(
      `not promoted  ${key} (pushed as draft version 1; the service runs no version of it yet); promote it: reduck scripts push --promote ${key} --dir ${dir}\n`,
    );
    expect(rowOf(remote.json, key)).toMatchObject({ remote: "no-current", unpromoted: true, conflict: false });

    touch(dir, key, "// more");
    const changed = await status(dir, "--remote");
    expect(changed.code, changed.stderr).toBe(10);
    expect(changed.stdout).toBe(`changed here  ${key} (code); on draft version 1, not promoted\n`);
    expect(rowOf(changed.json, key)).toMatchObject({ state: "changed", unpromoted: true, conflict: false });
  });
});

describe("pull over a draft pushed from here", () => {
  it("keeps the folder and its draft (exit 11, naming how to promote it) until the draft runs or --force", async () => {
    const { dir, draft } = await pushedDraft(TITLE, "Draft kept by pull");
    const file = path.join(dir, TITLE, "script.ts");
    const drafted = readFileSync(file, "utf8");

    const again = await reduck("scripts", "pull", "--dir", dir);
    expect(again.code, again.stderr).toBe(11);
    expect(again.stderr).toContain(
      `kept the draft pushed from here and not promoted: ${TITLE}: the service's version was not written over it (see \`reduck scripts diff\`; promote: reduck scripts push --promote ${TITLE} --dir ${dir}; pass --force to overwrite)`,
    );
    expect(readFileSync(file, "utf8")).toBe(drafted);
    expect(lockOf(dir)[TITLE]).toMatchObject({ versionId: draft.id, draft: true });
    const json = await reduck("scripts", "pull", "--dir", dir, "--json");
    expect(json.code).toBe(11);
    expect(JSON.parse(json.stdout).error.kept).toEqual([{ address: TITLE, files: [`${TITLE}/script.ts`], unpromoted: true }]);

    // Promoted elsewhere: the service now runs the draft, and pull finds the folder as it has it.
    const [handle, host, slug] = TITLE.split("/") as [string, string, string];
    expect((await promoteScriptVersion({ client: sandbox.client, path: { handle, host, slug, versionId: draft.id } })).error).toBeUndefined();
    const promoted = await reduck("scripts", "pull", "--dir", dir);
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(drafted);
    expect(lockOf(dir)[TITLE]).toEqual(expect.not.objectContaining({ draft: true }));
  });

  it("--force writes the service's version over the draft, and the lock forgets it", async () => {
    const current = readFileSync(path.join(await pulled(), STORIES, "script.ts"), "utf8");
    const { dir } = await pushedDraft(STORIES, "Draft overwritten");
    const file = path.join(dir, STORIES, "script.ts");
    expect(readFileSync(file, "utf8")).not.toBe(current);
    const forced = await reduck("scripts", "pull", "--dir", dir, "--force");
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(current);
    expect(lockOf(dir)[STORIES].draft).toBeUndefined();
  });
});
