import { describe, expect, it } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { reduck, useSandboxForCli } from "../harness.js";

const server = useSandboxForCli();

describe("scripts unpublish", () => {
  it("makes a public script private", async () => {
    const { stdout, exitCode } = await reduck("scripts", "unpublish", "news.ycombinator.com/top_stories");
    expect(exitCode).toBe(0);
    expect(server.store.scripts.get(SEED_IDS.scripts.topStories)!.visibility).toBe("private");
    expect(stdout).toContain("@demo/news.ycombinator.com/top_stories is now private");
  });

  it("another user's script is not yours to change (exit 1, one JSON error with --json)", async () => {
    const { exitCode, stderr, json } = await reduck("scripts", "unpublish", "@alice/example.com/public_search", "--json");
    expect(exitCode).toBe(1);
    expect(stderr).toBe("");
    expect(json().error).toMatchObject({ exitCode: 1, status: 403 });
    expect(json().error.message).toContain("You may not change @alice/example.com/public_search");
    expect(server.store.scripts.get(SEED_IDS.scripts.alicePublic)!.visibility).toBe("public");
  });
});
