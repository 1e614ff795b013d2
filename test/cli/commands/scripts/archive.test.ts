import { describe, expect, it } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { reduck, useSandboxForCli } from "../harness.js";

const server = useSandboxForCli();

describe("scripts archive", () => {
  it("archives a script and says how to undo it", async () => {
    const { stdout, exitCode } = await reduck("scripts", "archive", "--yes", "example.com/get_title");
    expect(exitCode).toBe(0);
    expect(server.store.scripts.get(SEED_IDS.scripts.getTitle)!.archivedAt).not.toBeNull();
    expect(stdout).toContain("@demo/example.com/get_title is archived. Restore it with `reduck scripts restore @demo/example.com/get_title`.");
    const listed = (await reduck("scripts", "list", "--all", "--json")).json().data;
    expect(listed.map((s: { id: string }) => s.id)).not.toContain(SEED_IDS.scripts.getTitle);
  });

  it("--json prints the record with archived_at set", async () => {
    const { json } = await reduck("scripts", "archive", "--yes", "example.com/get_title", "--json");
    expect(json().archived_at).toEqual(expect.any(String));
  });

  it("a script in a project you only view is refused (exit 1)", async () => {
    const { exitCode, stderr } = await reduck("scripts", "archive", "--yes", "partners/partner.example/list_orders");
    expect(exitCode).toBe(1);
    expect(stderr).toContain("You may not change partners/partner.example/list_orders");
    expect(server.store.scripts.get(SEED_IDS.scripts.partnersOrders)!.archivedAt).toBeNull();
  });
});
