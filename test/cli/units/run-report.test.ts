import { describe, expect, test } from "vitest";
import { formatElapsed } from "../../../src/cli/run/progress-lines.js";
import { endedOf, reportOf } from "../../../src/cli/run/run-report.js";
import type { RunResult } from "../../../src/index.js";

const failed = (error: RunResult<never>["error"], outcomes?: RunResult<never>["outcomes"]): RunResult<unknown> =>
  ({ data: undefined, error, outcomes, response: undefined }) as RunResult<unknown>;

describe("a run's result as the CLI reports it", () => {
  test("a wait that stopped is the command's error, with the command that waits again from its fields", () => {
    const e = (() => {
      try {
        endedOf(failed({ kind: "aborted", code: "run_continues", batchId: "b1", error: "the library's words, whatever they are" }));
      } catch (err) {
        return err as { message: string; exitCode: number; detail: Record<string, unknown> };
      }
      throw new Error("no error");
    })();
    expect(e.message).toBe("the library's words, whatever they are. In the CLI: `reduck runs wait b1`.");
    expect(e.exitCode).toBe(130);
    expect(e.detail).toMatchObject({ kind: "aborted", code: "run_continues", batchId: "b1" });
  });

  test("a poll that kept failing: the run goes on, said from the code, not the message", () => {
    const error = { kind: "network", cause: "ECONNRESET", code: "run_continues", runId: "r2", error: "polling run r2: reset" } as const;
    expect(() => endedOf(failed(error))).toThrow("polling run r2: reset. In the CLI: `reduck runs wait r2`.");
  });

  test("a run's own failure is its outcome, printed as the library gives it; the service's sentences gain the CLI's way out", () => {
    const outcome = {
      status: "failed" as const,
      runId: "r1",
      error: 'no connector for x.com: ... or run in your own browser (browser: "extension")',
      errorType: "browser_unavailable",
    };
    const ended = endedOf(failed({ kind: "run_failed", runId: "r1", error: outcome.error, errorType: "browser_unavailable" }, [outcome]));
    expect(ended).toEqual({
      outcomes: [{ ...outcome, error: `${outcome.error}. In the CLI: --browser extension.` }],
    });
  });

  test("a batch keeps its own fields beside the outcomes; a pending run is its handle", () => {
    const runs = [{ status: "completed" as const, runId: "r1", result: 1 }];
    const batch = { batchId: "b3", status: "completed" as const, totalSteps: 1, runs };
    expect(endedOf({ data: batch, error: undefined, outcomes: runs, response: undefined })).toEqual({
      outcomes: runs,
      batch: { batchId: "b3", status: "completed", totalSteps: 1 },
    });
    const pending = { status: "running" as const, batchId: "b4" };
    expect(reportOf({ data: pending, error: undefined, response: undefined })).toEqual({ pending });
  });

  test("elapsed time as the status line shows it", () => {
    expect(formatElapsed(8_400)).toBe("8s");
    expect(formatElapsed(72_000)).toBe("1m12s");
    expect(formatElapsed(3_605_000)).toBe("60m05s");
  });
});
