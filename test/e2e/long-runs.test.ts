/**
 * Runs that outlive `waitForSeconds`, end to end: the library, the built CLI (piped and on a real
 * terminal, Ctrl-C included) and the agent tool (`reduck mcp` over stdio) against the sandbox over
 * loopback HTTP. The sandbox's `sandbox/sandbox.test/sleep` script outlives a 1 s hold; the
 * sandbox's request log proves POST /run went out once for each run, polls included.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, test } from "vitest";
import { runScript, waitForRun, type RunStatusUpdate } from "../../src/index.js";
import { BIN, baseEnv, runCli } from "../support/cli.js";
import { waitFor } from "../support/wait.js";
import { openTerminal } from "./terminal.js";
import { useCliSandbox } from "../support/sandbox.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const SLEEP = { handle: "sandbox", host: "sandbox.test", slug: "sleep" };
const sleepCli = (seconds: number, echo = "x") => ["--script", "sandbox/sandbox.test/sleep", `seconds=${seconds}`, `echo=${echo}`];

const sandbox = useCliSandbox({ store: { browser: "simulated" }, home: "reduck-long-runs-" });

/** What the sandbox received from here on: POST /run and the polls. */
function logFrom() {
  const start = sandbox.store.requestLog.length;
  const since = () => sandbox.store.requestLog.slice(start);
  return {
    posts: () => since().filter((r) => r.method === "POST" && r.path === "/run").length,
    polls: () => since().filter((r) => r.method === "GET" && (r.path.startsWith("/batches/") || r.path.startsWith("/api/runs/"))).length,
  };
}

describe("the library", () => {
  test("one script that outlives waitForSeconds ends with its result; POST /run once", async () => {
    const log = logFrom();
    const updates: RunStatusUpdate[] = [];
    const { data, error } = await runScript({
      client: sandbox.client,
      script: { ...SLEEP, args: { seconds: 3, echo: "lib" } },
      waitForSeconds: 1,
      onStatus: (u) => updates.push(u),
    });
    expect(error).toBeUndefined();
    expect(data).toEqual({ result: { slept: 3, echo: "lib" }, runId: expect.any(String) });
    expect(log.posts()).toBe(1);
    expect(log.polls()).toBeGreaterThanOrEqual(1);
    expect(updates[0]!.status).toMatch(/^(queued|running)$/);
    expect(updates[0]!.batchId ?? updates[0]!.runId).toMatch(UUID);
  });

  test("several scripts through a 202 batch, in order; wait: false then waitForRun", async () => {
    const log = logFrom();
    const scripts = [
      { ...SLEEP, args: { seconds: 2, echo: 1 } },
      { ...SLEEP, args: { seconds: 0, echo: 2 } },
      { ...SLEEP, args: { seconds: 2, fail: "the site said no" } },
    ];
    const first = await runScript({ client: sandbox.client, scripts, waitForSeconds: 1, wait: false });
    expect(first.error).toBeUndefined();
    expect(first.data).toMatchObject({ status: expect.stringMatching(/^(queued|running)$/), batchId: expect.any(String) });
    const batchId = (first.data as { batchId: string }).batchId;
    const { data, error } = await waitForRun({ client: sandbox.client, batchId });
    expect(error).toBeUndefined();
    expect(data).toMatchObject({ batchId, status: "failed", totalSteps: 3 });
    expect(data!.runs.map((r) => r.status)).toEqual(["completed", "completed", "failed"]);
    expect(data!.runs[0]!.result).toEqual({ slept: 2, echo: 1 });
    expect(data!.runs[2]).toMatchObject({ errorType: "site_error", error: expect.stringContaining("the site said no") });
    expect(log.posts()).toBe(1);
  });

  test("a run that ends with neither result nor error is a failure naming its run", async () => {
    const { data, error } = await runScript({ client: sandbox.client, script: { handle: "sandbox", host: "sandbox.test", slug: "no_outcome", args: {} } });
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ kind: "run_failed", runId: expect.any(String) });
    expect(error!.error).toContain(`run ${error!.runId} ended with neither a result nor an error`);
  });

  test("an unknown batch is a clear error naming it", async () => {
    const { error } = await waitForRun({ client: sandbox.client, batchId: "00000000-0000-4000-8000-0000000000b0" });
    expect(error).toMatchObject({ status: 404, batchId: "00000000-0000-4000-8000-0000000000b0" });
    expect(error!.error).toMatch(/^there is no batch 00000000-0000-4000-8000-0000000000b0 at /);
  });
});

