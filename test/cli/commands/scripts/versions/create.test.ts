import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { reduck, tempDir, useSandboxForCli } from "../../harness.js";

const server = useSandboxForCli();

describe("scripts versions create", () => {
  it("adds a draft with new code and contract, shows what changed, and leaves the current version alone", async () => {
    const dir = tempDir();
    const source = path.join(dir, "get_title.ts");
    writeFileSync(source, "await page.goto(args.url);\nreturn { title: (await page.title()).trim(), at: Date.now() };\n");
    const output = path.join(dir, "output.json");
    writeFileSync(output, JSON.stringify({ type: "object", properties: { title: { type: "string" }, at: { type: "number" } } }));

    const { stdout, stderr, exitCode } = await reduck(
      "scripts",
      "versions",
      "create",
      "example.com/get_title",
      "--note",
      "Add a timestamp",
      "--source",
      source,
      "--output-schema",
      output,
      "--side-effects",
      "write",
    );
    expect(exitCode).toBe(0);
    const script = server.store.scripts.get(SEED_IDS.scripts.getTitle)!;
    const [draft] = server.store.versionsOf(script.id);
    expect(draft!.versionNumber).toBe(3);
    expect(draft!.draft).toBe(true);
    expect(draft!.note).toBe("Add a timestamp");
    expect(draft!.content).toContain("at: Date.now()");
    expect(draft!.sideEffects).toBe("write");
    expect(draft!.outputSchema).toMatchObject({ properties: { at: { type: "number" } } });
    expect(draft!.inputSchema).toEqual(server.store.versions.get(SEED_IDS.versions.getTitleV2)!.inputSchema);
    expect(script.currentVersionId).toBe(SEED_IDS.versions.getTitleV2);

    expect(stdout).toContain(`Created draft version 3 of @demo/example.com/get_title: ${draft!.id}`);
    expect(stdout).toContain("side_effects: none -> write");
    expect(stdout).toContain("output_schema: changed");
    expect(stdout).toContain("  +return { title: (await page.title()).trim(), at: Date.now() };");
    expect(stderr).toContain(
      "Try it with `reduck run --version 3 --script @demo/example.com/get_title ...`; make it current with `reduck scripts versions promote @demo/example.com/get_title 3`.",
    );
  });

  it("--json prints the draft with its diff", async () => {
    const { json, exitCode } = await reduck("scripts", "versions", "create", "example.com/get_title", "--note", "Needs a login", "--logged-in", "--json");
    expect(exitCode).toBe(0);
    expect(json()).toMatchObject({ draft: true, note: "Needs a login", logged_in: true, diff: { fields: { logged_in: { from: "false", to: "true" } } } });
  });

  it("needs --note (exit 2) and refuses a bad schema file before sending (exit 2)", async () => {
    const before = server.store.versions.size;
    const noNote = await reduck("scripts", "versions", "create", "example.com/get_title", "--side-effects", "write");
    expect(noNote.exitCode).toBe(2);
    const bad = path.join(tempDir(), "in.json");
    writeFileSync(bad, '"a string"');
    const badSchema = await reduck("scripts", "versions", "create", "example.com/get_title", "--note", "x", "--input-schema", bad);
    expect(badSchema.exitCode).toBe(2);
    expect(badSchema.stderr).toMatch(/--input-schema .*in\.json: must hold a JSON object .*found a string/);
    expect(server.store.versions.size).toBe(before);
  });

  it("a draft identical to the current version is refused by the service (exit 1)", async () => {
    const { exitCode, stderr } = await reduck("scripts", "versions", "create", "example.com/get_title", "--note", "Same again");
    expect(exitCode).toBe(1);
    expect(stderr).toContain("identical to the current version");
  });
});
