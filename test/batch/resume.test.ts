// The resume decisions on their own: for each state a journal can leave a key in, what a resumed
// batch does with the row. The end-to-end proof (SIGKILL halfway, every row run once at the
// sandbox) is test/e2e/batch-resume.test.ts; this names each case.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readJournal, type KeyState, type RowOutcome } from "../../src/batch/journal.js";
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
    expect(planRow({ outcome: outcome("completed", "00000000-0000-4000-8001-000000000001") }, true, { retryFailed: true, retryUnknown: true })).toEqual({
      kind: "earlier",
      status: "completed",
    });
  });

  it("sends a failed row again only with retryFailed", () => {
    const failed: KeyState = { outcome: outcome("failed", "00000000-0000-4000-8001-000000000001") };
    expect(planRow(failed, true, {})).toEqual({ kind: "earlier", status: "failed" });
    expect(planRow(failed, true, { retryFailed: true })).toEqual({ kind: "send" });
  });

  it("waits again on an unknown row whose run id is known, and never sends it", () => {
    expect(planRow({ outcome: outcome("unknown", "00000000-0000-4000-8001-000000000007") }, true, { retryUnknown: true })).toEqual({
      kind: "wait",
      target: "00000000-0000-4000-8001-000000000007",
    });
  });

  it("sends an unknown row with no run id again only with retryUnknown", () => {
    const unknown: KeyState = { outcome: outcome("unknown") };
    expect(planRow(unknown, true, {})).toEqual({ kind: "earlier", status: "unknown" });
    expect(planRow(unknown, true, { retryUnknown: true })).toEqual({ kind: "send" });
  });

  it("waits on a row the service accepted (a run id, or a place in a batch)", () => {
    expect(planRow({ sendingAt: "2026-11-25T10:00:00.000Z", runId: "00000000-0000-4000-8001-000000000002" }, true, {})).toEqual({
      kind: "wait",
      target: "00000000-0000-4000-8001-000000000002",
    });
    expect(planRow({ sendingAt: "2026-11-25T10:00:00.000Z", batchId: "00000000-0000-4000-8002-000000000001", batchIndex: 0 }, true, {})).toEqual({
      kind: "wait",
      target: { batchId: "00000000-0000-4000-8002-000000000001", index: 0 },
    });
  });

  it("looks for the run of a row left `sending` with no answer", () => {
    expect(planRow({ sendingAt: "2026-11-25T10:00:00.000Z" }, true, {})).toEqual({ kind: "adopt", sendingAt: Date.parse("2026-11-25T10:00:00.000Z") });
  });
});

describe("readJournal", () => {
  it("drops a run or batch id that is not one (a hand edit, another program's line), saying so, so a resume never puts it in a URL", async () => {
    const folder = await mkdtemp(join(tmpdir(), "reduck-journal-ids-"));
    try {
      const file = join(folder, "results.jsonl");
      const good = "00000000-0000-4000-8001-000000000001";
      const lines = [
        { row: 1, key: "a", status: "sending", at: "2026-01-01T00:00:00.000Z" },
        { row: 1, key: "a", status: "accepted", runId: "../../api/me" },
        { row: 2, key: "b", status: "sending", at: "2026-01-01T00:00:00.000Z" },
        { row: 2, key: "b", status: "accepted", batchId: "x/../y", index: 0 },
        { row: 3, key: "c", status: "unknown", runId: "..", error: "lost" },
        { row: 4, key: "d", status: "accepted", runId: good },
      ];
      await writeFile(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
      const { states, runIds, warnings } = await readJournal(file);
      expect(warnings).toEqual([
        `${file}: ignored the run id on line 2, "../../api/me", which is not one (a UUID)`,
        `${file}: ignored the batch id on line 4, "x/../y", which is not one (a UUID)`,
        `${file}: ignored the run id on line 5, "..", which is not one (a UUID)`,
      ]);
      expect([...runIds]).toEqual([good]);
      expect(planRow(states.get("a"), true, {})).toMatchObject({ kind: "adopt" });
      expect(planRow(states.get("b"), true, {})).toMatchObject({ kind: "adopt" });
      expect(states.get("c")?.outcome).toMatchObject({ status: "unknown", runId: null });
      expect(planRow(states.get("c"), true, { retryUnknown: true })).toMatchObject({ kind: "send" });
      expect(planRow(states.get("d"), true, {})).toEqual({ kind: "wait", target: good });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
