import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { createReduckClient } from "../../src/index.js";
import { createMcpServer } from "../../src/mcp/server/server.js";
import { temporaryFolder } from "../support/files.js";

const RUN_HOST = "https://mcp.reduck.ai";
// Ids as the service gives them (UUIDs): the tools check an id's shape before it becomes a URL.
const B1 = "00000000-0000-4000-8000-0000000000b1";
const R1 = "00000000-0000-4000-8000-0000000000a1";
const R7 = "00000000-0000-4000-8000-0000000000a7";
const API_HOST = "https://reduck.ai";
const script = { address: "reduck/example.com/slow" };
const server = setupServer();
let posts: any[] = [];
let folder: string;

beforeAll(async () => {
  server.listen({ onUnhandledRequest: "error" });
  folder = temporaryFolder("reduck-mcp-long-");
});
afterEach(() => {
  server.resetHandlers();
  posts = [];
});
afterAll(async () => {
  server.close();
});

/** A batch that is `running` until `doneAt` (ms since the POST), then completed with `result`. */
function slowBatch(doneAfterMs: number, result: unknown, retryAfterMs = 50) {
  let postedAt = 0;
  const runs = () => [{ status: "running", runId: R1 }];
  server.use(
    http.post(`${RUN_HOST}/run`, async ({ request }) => {
      posts.push(await request.json());
      postedAt = Date.now();
      return HttpResponse.json({ batchId: B1, status: "running", retryAfterMs, runs: runs() }, { status: 202 });
    }),
    http.get(`${RUN_HOST}/batches/${B1}`, () => {
      if (Date.now() - postedAt < doneAfterMs) return HttpResponse.json({ batchId: B1, status: "running", retryAfterMs, runs: runs() });
      return HttpResponse.json({ batchId: B1, status: "completed", runs: [{ status: "completed", runId: R1, result }] });
    }),
  );
}

async function connect(holdMs: number) {
  const client = createReduckClient({ apiKey: "rk_test_mcp", maxRetries: 0 });
  const mcp = await createMcpServer({ folder, client: async () => client, holdMs });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await mcp.connect(a);
  const agent = new Client({ name: "test", version: "1.0.0" });
  await agent.connect(b);
  return { agent, close: () => agent.close() };
}

const structured = (r: any) => r.structuredContent as Record<string, any>;

describe("run_script and a run that outlives the hold", () => {
  test("past the hold: the handle, a line saying to call read_run_results, and the run sent once", async () => {
    slowBatch(1_500, { sent: true });
    const { agent, close } = await connect(300);
    try {
      const started = Date.now();
      const r: any = await agent.callTool({ name: "run_script", arguments: { script } });
      expect(Date.now() - started).toBeLessThan(1_400);
      expect(r.isError).toBeFalsy();
      expect(structured(r)).toMatchObject({ status: "running", batchId: B1, runIds: [R1] });
      expect(structured(r).next).toMatch(/^Still running at the service .*Call read_run_results with \{"batchId":"[0-9a-f-]{36}"\} to get the outcome/);
      expect(structured(r).next).toContain(B1);
      expect(posts).toHaveLength(1);
      // The hold becomes the service's own hold, so the POST cannot outlast the call.
      expect(posts[0].waitForSeconds).toBe(1);

      // read_run_results until it is done: the handle again, then the outcome.
      let outcome: any;
      for (let i = 0; i < 20; i++) {
        const next: any = await agent.callTool({ name: "read_run_results", arguments: { batchId: B1 } });
        if (structured(next).status !== "running") {
          outcome = structured(next);
          break;
        }
        expect(structured(next).next).toContain("read_run_results");
      }
      expect(outcome).toEqual({ batchId: B1, status: "completed", totalSteps: 1, runs: [{ status: "completed", runId: R1, result: { sent: true } }] });
      expect(posts).toHaveLength(1);
    } finally {
      await close();
    }
  });

  test("within the hold: the outcome, in the one-script shape", async () => {
    slowBatch(200, { n: 1 });
    const { agent, close } = await connect(5_000);
    try {
      const r: any = await agent.callTool({ name: "run_script", arguments: { script } });
      expect(structured(r)).toEqual({ status: "completed", runId: R1, result: { n: 1 } });
    } finally {
      await close();
    }
  });

  test("progress notifications while waiting, when the client gave a progress token", async () => {
    slowBatch(600, "ok");
    const { agent, close } = await connect(5_000);
    try {
      const seen: Array<{ progress: number; message?: string }> = [];
      const r: any = await agent.callTool({ name: "run_script", arguments: { script } }, undefined, { onprogress: (p) => void seen.push(p) });
      expect(structured(r)).toMatchObject({ status: "completed", result: "ok" });
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(seen[0]!.message).toMatch(/^running 0\/1 · \d+s$/);
      // MCP asks that progress only grows.
      for (let i = 1; i < seen.length; i++) expect(seen[i]!.progress).toBeGreaterThan(seen[i - 1]!.progress);
    } finally {
      await close();
    }
  });

  test("read_run_results with a run id waits on that run's record", async () => {
    let polls = 0;
    server.use(
      http.get(`${API_HOST}/api/runs/${R7}`, () => {
        polls++;
        return HttpResponse.json({ id: R7, status: "error", result: { error: "Element not found: #send" } });
      }),
    );
    const { agent, close } = await connect(2_000);
    try {
      const r: any = await agent.callTool({ name: "read_run_results", arguments: { runId: R7 } });
      expect(r.isError).toBe(true);
      expect(structured(r)).toMatchObject({ status: "failed", runId: R7, error: "Element not found: #send" });
      expect(polls).toBe(1);
      const both: any = await agent.callTool({ name: "read_run_results", arguments: { runId: R7, batchId: B1 } });
      expect(both.isError).toBe(true);
      expect(both.content[0].text).toMatch(/^Give exactly one of runId/);
    } finally {
      await close();
    }
  });
});
