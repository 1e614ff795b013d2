/**
 * A run longer than the 45 s a call waits, with nothing shortened: the built `reduck mcp` over
 * stdio and over Streamable HTTP, the SDK's client asking for progress, the sandbox holding the
 * run for 55 s. The call keeps reporting progress until it answers, past 40 s, with the run's
 * handle; read_run_results then gives the outcome; the run was sent once.
 */
import { nextRuns } from "@reduck-client/sandbox";
import { describe, expect, test } from "vitest";
import { useCliSandbox } from "../support/sandbox.js";
import { useToolClient } from "./support.js";

const script = { address: "@demo/example.com/get_title", args: { url: "https://example.com/" } };

// Each transport has a sandbox of its own, so the two runs (most of this file's time is their
// 55 s hold) wait side by side without meeting: each counts only its own runs.
const worlds = (["stdio", "http"] as const).map((transport) => {
  const sandbox = useCliSandbox({ desktop: {}, home: `reduck-mcp-long-${transport}-` });
  return { transport, sandbox, agent: useToolClient(sandbox, transport) };
});

describe.concurrent("a run longer than a call waits", () => {
  test.each(worlds)(
    "over $transport: a 55 s run: progress all along, the handle at about 45 s, then the outcome",
    async ({ sandbox, agent }) => {
      nextRuns(sandbox.store, { held: 55 });
      const runsBefore = sandbox.store.runs.size;
      const seen: Array<{ at: number; progress: number; message?: string }> = [];
      const started = Date.now();
      const first: any = await agent.client.callTool({ name: "run_script", arguments: { script } }, undefined, {
        onprogress: (p) => void seen.push({ at: Date.now() - started, progress: p.progress, message: p.message }),
        // The SDK client's own limit is 60 s; the call answers before it.
        timeout: 70_000,
      });
      const answeredAt = Date.now() - started;
      expect(answeredAt).toBeGreaterThan(44_000);
      expect(answeredAt).toBeLessThan(60_000);
      expect(first.isError).toBeFalsy();
      expect(first.structuredContent).toMatchObject({ status: expect.stringMatching(/^(queued|running)$/) });
      const handle = first.structuredContent.batchId ? { batchId: first.structuredContent.batchId } : { runId: first.structuredContent.runId };
      expect(Object.values(handle)[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(first.structuredContent.next).toContain(`Call read_run_results with ${JSON.stringify(handle)}`);

      // Progress every few seconds, from the start to the end of the wait, growing each time.
      expect(seen.length).toBeGreaterThanOrEqual(8);
      expect(seen[0]!.at).toBeLessThan(10_000);
      expect(seen.at(-1)!.at).toBeGreaterThan(40_000);
      for (let i = 1; i < seen.length; i++) expect(seen[i]!.progress).toBeGreaterThan(seen[i - 1]!.progress);
      expect(seen.at(-1)!.message).toMatch(/^(queued|running)( \d+\/1)? · \d+s$/);

      const outcome: any = await agent.client.callTool({ name: "read_run_results", arguments: handle }, undefined, { timeout: 70_000 });
      expect(outcome.structuredContent).toMatchObject(
        handle.batchId
          ? { status: "completed", runs: [{ status: "completed", result: { title: "Example Domain" } }] }
          : { status: "completed", result: { title: "Example Domain" } },
      );
      expect(sandbox.store.runs.size).toBe(runsBefore + 1);
    },
    180_000,
  );
});
