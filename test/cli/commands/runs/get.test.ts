import { describe, expect, it } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { API_URL, reduck, useSandboxForCli } from "../harness.js";

const sandbox = useSandboxForCli();

describe("runs get", () => {
  it("shows a successful run with its result", async () => {
    const { stdout, exitCode } = await reduck("runs", "get", SEED_IDS.runs.success);
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(new RegExp(`^Run:\\s+${SEED_IDS.runs.success}$`, "m"));
    expect(stdout).toMatch(/^Status:\s+success$/m);
    expect(stdout).toMatch(/^Script:\s+@demo\/example\.com\/get_title \(version 2\)$/m);
    expect(stdout).toMatch(/^Browser:\s+extension$/m);
    expect(stdout).toMatch(/^Duration:\s+4\.2 s$/m);
    expect(stdout).toMatch(/^Arguments:\s+\{"url":"https:\/\/example\.com"\}$/m);
    expect(stdout).toContain('RESULT\n{\n  "title": "Example Domain"\n}');
  });

  it("shows a failed run's error in full, and reading it still succeeds", async () => {
    const { stdout, exitCode } = await reduck("runs", "get", SEED_IDS.runs.error);
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/^Browser:\s+managed \(eu-central-1\)$/m);
    expect(stdout).toContain("ERROR\nError: page.title: Timeout 30000ms exceeded\n  at line 2:");
  });

  it("a run still going has no result yet; --json prints the record", async () => {
    const human = await reduck("runs", "get", SEED_IDS.runs.running);
    expect(human.stdout).toContain("No result yet: the run is running.");
    const { json } = await reduck("runs", "get", SEED_IDS.runs.success, "--json");
    expect(json()).toMatchObject({ id: SEED_IDS.runs.success, status: "success", result: { result: { title: "Example Domain" } } });
  });

  it("without a credential, an id that is not one is refused first (exit 2); a run id then says how to sign in (exit 4); nothing is sent", async () => {
    process.env.REDUCK_API_KEY = "";
    const bad = await reduck("runs", "get", "../../etc");
    expect({ exitCode: bad.exitCode, stderr: bad.stderr }).toEqual({
      exitCode: 2,
      stderr: expect.stringContaining('"../../etc" is not a run id: a run id is a UUID'),
    });
    const good = await reduck("runs", "get", SEED_IDS.runs.success);
    expect(good.exitCode).toBe(4);
    expect(good.stderr).toContain(`not signed in to ${API_URL}: set REDUCK_API_KEY or run \`reduck login\``);
    expect(sandbox.store.requestLog).toEqual([]);
  });

  it("another account's run is not found (exit 1)", async () => {
    const { exitCode, stderr } = await reduck("runs", "get", SEED_IDS.runs.alice);
    expect(exitCode).toBe(1);
    expect(stderr).toContain(`No such run on this account: ${SEED_IDS.runs.alice}`);
  });
});
