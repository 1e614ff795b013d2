import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../../../server/index.js";
import { reduck, useReferenceServer } from "../../harness.js";

const server = useReferenceServer();

function addDraft() {
  return server.store.addVersion(SEED_IDS.scripts.getTitle, { note: "Work in progress", content: "return { title: 'draft' };\n" });
}

describe("scripts versions list", () => {
  it("lists versions newest first, marking current, promoted and draft", async () => {
    const draft = addDraft();
    const { stdout, exitCode } = await reduck("scripts", "versions", "list", "example.com/get_title");
    expect(exitCode).toBe(0);
    const [header, ...rows] = stdout.trimEnd().split("\n");
    expect(header).toMatch(/^VERSION\s+ID\s+STATUS\s+SIDE EFFECTS\s+CREATED\s+BY\s+NOTE$/);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(new RegExp(`^3\\s+${draft.id}\\s+draft\\s+none\\s+\\S+\\s+@demo\\s+Work in progress$`));
    expect(rows[1]).toMatch(new RegExp(`^2\\s+${SEED_IDS.versions.getTitleV2}\\s+current\\s+`));
    expect(rows[2]).toMatch(new RegExp(`^1\\s+${SEED_IDS.versions.getTitleV1}\\s+promoted\\s+.*First version$`));
  });

  it("--draft and --promoted filter; they exclude each other", async () => {
    const draft = addDraft();
    const drafts = (await reduck("scripts", "versions", "list", "example.com/get_title", "--draft", "--json")).json<Array<{ id: string }>>();
    expect(drafts.map((v) => v.id)).toEqual([draft.id]);
    const promoted = (await reduck("scripts", "versions", "list", "example.com/get_title", "--promoted", "--json")).json<Array<{ id: string }>>();
    expect(promoted.map((v) => v.id)).toEqual([SEED_IDS.versions.getTitleV2, SEED_IDS.versions.getTitleV1]);
    const both = await reduck("scripts", "versions", "list", "example.com/get_title", "--draft", "--promoted");
    expect(both.exitCode).toBe(2);
  });

  it("pages, with a note, and --all gathers them", async () => {
    const { stdout, stderr } = await reduck("scripts", "versions", "list", "example.com/get_title", "--page-size", "1");
    expect(stdout.trimEnd().split("\n")).toHaveLength(2);
    expect(stderr).toContain("Showing 1 of 2. More with --page 1, or everything with --all.");
    const all = (await reduck("scripts", "versions", "list", "example.com/get_title", "--page-size", "1", "--all", "--json")).json<unknown[]>();
    expect(all).toHaveLength(2);
  });

  it("others do not see drafts, and official notes stay hidden", async () => {
    const catalogue = await reduck("scripts", "versions", "list", "reduck/mail.google.com/send_email");
    expect(catalogue.exitCode).toBe(0);
    expect(catalogue.stdout).toMatch(/current\s+write\s+.*\(hidden\)$/m);
  });
});
