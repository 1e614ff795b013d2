import { describe, expect, it } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { reduck, useSandboxForCli } from "../harness.js";

const server = useSandboxForCli();

describe("scripts publish", () => {
  it("makes a private script public", async () => {
    const { stdout, exitCode } = await reduck("scripts", "publish", "example.com/get_title");
    expect(exitCode).toBe(0);
    expect(server.store.scripts.get(SEED_IDS.scripts.getTitle)!.visibility).toBe("public");
    expect(stdout.trim()).toBe("@demo/example.com/get_title is now public.");
  });

  it("--json prints the updated record only", async () => {
    const { json } = await reduck("scripts", "publish", "example.com/get_title", "--json");
    expect(json().visibility).toBe("public");
  });

  it("an archived script cannot be published (exit 1)", async () => {
    const { exitCode, stderr } = await reduck("scripts", "publish", "example.com/old_scraper");
    expect(exitCode).toBe(1);
    expect(stderr).toContain("is archived");
    expect(server.store.scripts.get(SEED_IDS.scripts.oldScraper)!.visibility).toBe("private");
  });
});
