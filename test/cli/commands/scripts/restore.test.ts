import { describe, expect, it } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { reduck, useSandboxForCli } from "../harness.js";

const server = useSandboxForCli();

describe("scripts restore", () => {
  it("brings an archived script back", async () => {
    expect(server.store.scripts.get(SEED_IDS.scripts.oldScraper)!.archivedAt).not.toBeNull();
    const { stdout, exitCode } = await reduck("scripts", "restore", "example.com/old_scraper");
    expect(exitCode).toBe(0);
    expect(server.store.scripts.get(SEED_IDS.scripts.oldScraper)!.archivedAt).toBeNull();
    expect(stdout.trim()).toBe("@demo/example.com/old_scraper is active again.");
  });

  it("an unknown script is not found (exit 2: an address to fix)", async () => {
    const { exitCode, stderr } = await reduck("scripts", "restore", "example.com/never_was");
    expect(exitCode).toBe(2);
    expect(stderr).toContain("No such script: @demo/example.com/never_was");
  });
});
