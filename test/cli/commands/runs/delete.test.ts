import { describe, expect, it } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { reduck, useSandboxForCli } from "../harness.js";

const server = useSandboxForCli();

describe("runs delete", () => {
  it("deletes one finished run", async () => {
    const { stdout, exitCode } = await reduck("runs", "delete", "--yes", SEED_IDS.runs.success);
    expect(exitCode).toBe(0);
    expect(server.store.runs.has(SEED_IDS.runs.success)).toBe(false);
    expect(stdout.trim()).toBe(`Deleted run ${SEED_IDS.runs.success}`);
  });

  it("one run that cannot go is an error saying why (exit 1)", async () => {
    const { exitCode, stderr } = await reduck("runs", "delete", "--yes", SEED_IDS.runs.running);
    expect(exitCode).toBe(1);
    expect(stderr).toContain("is running: only finished runs");
    expect(server.store.runs.has(SEED_IDS.runs.running)).toBe(true);
  });

  it("several: deletes what it can in one batch, reports the skipped and exits 1", async () => {
    const ids = [SEED_IDS.runs.success, SEED_IDS.runs.running, SEED_IDS.runs.cancelled, SEED_IDS.runs.alice];
    const { stdout, stderr, exitCode } = await reduck("runs", "delete", "--yes", ...ids);
    expect(exitCode).toBe(1);
    expect(server.store.runs.has(SEED_IDS.runs.success)).toBe(false);
    expect(server.store.runs.has(SEED_IDS.runs.cancelled)).toBe(false);
    expect(server.store.runs.has(SEED_IDS.runs.running)).toBe(true);
    expect(server.store.runs.has(SEED_IDS.runs.alice)).toBe(true);
    expect(stdout).toBe(`Deleted 2 runs:\n${SEED_IDS.runs.success}\n${SEED_IDS.runs.cancelled}\n`);
    expect(stderr).toContain(`Skipped 2 (unknown, not yours, or still queued or running):\n${SEED_IDS.runs.running}\n${SEED_IDS.runs.alice}`);
  });

  it("--json prints one document with deleted and skipped ids; all deleted exits 0", async () => {
    const { json, exitCode } = await reduck("runs", "delete", "--yes", SEED_IDS.runs.success, SEED_IDS.runs.error, "--json");
    expect(exitCode).toBe(0);
    expect(json()).toEqual({ deletedIds: [SEED_IDS.runs.success, SEED_IDS.runs.error], skippedIds: [] });
    const single = await reduck("runs", "delete", "--yes", SEED_IDS.runs.cancelled, "--json");
    expect(single.json()).toEqual({ deletedIds: [SEED_IDS.runs.cancelled], skippedIds: [] });
  });

  it("more than 100 ids go in batches of 100", async () => {
    const runs = Array.from({ length: 130 }, () => server.store.addRun({ status: "success" }));
    const { json, exitCode } = await reduck("runs", "delete", "--yes", ...runs.map((r) => r.id), "--json");
    expect(exitCode).toBe(0);
    expect(json().deletedIds).toHaveLength(130);
    expect(runs.some((r) => server.store.runs.has(r.id))).toBe(false);
  });

  it("without an id it is a usage error (exit 2), and no more than that", async () => {
    // oclif warns "did not parse its arguments" after a refused parse when NODE_ENV is test (as here).
    const warnings: string[] = [];
    const collect = (warning: Error) => warnings.push(warning.message);
    process.on("warning", collect);
    try {
      const { exitCode } = await reduck("runs", "delete");
      expect(exitCode).toBe(2);
      await new Promise((resolve) => setImmediate(resolve)); // process warnings are emitted on the next tick
    } finally {
      process.off("warning", collect);
    }
    expect(warnings).toEqual([]);
  });
});
