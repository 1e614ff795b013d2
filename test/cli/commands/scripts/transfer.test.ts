import { describe, expect, it } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { reduck, useSandboxForCli } from "../harness.js";

const server = useSandboxForCli();

describe("scripts transfer", () => {
  it("moves a script into a project; its address changes", async () => {
    const { stdout, exitCode } = await reduck("scripts", "transfer", "--yes", "example.com/get_title", "--to", "acme");
    expect(exitCode).toBe(0);
    const script = server.store.scripts.get(SEED_IDS.scripts.getTitle)!;
    expect(server.store.handleOf(script.owner)).toBe("acme");
    expect(stdout.trim()).toBe("Moved @demo/example.com/get_title to acme: it is now acme/example.com/get_title");
  });

  it("--json prints the new address", async () => {
    const { json } = await reduck("scripts", "transfer", "--yes", "acme/crm.acme.test/export_contacts", "--to", "@demo", "--json");
    expect(json()).toEqual({
      handle: "@demo",
      host: "crm.acme.test",
      slug: "export_contacts",
      address: "@demo/crm.acme.test/export_contacts",
      from: "acme/crm.acme.test/export_contacts",
    });
    expect(server.store.findScriptByAddress("@demo", "crm.acme.test", "export_contacts")?.id).toBe(SEED_IDS.scripts.acmeExport);
  });

  it("needs --to (exit 2), and a destination you may create in (exit 1)", async () => {
    const missing = await reduck("scripts", "transfer", "--yes", "example.com/get_title");
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("missing required flag --to: see `reduck scripts transfer --help`");

    const refused = await reduck("scripts", "transfer", "--yes", "example.com/get_title", "--to", "partners");
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain("You may not transfer to partners");
    expect(server.store.handleOf(server.store.scripts.get(SEED_IDS.scripts.getTitle)!.owner)).toBe("@demo");
  });

  it("a destination the service does not know is a usage error (exit 2) naming the handle most likely meant", async () => {
    const cases: Array<[string, string]> = [
      ["acmee", "Did you mean acme?"],
      ["demo", "Did you mean @demo? A person's handle starts with @."],
      ["nobody-here", "Your handles: @demo, acme, partners; the official catalogue: reduck."],
    ];
    for (const [to, hint] of cases) {
      const { exitCode, stderr } = await reduck("scripts", "transfer", "--yes", "example.com/get_title", "--to", to);
      expect(exitCode, to).toBe(2);
      expect(stderr).toBe(`Error: transferring @demo/example.com/get_title to ${to}: No such handle: ${to}. ${hint}\n`);
    }
    expect(server.store.handleOf(server.store.scripts.get(SEED_IDS.scripts.getTitle)!.owner)).toBe("@demo");
  });
});
