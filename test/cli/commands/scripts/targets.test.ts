import { describe, expect, it } from "vitest";
import { reduck, useSandboxForCli } from "../harness.js";

useSandboxForCli();

describe("scripts targets", () => {
  it("lists the scopes a script can move to as a table", async () => {
    const { stdout, stderr, exitCode } = await reduck("scripts", "targets", "example.com/get_title");
    expect(exitCode).toBe(0);
    expect(stdout).toBe("acme\tproject\tAcme Corp\tyes\n");
    expect(stderr).toContain("reduck scripts transfer @demo/example.com/get_title --to HANDLE");
  });

  it("--json prints the targets array", async () => {
    const { json } = await reduck("scripts", "targets", "acme/crm.acme.test/export_contacts", "--json");
    expect(json()).toEqual([{ kind: "user", handle: "@demo", name: "Demo User", can_transfer_out: true }]);
  });

  it("a script you may not move is refused (exit 1)", async () => {
    const { exitCode, stderr } = await reduck("scripts", "targets", "reduck/mail.google.com/send_email");
    expect(exitCode).toBe(1);
    expect(stderr).toContain("You may not transfer reduck/mail.google.com/send_email");
  });
});
