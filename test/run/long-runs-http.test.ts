/**
 * Polling over real loopback HTTP, against a server that misbehaves as real ones do: the
 * connection closed before an answer, reset mid-answer, a 503. The run is sent once.
 */
import { expect, test } from "vitest";
import { createReduckClient, runScript, waitForRun } from "../../src/index.js";
import { startFaultServer } from "../faults/fault-server.js";

const script = { handle: "reduck", host: "example.com", slug: "slow" };

test("a closed connection, a reset and a 503 during polls are retried; POST /run is sent once", async () => {
  const fault = await startFaultServer({
    "POST /run": { status: 202, json: { batchId: "b7", status: "running", retryAfterMs: 20, runs: [{ status: "running", runId: "r1" }] } },
    "GET /batches/b7": [
      "close-before-answer",
      "reset-mid-answer",
      { status: 503, json: { error: "busy" } },
      { json: { batchId: "b7", status: "completed", runs: [{ status: "completed", runId: "r1", result: "done" }] } },
    ],
  });
  try {
    const client = createReduckClient({ apiKey: "rk_test_http", baseUrl: fault.url, maxRetries: 0 });
    const { data, error } = await runScript({ client, script });
    expect(error).toBeUndefined();
    expect(data).toEqual({ result: "done", runId: "r1" });
    expect(fault.count("POST /run")).toBe(1);
    expect(fault.count("GET /batches/b7")).toBe(4);
  } finally {
    await fault.close();
  }
});

test("a poll that never stops failing gives up with the batch named, after a bounded number of tries", async () => {
  const fault = await startFaultServer({ "GET /batches/b8": "close-before-answer" });
  try {
    const client = createReduckClient({ apiKey: "rk_test_http", baseUrl: fault.url, maxRetries: 0 });
    const { error } = await waitForRun({ client, batchId: "b8" });
    expect(error).toMatchObject({ kind: "network", batchId: "b8" });
    expect(error!.error).toMatch(/^polling batch b8: .*closed the connection before answering/);
    expect(fault.count("GET /batches/b8")).toBe(6); // the first look and five more
  } finally {
    await fault.close();
  }
}, 30_000);
