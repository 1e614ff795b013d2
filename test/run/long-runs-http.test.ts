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
    "POST /run": {
      status: 202,
      json: {
        batchId: "00000000-0000-4000-8002-000000000007",
        status: "running",
        retryAfterMs: 20,
        runs: [{ status: "running", runId: "00000000-0000-4000-8001-000000000001" }],
      },
    },
    "GET /batches/00000000-0000-4000-8002-000000000007": [
      "close-before-answer",
      "reset-mid-answer",
      { status: 503, json: { error: "busy" } },
      {
        json: {
          batchId: "00000000-0000-4000-8002-000000000007",
          status: "completed",
          runs: [{ status: "completed", runId: "00000000-0000-4000-8001-000000000001", result: "done" }],
        },
      },
    ],
  });
  try {
    const client = createReduckClient({ apiKey: "rk_test_http", baseUrl: fault.url, maxRetries: 0 });
    const { data, error } = await runScript({ client, script });
    expect(error).toBeUndefined();
    expect(data).toEqual({ result: "done", runId: "00000000-0000-4000-8001-000000000001" });
    expect(fault.count("POST /run")).toBe(1);
    expect(fault.count("GET /batches/00000000-0000-4000-8002-000000000007")).toBe(4);
  } finally {
    await fault.close();
  }
});

test("a poll that never stops failing gives up with the batch named, after a bounded number of tries", async () => {
  const fault = await startFaultServer({ "GET /batches/00000000-0000-4000-8002-000000000008": "close-before-answer" });
  try {
    const client = createReduckClient({ apiKey: "rk_test_http", baseUrl: fault.url, maxRetries: 0 });
    const { error } = await waitForRun({ client, batchId: "00000000-0000-4000-8002-000000000008" });
    expect(error).toMatchObject({ kind: "network", batchId: "00000000-0000-4000-8002-000000000008" });
    expect(error!.error).toMatch(/^polling batch 00000000-0000-4000-8002-000000000008: .*closed the connection before answering/);
    expect(fault.count("GET /batches/00000000-0000-4000-8002-000000000008")).toBe(6); // the first look and five more
  } finally {
    await fault.close();
  }
}, 30_000);