describe("the CLI", () => {
  test("reduck run waits through the 202 and prints the result; POST /run once; nothing extra when piped", async () => {
    const log = logFrom();
    const r = await runCli(["run", "--wait-for-seconds", "1", ...sleepCli(3, "cli")], { env: sandbox.env });
    expect(r.stderr).not.toMatch(/running \d+\/\d+/);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ slept: 3, echo: "cli" });
    expect(log.posts()).toBe(1);
    expect(log.polls()).toBeGreaterThanOrEqual(1);
  });

  test("--no-wait prints the id, and runs wait prints the outcome as run does", async () => {
    const log = logFrom();
    const started = await runCli(["run", "--no-wait", "--wait-for-seconds", "1", ...sleepCli(2, "later")], { env: sandbox.env });
    expect(started.code).toBe(0);
    const id = started.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(started.stderr).toContain(`reduck runs wait ${id}`);
    const waited = await runCli(["runs", "wait", id, "--json"], { env: sandbox.env });
    expect(waited.code).toBe(0);
    expect(JSON.parse(waited.stdout)).toMatchObject({ status: "completed", result: { slept: 2, echo: "later" } });
    expect(log.posts()).toBe(1);
  });

  test("on a terminal: a one-line status while polling; Ctrl-C says the run goes on and how to wait again", async () => {
    const log = logFrom();
    const t = openTerminal(["run", "--wait-for-seconds", "1", ...sleepCli(4, "tty")], { env: sandbox.env });
    await t.waitFor(/(running|queued) 0\/1 · \d+s/);
    // Past the service's hold: the CLI is polling (the status line shows from the first second either way).
    await waitFor("the CLI to poll the sandbox", () => log.polls() > 0);
    t.type("\x03");
    const { code, output } = await t.exited;
    expect(code).toBe(130);
    const [, id] = /Interrupted: the run goes on at the service\. Wait for it again with:\r?\n\s+reduck runs wait (\S+)/.exec(output) ?? [];
    expect(id).toMatch(UUID);
    const waited = await runCli(["runs", "wait", id!], { env: sandbox.env });
    expect(waited.code).toBe(0);
    expect(JSON.parse(waited.stdout)).toEqual({ slept: 4, echo: "tty" });
    expect(log.posts()).toBe(1);
  });

  test("on a terminal the status line shows while the service still holds the request, and is cleared at the end", async () => {
    const t = openTerminal(["run", "--wait-for-seconds", "10", ...sleepCli(2, "held")], { env: sandbox.env });
    await t.waitFor(/running 0\/1 · \ds/);
    const { code, output } = await t.exited;
    expect(code).toBe(0);
    // The line was cleared before the result was printed.
    expect(output).toMatch(/\r\x1b\[K[\s\S]*"echo": "held"/);
    expect(output.slice(output.lastIndexOf("\x1b[K"))).not.toContain("running");
  });

  test("a failed step after polling: exit 1, errorType in the JSON, the service's words in the human line", async () => {
    const failing = ["--script", "sandbox/sandbox.test/sleep", "seconds=2", "fail=the button is gone", ...sleepCli(0)];
    const r = await runCli(["run", "--json", "--wait-for-seconds", "1", ...failing], { env: sandbox.env });
    expect(r.code).toBe(1);
    const batch = JSON.parse(r.stdout);
    expect(batch).toMatchObject({ batchId: expect.any(String), status: "failed", totalSteps: 2 });
    expect(batch.runs[0]).toMatchObject({
      status: "failed",
      runId: expect.any(String),
      errorType: "site_error",
      externalMessage: expect.stringContaining("the button is gone"),
    });
    const human = await runCli(["run", "--wait-for-seconds", "1", ...failing], { env: sandbox.env });
    expect(human.code).toBe(1);
    expect(human.stderr).toMatch(/^sandbox\/sandbox\.test\/sleep: run \S+ failed: sandbox\/sandbox\.test\/sleep failed on the site: the button is gone$/m);

    // One script waited on through its run record (getRun), which carries the error only.
    const single = await runCli(
      ["run", "--json", "--wait-for-seconds", "1", "--script", "sandbox/sandbox.test/sleep", "seconds=2", "fail=the button is gone"],
      { env: sandbox.env },
    );
    expect(single.code).toBe(1);
    expect(JSON.parse(single.stdout)).toMatchObject({ status: "failed", runId: expect.any(String), error: expect.stringContaining("the button is gone") });
  });
});

describe("the agent tool", () => {
  test("past its hold run_script answers with the handle; read_run_results completes it; POST /run once", async () => {
    const log = logFrom();
    const client = new Client({ name: "reduck-test", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "mcp"],
      env: { ...baseEnv(), NO_COLOR: "1", ...sandbox.env, REDUCK_MCP_HOLD_MS: "1500" },
      stderr: "pipe",
    });
    await client.connect(transport);
    try {
      const first: any = await client.callTool({
        name: "run_script",
        arguments: { script: { address: "sandbox/sandbox.test/sleep", args: { seconds: 4, echo: "mcp" } }, browser: "cloud" },
      });
      expect(first.isError).toBeFalsy();
      const handle = first.structuredContent;
      expect(handle.status).toMatch(/^(queued|running)$/);
      expect(handle.next).toContain("read_run_results");
      const ask = handle.batchId ? { batchId: handle.batchId } : { runId: handle.runId };
      let outcome: any;
      for (let i = 0; i < 10 && !outcome; i++) {
        const next: any = await client.callTool({ name: "read_run_results", arguments: ask });
        if (!["queued", "running"].includes(next.structuredContent.status)) outcome = next.structuredContent;
      }
      const result = outcome.runs ? outcome.runs[0].result : outcome.result;
      expect(result).toEqual({ slept: 4, echo: "mcp" });
      expect(log.posts()).toBe(1);
    } finally {
      await client.close();
    }
  });
});
