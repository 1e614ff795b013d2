import { describe, expect, it } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { reduck, useSandboxForCli } from "../../harness.js";

const server = useSandboxForCli();

function addDraft() {
  return server.store.addVersion(SEED_IDS.scripts.getTitle, { note: "Work in progress", content: "return { title: 'draft' };\n" });
}

describe("scripts versions list", () => {
  it("lists versions newest first, marking current, promoted and draft", async () => {
    const draft = addDraft();
    const { stdout, exitCode } = await reduck("scripts", "versions", "list", "example.com/get_title");
    expect(exitCode).toBe(0);
    const rows = stdout
      .trimEnd()
      .split("\n")
      .map((r) => r.split("\t"));
    expect(rows).toHaveLength(3);
    expect(rows[0]).toEqual(["3", draft.id, "draft", "none", expect.stringMatching(/Z$/), "@demo", "Work in progress"]);
    expect(rows[1]!.slice(0, 3)).toEqual(["2", SEED_IDS.versions.getTitleV2, "current"]);
    expect(rows[2]!.slice(0, 3)).toEqual(["1", SEED_IDS.versions.getTitleV1, "promoted"]);
    expect(rows[2]!.at(-1)).toMatch(/First version$/);
  });

  it("--draft and --promoted filter; they exclude each other", async () => {
    const draft = addDraft();
    const drafts = (await reduck("scripts", "versions", "list", "example.com/get_title", "--draft", "--json")).json().data;
    expect(drafts.map((v: { id: string }) => v.id)).toEqual([draft.id]);
    const promoted = (await reduck("scripts", "versions", "list", "example.com/get_title", "--promoted", "--json")).json().data;
    expect(promoted.map((v: { id: string }) => v.id)).toEqual([SEED_IDS.versions.getTitleV2, SEED_IDS.versions.getTitleV1]);
    const both = await reduck("scripts", "versions", "list", "example.com/get_title", "--draft", "--promoted");
    expect(both.exitCode).toBe(2);
  });

  it("pages, with a note, and --all gathers them", async () => {
    const { stdout, stderr } = await reduck("scripts", "versions", "list", "example.com/get_title", "--page-size", "1");
    expect(stdout.trimEnd().split("\n")).toHaveLength(1);
    expect(stderr).toContain("Showing 1 of 2. More with --page 1, or everything with --all.");
    const all = (await reduck("scripts", "versions", "list", "example.com/get_title", "--page-size", "1", "--all", "--json")).json();
    expect(all.data).toHaveLength(2);
    expect(all.hasNextPage).toBe(false);
  });

  it("others do not see drafts, and official notes stay hidden", async () => {
    const catalogue = await reduck("scripts", "versions", "list", "reduck/mail.google.com/send_email");
    expect(catalogue.exitCode).toBe(0);
    expect(catalogue.stdout).toMatch(/\tcurrent\twrite\t.*\t\(hidden\)$/m);
  });

  it("an address the service does not know is a usage error (exit 2), with the script most likely meant", async () => {
    for (const json of [[], ["--json"]]) {
      const typo = await reduck("scripts", "versions", "list", "reduck/mail.google.com/send_emial", ...json);
      expect(typo.exitCode, json.join(" ")).toBe(2);
      const line =
        "listing the versions of reduck/mail.google.com/send_emial: No such script: reduck/mail.google.com/send_emial. Did you mean reduck/mail.google.com/send_email?";
      if (json.length) expect(typo.json().error.message).toBe(line);
      else expect(typo.stderr).toBe(`Error: ${line}\n`);
    }
    // Without a handle: one of your own, and the hint says which of yours was meant.
    const own = await reduck("scripts", "versions", "list", "example.com/get_titel");
    expect(own.exitCode).toBe(2);
    expect(own.stderr).toContain("No such script: @demo/example.com/get_titel. Did you mean @demo/example.com/get_title?");
    // Nothing close is still an address to fix.
    const nothing = await reduck("scripts", "versions", "list", "reduck/nowhere.example/nothing");
    expect(nothing.exitCode).toBe(2);
    expect(nothing.stderr).toMatch(/^Error: listing the versions of reduck\/nowhere\.example\/nothing: No such script: [^\n]*\n$/);
  });
});
