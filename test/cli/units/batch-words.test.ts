import { describe, expect, it } from "vitest";
import type { BatchCounts } from "../../../src/batch/run-many.js";
import { batchWords, resumeCommand, type BatchEnded } from "../../../src/cli/batch/words.js";
import type { ReduckError } from "../../../src/core/errors.js";

const counts = (over: Partial<BatchCounts> = {}): BatchCounts => ({
  total: 3,
  totalKnown: true,
  completed: 3,
  failed: 0,
  invalid: 0,
  unknown: 0,
  inFlight: 0,
  leftRunning: 0,
  earlier: 0,
  ...over,
});
const ended = (over: Partial<BatchEnded> = {}): BatchEnded => ({
  dryRun: false,
  total: 3,
  counts: counts(),
  out: "/data/p.results.jsonl",
  stopped: false,
  resumeCommand: "reduck batch --resume",
  ...over,
});

describe("what reduck batch says when it ends, and its exit code", () => {
  it("every row completed: the counts, nothing more, exit 0", () => {
    const words = batchWords(ended());
    expect(words.summary).toBe("3 rows: 3 completed, 0 failed. Results: /data/p.results.jsonl\n");
    expect(words.after).toEqual([]);
    expect(words.exitCode).toBeUndefined();
  });

  it("failed and unknown rows: how to send them again, exit 1", () => {
    const words = batchWords(ended({ counts: counts({ completed: 1, failed: 1, unknown: 1 }) }));
    expect(words.after.join("")).toContain("1 failed (see their");
    expect(words.after.join("")).toContain("; 1 unknown (sent, but no run found");
    expect(words.exitCode).toBe(1);
  });

  it("stopped by Ctrl-C: the command to resume, exit 130; an error that stopped it is never a usage error", () => {
    expect(batchWords(ended({ stopped: true, counts: counts({ completed: 1 }) }))).toMatchObject({
      after: ["Interrupted. To continue where it stopped: reduck batch --resume\n"],
      exitCode: 130,
    });
    expect(batchWords(ended({ counts: counts({ completed: 1 }) })).summary).toContain(", 2 not run.");
    const refused = batchWords(ended({ error: { kind: "invalid_request", code: "file_changed", error: "refused" } as ReduckError }));
    expect(refused.after[1]).toBe("To continue: reduck batch --resume\n");
    expect(refused.exitCode).toBe(1);
  });

  it("a dry run with problems lists them on stderr and exits 2, unless --skip-invalid", () => {
    const found = { total: 2, invalid: 1, done: 0, toSend: 1, problems: ["row 2: to is required"] };
    const words = batchWords({ dryRun: true, found, input: "/data/p.csv", out: "/data/p.results.jsonl", skipInvalid: false });
    expect(words.before).toContain("1 of 2 rows of p.csv cannot run (nothing was sent):\n  row 2: to is required\n");
    expect(words.summary).toBe("2 rows checked: 1 run would go out, 1 invalid\n");
    expect(words.json).toEqual({ total: 2, wouldRun: 1, invalid: 1, alreadyDone: 0 });
    expect(words.exitCode).toBe(2);
    expect(batchWords({ dryRun: true, found, input: "/data/p.csv", out: "", skipInvalid: true }).exitCode).toBeUndefined();
  });

  it("the resume command keeps the arguments, quotes what the shell would split, adds --out when it was the default", () => {
    expect(resumeCommand("reduck", ["batch", "--input", "my rows.csv", "subject=it's", "--json"], "/d/x.jsonl", false)).toBe(
      "reduck batch --input 'my rows.csv' 'subject=it'\\''s' --out /d/x.jsonl --resume",
    );
    expect(resumeCommand("reduck", ["batch", "--out", "r.jsonl", "--resume"], "/d/r.jsonl", true)).toBe("reduck batch --out r.jsonl --resume");
  });

  it("the command to resume never carries an --api-key (it is printed, and written into the results file for the report)", () => {
    expect(
      resumeCommand("reduck", ["batch", "--api-key", "rk_secret1", "--input", "p.csv", "--api-key=rk_secret2", "--shard", "2/4"], "/d/p.jsonl", false),
    ).toBe("reduck batch --input p.csv --shard 2/4 --out /d/p.jsonl --resume");
  });
});
