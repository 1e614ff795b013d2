// The resume decisions on their own: for each state a journal can leave a key in, what a resumed
// batch does with the row. The end-to-end proof (SIGKILL halfway, every row run once at the
// sandbox) is test/e2e/batch-resume.test.ts; this names each case.
import { describe, expect, it } from "vitest";
import type { KeyState, RowOutcome } from "../../src/batch/journal.js";
import { planRow } from "../../src/batch/resume.js";

const outcome = (status: RowOutcome["status"], runId: string | null = null): RowOutcome => ({ row: 1, key: "k", status, runId });

describe("planRow", () => {
  it("sends a row the journal has never seen", () => {
    expect(planRow(undefined, true, {})).toEqual({ kind: "send" });
  });

  it("reports a new row that fails its contract as invalid", () => {
    expect(planRow(undefined, false, {})).toEqual({ kind: "invalid" });
  });

  it("counts a completed row as done earlier, even when asked to retry", () => {
    expect(planRow({ outcome: outcome("completed", "r1") }, true, { retryFailed: true, retryUnknown: true })).toEqual({ kind: "earlier", status: "completed" });
  });

  it("sends a failed row again only with retryFailed", () => {
    const failed: KeyState = { outcome: outcome("failed", "r1") };
    expect(planRow(failed, true, {})).toEqual({ kind: "earlier", status: "failed" });
    expect(planRow(failed, true, { retryFailed: true })).toEqual({ kind: "send" });
  });

  it("waits again on an unknown row whose run id is known, and never sends it", () => {
    expect(planRow({ outcome: outcome("unknown", "r7") }, true, { retryUnknown: true })).toEqual({ kind: "wait", target: "r7" });
  });

  it("sends an unknown row with no run id again only with retryUnknown", () => {
    const unknown: KeyState = { outcome: outcome("unknown") };
    expect(planRow(unknown, true, {})).toEqual({ kind: "earlier", status: "unknown" });
    expect(planRow(unknown, true, { retryUnknown: true })).toEqual({ kind: "send" });
  });

  it("waits on a row the service accepted (a run id, or a place in a batch)", () => {
    expect(planRow({ sendingAt: "2026-11-25T10:00:00.000Z", runId: "r2" }, true, {})).toEqual({ kind: "wait", target: "r2" });
    expect(planRow({ sendingAt: "2026-11-25T10:00:00.000Z", batchId: "b1", batchIndex: 0 }, true, {})).toEqual({
      kind: "wait",
      target: { batchId: "b1", index: 0 },
    });
  });

  it("looks for the run of a row left `sending` with no answer", () => {
    expect(planRow({ sendingAt: "2026-11-25T10:00:00.000Z" }, true, {})).toEqual({ kind: "adopt", sendingAt: Date.parse("2026-11-25T10:00:00.000Z") });
  });
});
