import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { reduck, tempDir, useSandboxForCli } from "../../harness.js";

const server = useSandboxForCli();

describe("scripts versions update", () => {
  it("changes a draft's code, note and flags", async () => {
    const draft = server.store.addVersion(SEED_IDS.scripts.getTitle, { note: "Draft", content: "return { title: 'a' };\n", loggedIn: true });
    const source = path.join(tempDir(), "v.js");
    writeFileSync(source, "return { title: 'b' };\n");
    const { stdout, exitCode } = await reduck(
      "scripts",
      "versions",
      "update",
      "example.com/get_title",
      draft.id,
      "--source",
      source,
      "--note",
      "Better draft",
      "--no-logged-in",
      "--side-effects",
      "write",
    );
    expect(exitCode).toBe(0);
    expect(draft.content).toBe("return { title: 'b' };\n");
    expect(draft.language).toBe("javascript");
    expect(draft.note).toBe("Better draft");
    expect(draft.loggedIn).toBe(false);
    expect(draft.sideEffects).toBe("write");
    expect(stdout).toContain(`Updated draft version 3 of @demo/example.com/get_title: ${draft.id}`);
    expect(stdout).toContain("language: typescript -> javascript");
  });

  it("--json prints the updated draft", async () => {
    const draft = server.store.addVersion(SEED_IDS.scripts.getTitle, { note: "Draft", content: "return {};\n" });
    const { json } = await reduck("scripts", "versions", "update", "example.com/get_title", draft.id, "--note", "Renamed", "--json");
    expect(json()).toMatchObject({ id: draft.id, note: "Renamed", draft: true });
  });

  it("with nothing to change it is a usage error (exit 2)", async () => {
    const { exitCode, stderr } = await reduck("scripts", "versions", "update", "example.com/get_title", SEED_IDS.versions.getTitleV2);
    expect(exitCode).toBe(2);
    expect(stderr).toContain("nothing to change");
  });

  it("a promoted version cannot change (exit 1)", async () => {
    const { exitCode, stderr } = await reduck(
      "scripts",
      "versions",
      "update",
      "example.com/get_title",
      SEED_IDS.versions.getTitleV1,
      "--note",
      "Rewrite history",
    );
    expect(exitCode).toBe(1);
    expect(stderr).toContain("no longer a draft");
    expect(server.store.versions.get(SEED_IDS.versions.getTitleV1)!.note).toBe("First version");
  });
});
