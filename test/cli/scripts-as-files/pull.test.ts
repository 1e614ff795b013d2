import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createDraftScriptVersion, promoteScriptVersion } from "../../../src/index.js";
import { runCli } from "../../support/cli.js";
import { temporaryFolder } from "../../support/files.js";
import { useCliSandbox } from "../../support/sandbox.js";

const sandbox = useCliSandbox({ home: "reduck-pull-" });
const reduck = (...args: string[]) => runCli(args, { env: sandbox.env });

describe("scripts pull", () => {
  it("writes your own scripts as folders with a lock, and official ones as their contract alone, saying so", async () => {
    const dir = temporaryFolder("tree-", { inside: sandbox.home });
    const own = await reduck("scripts", "pull", "--dir", dir);
    expect(own.code, own.stderr).toBe(0);
    expect(own.stderr).toContain(`Pulled 2 scripts into ${dir}.`);
    const code = readFileSync(path.join(dir, "@demo/example.com/get_title/script.ts"), "utf8");
    expect(code).toBe("await page.goto(args.url);\nreturn { title: (await page.title()).trim() };\n");
    const contract = JSON.parse(readFileSync(path.join(dir, "@demo/example.com/get_title/contract.json"), "utf8"));
    expect(Object.keys(contract)).toEqual(["name", "description", "input_schema", "output_schema", "side_effects", "logged_in", "visibility"]);
    expect(contract.description).toBe("Opens a page and returns its title.");
    expect(existsSync(path.join(dir, "@demo/example.com/old_scraper"))).toBe(false);
    const lock = JSON.parse(readFileSync(path.join(dir, "reduck.lock.json"), "utf8"));
    expect(Object.keys(lock.scripts)).toEqual(["@demo/example.com/get_title", "@demo/news.ycombinator.com/top_stories"]);
    expect(lock.scripts["@demo/example.com/get_title"].versionNumber).toBe(2);

    const official = await reduck("scripts", "pull", "reduck/mail.google.com/send_email", "--dir", dir);
    expect(official.code, official.stderr).toBe(0);
    expect(official.stderr).toContain("The service withholds the code of 1 script: pulled their contract only (reduck/mail.google.com/send_email).");
    expect(existsSync(path.join(dir, "reduck/mail.google.com/send_email/contract.json"))).toBe(true);
    expect(existsSync(path.join(dir, "reduck/mail.google.com/send_email/script.ts"))).toBe(false);
    expect(existsSync(path.join(dir, "reduck/mail.google.com/send_email/script.js"))).toBe(false);
    expect(JSON.parse(readFileSync(path.join(dir, "reduck.lock.json"), "utf8")).scripts["reduck/mail.google.com/send_email"].codeHash).toBeNull();

    const status = await reduck("scripts", "status", "--dir", dir, "--json");
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).scripts.map((s: { state: string }) => s.state)).toEqual(["unchanged", "unchanged", "unchanged"]);
  });

  it("pulls again over what did not change here, keeps and names what did, and overwrites it with --force", async () => {
    const dir = temporaryFolder("tree-", { inside: sandbox.home });
    expect((await reduck("scripts", "pull", "--dir", dir)).code).toBe(0);
    const again = await reduck("scripts", "pull", "--dir", dir);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain("Pulled 0 scripts into");
    expect(again.stderr).toContain("(2 already up to date)");

    const file = path.join(dir, "@demo/example.com/get_title/script.ts");
    writeFileSync(file, "return { title: 'mine' };\n");
    const refused = await reduck("scripts", "pull", "--dir", dir);
    expect(refused.code).toBe(11);
    expect(refused.stderr).toContain("kept your changes to @demo/example.com/get_title/script.ts");
    expect(readFileSync(file, "utf8")).toBe("return { title: 'mine' };\n");

    // Meanwhile top_stories moved on the service: a pull updates it (unchanged here) and still keeps get_title.
    const stories = { handle: "@demo", host: "news.ycombinator.com", slug: "top_stories" };
    const newer = await createDraftScriptVersion({
      client: sandbox.client,
      path: stories,
      body: { content: "return { stories: ['newer'] };\n", note: "newer" },
    });
    await promoteScriptVersion({ client: sandbox.client, path: { ...stories, versionId: newer.data!.id } });
    const mixed = await reduck("scripts", "pull", "--dir", dir);
    expect(mixed.code).toBe(11);
    expect(readFileSync(path.join(dir, "@demo/news.ycombinator.com/top_stories/script.ts"), "utf8")).toBe("return { stories: ['newer'] };\n");
    expect(JSON.parse(readFileSync(path.join(dir, "reduck.lock.json"), "utf8")).scripts["@demo/news.ycombinator.com/top_stories"].versionId).toBe(
      newer.data!.id,
    );
    expect(readFileSync(file, "utf8")).toBe("return { title: 'mine' };\n");

    const forced = await reduck("scripts", "pull", "--dir", dir, "--force");
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(file, "utf8")).toContain("page.title()");
  });

  it("pulls a handle's scripts: all of a project's", async () => {
    const dir = temporaryFolder("tree-", { inside: sandbox.home });
    const acme = await reduck("scripts", "pull", "acme", "--dir", dir);
    expect(acme.code, acme.stderr).toBe(0);
    expect(existsSync(path.join(dir, "acme/crm.acme.test/export_contacts/contract.json"))).toBe(true);
  });

  it("refuses what is neither an address nor a handle, and an unknown handle, with exit 2", async () => {
    const dir = temporaryFolder("tree-", { inside: sandbox.home });
    const bad = await reduck("scripts", "pull", "not a handle!", "--dir", dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"not a handle!" is neither a script address');
    const unknown = await reduck("scripts", "pull", "@nobody-here", "--dir", dir);
    expect(unknown.code).toBe(2);
  });
});
