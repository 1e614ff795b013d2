import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../../server/index.js";
import { reduck, useReferenceServer } from "../harness.js";

const server = useReferenceServer();

describe("runs trace", () => {
  it("prints the trace as JSON, with or without --json", async () => {
    const expected = server.store.runs.get(SEED_IDS.runs.error)!.trace;
    const plain = await reduck("runs", "trace", SEED_IDS.runs.error);
    expect(plain.exitCode).toBe(0);
    expect(plain.json()).toEqual(expected);
    const json = await reduck("runs", "trace", SEED_IDS.runs.error, "--json");
    expect(json.stdout).toBe(plain.stdout);
  });

  it("a run without a trace fails with the service's message (exit 1)", async () => {
    const { exitCode, stderr } = await reduck("runs", "trace", SEED_IDS.runs.sendEmail);
    expect(exitCode).toBe(1);
    expect(stderr).toContain("recorded no trace");
  });
});
