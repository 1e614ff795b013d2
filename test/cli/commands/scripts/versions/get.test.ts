import { describe, expect, it } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { reduck, useSandboxForCli } from "../../harness.js";

const server = useSandboxForCli();

describe("scripts versions get", () => {
  it("shows one version's note, contract and code", async () => {
    const { stdout, exitCode } = await reduck("scripts", "versions", "get", "example.com/get_title", SEED_IDS.versions.getTitleV1, "--code");
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/^Address:\s+@demo\/example\.com\/get_title$/m);
    expect(stdout).toMatch(/^Version:\s+1 \(promoted; id 00000000-0000-4000-8004-000000000001\)$/m);
    expect(stdout).toMatch(/^Note:\s+First version$/m);
    expect(stdout).toMatch(/^url\s+string\s+yes\s+Page to read\.$/m);
    expect(stdout).toContain(`CODE (typescript)\n${server.store.versions.get(SEED_IDS.versions.getTitleV1)!.content.trimEnd()}`);
  });

  it("a draft is labelled as one; --json prints the version record", async () => {
    const draft = server.store.addVersion(SEED_IDS.scripts.getTitle, { note: "Try", content: "return { title: 'x' };\n" });
    const human = await reduck("scripts", "versions", "get", "example.com/get_title", draft.id);
    expect(human.stdout).toMatch(/^Version:\s+3 \(draft; id /m);
    const { json } = await reduck("scripts", "versions", "get", "example.com/get_title", draft.id, "--json");
    expect(json()).toMatchObject({ id: draft.id, draft: true, note: "Try", content: "return { title: 'x' };\n" });
  });

  it("says the service withholds an official version's code", async () => {
    const script = server.store.findScriptByAddress("reduck", "mail.google.com", "send_email")!;
    const { stdout } = await reduck("scripts", "versions", "get", "reduck/mail.google.com/send_email", script.currentVersionId!, "--code");
    expect(stdout).toContain("CODE\nwithheld by the service");
  });

  it("an unknown version is not found (exit 1); a missing argument is a usage error (exit 2)", async () => {
    const unknown = await reduck("scripts", "versions", "get", "example.com/get_title", "00000000-0000-4000-8004-0000000000ff");
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain("No such version");
    const missing = await reduck("scripts", "versions", "get", "example.com/get_title");
    expect(missing.exitCode).toBe(2);
  });
});
