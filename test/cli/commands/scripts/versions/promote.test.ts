import { describe, expect, it } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { reduck, useSandboxForCli } from "../../harness.js";

const server = useSandboxForCli();
const getTitle = () => server.store.scripts.get(SEED_IDS.scripts.getTitle)!;

describe("scripts versions promote", () => {
  it("makes a draft the current version", async () => {
    const draft = server.store.addVersion(SEED_IDS.scripts.getTitle, { note: "Ship it", content: "return { title: 'new' };\n" });
    const { stdout, exitCode } = await reduck("scripts", "versions", "promote", "example.com/get_title", draft.id);
    expect(exitCode).toBe(0);
    expect(getTitle().currentVersionId).toBe(draft.id);
    expect(draft.draft).toBe(false);
    expect(stdout.trim()).toBe(`Version 3 (${draft.id}) is now the current version of @demo/example.com/get_title.`);
  });

  it("rolls back to an earlier version; --json prints it", async () => {
    const { json, exitCode } = await reduck("scripts", "versions", "promote", "example.com/get_title", SEED_IDS.versions.getTitleV1, "--json");
    expect(exitCode).toBe(0);
    expect(getTitle().currentVersionId).toBe(SEED_IDS.versions.getTitleV1);
    expect(json()).toMatchObject({ id: SEED_IDS.versions.getTitleV1, version_number: 1, draft: false });
  });

  it("an archived script promotes nothing (exit 1)", async () => {
    const { exitCode, stderr } = await reduck("scripts", "versions", "promote", "example.com/old_scraper", SEED_IDS.versions.oldScraperV1);
    expect(exitCode).toBe(1);
    expect(stderr).toContain("is archived");
  });
});
