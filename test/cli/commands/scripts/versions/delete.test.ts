import { describe, expect, it } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { reduck, useSandboxForCli } from "../../harness.js";

const server = useSandboxForCli();

describe("scripts versions delete", () => {
  it("discards a draft", async () => {
    const draft = server.store.addVersion(SEED_IDS.scripts.getTitle, { note: "Scrap", content: "return {};\n" });
    const { stdout, exitCode } = await reduck("scripts", "versions", "delete", "--yes", "example.com/get_title", draft.id);
    expect(exitCode).toBe(0);
    expect(server.store.versions.has(draft.id)).toBe(false);
    expect(stdout.trim()).toBe(`Deleted draft ${draft.id} of @demo/example.com/get_title`);
  });

  it("--json prints one document saying what was deleted", async () => {
    const draft = server.store.addVersion(SEED_IDS.scripts.getTitle, { note: "Scrap", content: "return {};\n" });
    const { json } = await reduck("scripts", "versions", "delete", "--yes", "example.com/get_title", draft.id, "--json");
    expect(json()).toEqual({ address: "@demo/example.com/get_title", versionId: draft.id, deleted: true });
  });

  it("a promoted version stays (exit 1)", async () => {
    const { exitCode, stderr } = await reduck("scripts", "versions", "delete", "--yes", "example.com/get_title", SEED_IDS.versions.getTitleV1);
    expect(exitCode).toBe(1);
    expect(stderr).toContain("no longer a draft");
    expect(server.store.versions.has(SEED_IDS.versions.getTitleV1)).toBe(true);
  });
});
