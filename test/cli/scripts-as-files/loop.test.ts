/**
 * The scripts-as-files loop through the CLI against the sandbox: pull, edit, status, push as
 * drafts on the pulled versions, promote; a second client meanwhile; a push cut off after its
 * first draft and run again; a new folder.
 */
import { readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createDraftScriptVersion, promoteScriptVersion } from "../../../src/index.js";
import { runCli } from "../../support/cli.js";
import { temporaryFolder } from "../../support/files.js";
import { STORIES, TITLE, useScriptsSandbox } from "./scripts-sandbox.js";

const { sandbox, reduck, pulled, scriptOf, versionsOf, lockOf } = useScriptsSandbox("reduck-loop-");

describe("the loop", () => {
  it("status and diff name exactly what changed; push makes drafts on the pulled versions; promote makes them live", async () => {
    const dir = await pulled();
    const pulledTitle = lockOf(dir)[TITLE];
    const pulledStories = lockOf(dir)[STORIES];
    const code = path.join(dir, TITLE, "script.ts");
    writeFileSync(code, readFileSync(code, "utf8").replace("return {", "await page.waitForLoadState();\nreturn {"));
    const contractFile = path.join(dir, STORIES, "contract.json");
    const contract = JSON.parse(readFileSync(contractFile, "utf8"));
    writeFileSync(contractFile, `${JSON.stringify({ ...contract, input_schema: { type: "object", properties: { limit: { type: "integer" } } } }, null, 2)}\n`);

    const status = await reduck("scripts", "status", "--dir", dir, "--exit-code");
    expect(status.code, status.stderr).toBe(10);
    expect(status.stdout).toBe(`changed here  ${TITLE} (code)\nchanged here  ${STORIES} (contract: input_schema)\n`);
    const diff = await reduck("scripts", "diff", "--dir", dir, "--json");
    expect(diff.code, diff.stderr).toBe(0);
    const diffs = JSON.parse(diff.stdout).scripts;
    expect(diffs.map((d: { address: string }) => d.address)).toEqual([TITLE, STORIES]);
    expect(diffs[0].code).toContain("+await page.waitForLoadState();");
    expect(diffs[1].fields.input_schema.to).toEqual({ type: "object", properties: { limit: { type: "integer" } } });

    const push = await reduck("scripts", "push", "--dir", dir, "--note", "Wait for load");
    expect(push.code, push.stderr).toBe(0);
    expect(push.stdout).toContain(`${TITLE}: draft version 3`);
    // The service's diff of each draft against its parent.
    expect(push.stdout).toContain("+await page.waitForLoadState();");
    expect(push.stdout).toContain("input_schema: changed");
    const titleDraft = versionsOf(TITLE)[0]!;
    const storiesDraft = versionsOf(STORIES)[0]!;
    expect([titleDraft.draft, titleDraft.parentVersionId, titleDraft.note]).toEqual([true, pulledTitle.versionId, "Wait for load"]);
    expect([storiesDraft.draft, storiesDraft.parentVersionId]).toEqual([true, pulledStories.versionId]);
    expect(lockOf(dir)[TITLE].versionId).toBe(titleDraft.id);
    // Pushed, not promoted: pending until promoted.
    expect((await reduck("scripts", "status", "--dir", dir, "--remote", "--exit-code")).code).toBe(10);
    const again = await reduck("scripts", "push", "--dir", dir, "--note", "x");
    expect(again.stderr).toContain("Nothing to push");
    expect(versionsOf(TITLE)[0]!.id).toBe(titleDraft.id);

    const promote = await reduck("scripts", "push", "--dir", dir, "--promote");
    expect(promote.code, promote.stderr).toBe(0);
    expect(scriptOf(TITLE).currentVersionId).toBe(titleDraft.id);
    expect(scriptOf(STORIES).currentVersionId).toBe(storiesDraft.id);
  });

  it("refuses a script a second client changed meanwhile, naming both versions; --force bases the draft on the current one", async () => {
    const dir = await pulled();
    const before = lockOf(dir)[TITLE];
    const [handle, host, slug] = TITLE.split("/") as [string, string, string];
    const other = await createDraftScriptVersion({
      client: sandbox.client,
      path: { handle, host, slug },
      body: { content: "return { title: 'theirs' };\n", note: "theirs" },
    });
    await promoteScriptVersion({ client: sandbox.client, path: { handle, host, slug, versionId: other.data!.id } });
    writeFileSync(path.join(dir, TITLE, "script.ts"), "return { title: 'mine' };\n");

    const status = await reduck("scripts", "status", "--dir", dir, "--remote", "--exit-code");
    expect(status.code).toBe(11);
    expect(status.stdout).toContain(
      `CONFLICT changed here  ${TITLE} (code); changed on the service: version ${before.versionNumber} -> ${other.data!.version_number}`,
    );
    const count = versionsOf(TITLE).length;
    const refused = await reduck("scripts", "push", "--dir", dir, "--note", "mine");
    expect(refused.code).toBe(11);
    expect(refused.stderr).toContain(
      `pulled version ${before.versionNumber} (${before.versionId}), current version ${other.data!.version_number} (${other.data!.id})`,
    );
    expect(refused.stderr).toContain(`reduck scripts pull ${TITLE} --dir ${dir} --force`);
    expect(versionsOf(TITLE).length).toBe(count);

    const forced = await reduck("scripts", "push", "--dir", dir, "--note", "mine", "--force");
    expect(forced.code, forced.stderr).toBe(0);
    expect(versionsOf(TITLE)[0]!.parentVersionId).toBe(other.data!.id);
  });

  it("creates a new folder as a new script whose first version is a draft", async () => {
    const dir = await pulled();
    const folder = path.join(dir, "@demo/example.com/get_heading");
    const contract = {
      name: "Get heading",
      description: "Reads the first heading",
      input_schema: { type: "object" },
      output_schema: { type: "object" },
      side_effects: "none",
    };
    await import("node:fs/promises").then((fs) => fs.mkdir(folder, { recursive: true }));
    writeFileSync(path.join(folder, "contract.json"), `${JSON.stringify(contract, null, 2)}\n`);
    writeFileSync(path.join(folder, "script.js"), "return { heading: 'h1' };\n");
    expect((await reduck("scripts", "status", "--dir", dir)).stdout).toContain("new here      @demo/example.com/get_heading");
    const push = await reduck("scripts", "push", "--dir", dir, "--note", "New script");
    expect(push.code, push.stderr).toBe(0);
    const made = scriptOf("@demo/example.com/get_heading");
    expect(made.currentVersionId).toBeNull();
    expect(versionsOf("@demo/example.com/get_heading").map((v) => [v.draft, v.content])).toEqual([[true, "return { heading: 'h1' };\n"]]);
    expect(lockOf(dir)["@demo/example.com/get_heading"].versionNumber).toBe(1);
  });

  it("a push cut off after its first draft, run again, makes each draft once", async () => {
    const dir = await pulled();
    for (const key of [TITLE, STORIES]) {
      const file = path.join(dir, key, "script.ts");
      writeFileSync(file, `${readFileSync(file, "utf8")}// touched\n`);
    }
    const counts = () => [TITLE, STORIES].map((k) => versionsOf(k).length);
    const start = counts();
    // A proxy that lets the first draft reach the sandbox, then drops the connection before its answer.
    let cut = false;
    const upstream = new URL(sandbox.server.url);
    const proxy = http.createServer((req, res) => {
      const forward = http.request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        if (!cut && req.method === "POST" && /\/versions$/.test(req.url ?? "")) {
          cut = true;
          answer.resume();
          answer.on("end", () => req.socket.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const port = (proxy.address() as { port: number }).port;
    try {
      const broken = await runCli(["scripts", "push", "--dir", dir, "--note", "Touched"], {
        env: { ...sandbox.env, REDUCK_API_URL: `http://127.0.0.1:${port}` },
      });
      expect(broken.code).not.toBe(0);
      expect(cut).toBe(true);
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
    const rerun = await reduck("scripts", "push", "--dir", dir, "--note", "Touched");
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(counts()).toEqual(start.map((n) => n + 1));
    expect(rerun.stdout).toMatch(/already had draft version/);
    // Nothing changed here since the push; both drafts wait for --promote.
    expect((await reduck("scripts", "status", "--dir", dir)).stdout).toMatch(
      new RegExp(`^not promoted  ${TITLE} \\(pushed as draft version \\d+; .*\nnot promoted  ${STORIES} \\(pushed as draft version \\d+; .*\n$`),
    );
  });

  it("test runs the folder's code as a draft, once made, reused by a second test and by push; a failure says how to see it", async () => {
    const dir = await pulled();
    const file = path.join(dir, TITLE, "script.ts");
    writeFileSync(file, "await page.goto(args.url);\nreturn { title: 'from the folder' };\n");
    const count = versionsOf(TITLE).length;
    const first = await reduck("scripts", "test", path.join(dir, TITLE), "--dir", dir, "url=https://example.com");
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ title: "from the folder" });
    expect(first.stderr).toContain("(made now)");
    const draft = versionsOf(TITLE)[0]!;
    expect([draft.draft, draft.content, versionsOf(TITLE).length]).toEqual([
      true,
      "await page.goto(args.url);\nreturn { title: 'from the folder' };\n",
      count + 1,
    ]);
    const runs = [...sandbox.store.runs.values()].filter((r) => r.script?.version_id === draft.id);
    expect(runs.length).toBe(1);

    const second = await reduck("scripts", "test", TITLE, "--dir", dir, "url=https://example.com");
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toContain("(made now)");
    const push = await reduck("scripts", "push", "--dir", dir, "--note", "Tested");
    expect(push.code, push.stderr).toBe(0);
    expect(push.stdout).toContain(`already had draft version ${draft.versionNumber}`);
    expect(versionsOf(TITLE).length).toBe(count + 1);

    writeFileSync(file, "throw new Error('broken on purpose');\n");
    const failed = await reduck("scripts", "test", TITLE, "--dir", dir, "url=https://example.com");
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/reduck runs trace [0-9a-f-]{36} --open/);
  });

  it("in a tree pulled on another machine, diff and status --remote read the pulled versions from the service", async () => {
    const dir = await pulled();
    const code = path.join(dir, TITLE, "script.ts");
    writeFileSync(code, readFileSync(code, "utf8").replace("return {", "// elsewhere\nreturn {"));
    const contractFile = path.join(dir, TITLE, "contract.json");
    writeFileSync(contractFile, readFileSync(contractFile, "utf8").replace('"description": "', '"description": "Now: '));
    // Another machine: the same tree (a clone), a config folder of its own.
    const elsewhere = { ...sandbox.env, REDUCK_CONFIG_DIR: temporaryFolder("config-", { inside: sandbox.home }) };
    const offline = await runCli(["scripts", "status", "--dir", dir], { env: elsewhere });
    expect(offline.stdout).toBe(`changed here  ${TITLE} (code; contract)\n`);
    const remote = await runCli(["scripts", "status", "--dir", dir, "--remote"], { env: elsewhere });
    expect(remote.stdout).toBe(`changed here  ${TITLE} (code; contract: description)\n`);
    const diff = await runCli(["scripts", "diff", "--dir", dir, "--json"], {
      env: { ...elsewhere, REDUCK_CONFIG_DIR: temporaryFolder("config-", { inside: sandbox.home }) },
    });
    expect(diff.code, diff.stderr).toBe(0);
    const [one] = JSON.parse(diff.stdout).scripts;
    expect(one.code).toContain("+// elsewhere");
    expect(one.fields.description).toEqual({ from: "Opens a page and returns its title.", to: "Now: Opens a page and returns its title." });
  });
});
