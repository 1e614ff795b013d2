import { describe, expect, test } from "vitest";
import { cliErrorOf, formatElapsed, outcomeOfRunError } from "../../../src/cli/run/run-report.js";

describe("a wait's failure in the CLI's words", () => {
  test("the library's hint becomes the command that waits again", () => {
    const e = cliErrorOf({
      kind: "aborted",
      batchId: "b1",
      error: 'stopped waiting for batch b1; it goes on at the service: wait for it again with waitForRun({ client, batchId: "b1" }) or `reduck runs wait b1`',
    });
    expect(e.message).toBe("stopped waiting for batch b1; it goes on at the service: wait for it again with `reduck runs wait b1`");
    expect(e.exitCode).toBe(130);
    expect(e.detail).toMatchObject({ kind: "aborted", batchId: "b1" });
  });

  test("a poll that kept failing says the run goes on, and how to wait again", () => {
    const e = cliErrorOf({
      kind: "network",
      cause: "ECONNRESET",
      batchId: "b2",
      error: "polling batch b2: the connection to https://mcp.reduck.ai was reset before the answer arrived (ECONNRESET)",
    });
    expect(e.message).toBe(
      "polling batch b2: the connection to https://mcp.reduck.ai was reset before the answer arrived (ECONNRESET); the run goes on at the service: wait for it again with `reduck runs wait b2`",
    );
    expect(e.exitCode).toBe(1);
  });

  test("a run's own failure is an outcome; a wait's is not", () => {
    expect(outcomeOfRunError({ kind: "run_failed", runId: "r1", error: "boom", errorType: "site_error", externalMessage: "It broke" })).toEqual({
      status: "failed",
      runId: "r1",
      error: "boom",
      errorType: "site_error",
      externalMessage: "It broke",
    });
    expect(() => outcomeOfRunError({ kind: "http", status: 502, runId: "r1", error: "polling run r1: HTTP 502 Bad Gateway" })).toThrow(
      "polling run r1: HTTP 502 Bad Gateway; the run goes on",
    );
  });

  test("elapsed time as the status line shows it", () => {
    expect(formatElapsed(8_400)).toBe("8s");
    expect(formatElapsed(72_000)).toBe("1m12s");
    expect(formatElapsed(3_605_000)).toBe("60m05s");
  });
});
