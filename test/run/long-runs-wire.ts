/**
 * The service's side of the long-run tests (long-runs.test.ts, long-runs-polling.test.ts), played
 * by MSW handlers written from the facts (service-facts §3b), not by the library's own code.
 * A test file calls useWire(), which listens for that file's tests. Its bindings are live (`seen`
 * is emptied after each test).
 */
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";
import { createReduckClient } from "../../src/index.js";

export const RUN_HOST = "https://mcp.reduck.ai";
export const API_HOST = "https://reduck.ai";
export const KEY = "rk_test_long_runs";
export const script = { handle: "reduck", host: "example.com", slug: "slow" };
export const two = [script, { ...script, slug: "other" }];

/** Every request the handlers saw, as "METHOD path" with the credential it carried. */
export let seen: Array<{ route: string; key: string | null; body?: any }> = [];
export const server = setupServer();

/** Listens for the calling file's tests. */
export function useWire(): void {
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterEach(() => {
    server.resetHandlers();
    seen = [];
  });
  afterAll(() => server.close());
}

export const client = () => createReduckClient({ apiKey: KEY, maxRetries: 0 });
export const count = (route: string) => seen.filter((s) => s.route === route).length;

/** POST /run answers `answer`; a batch's polls answer each of `polls` in turn (the last repeating). */
export function wire(answer: { status?: number; body: unknown }, polls: Array<{ status?: number; body?: unknown }> = [], runPolls: unknown[] = []) {
  let poll = 0;
  let runPoll = 0;
  server.use(
    http.post(`${RUN_HOST}/run`, async ({ request }) => {
      seen.push({ route: "POST /run", key: request.headers.get("x-api-key"), body: await request.json() });
      return HttpResponse.json(answer.body as never, { status: answer.status ?? 200 });
    }),
    http.get(`${RUN_HOST}/batches/:batchId`, ({ request, params }) => {
      seen.push({ route: `GET /batches/${params.batchId}`, key: request.headers.get("x-api-key") });
      const next = polls[Math.min(poll++, polls.length - 1)];
      if (!next) return HttpResponse.json({ error: `Batch ${params.batchId} not found` }, { status: 404 });
      return HttpResponse.json(next.body as never, { status: next.status ?? 200 });
    }),
    http.get(`${API_HOST}/api/runs/:runId`, ({ request, params }) => {
      seen.push({ route: `GET /api/runs/${params.runId}`, key: request.headers.get("x-api-key") });
      const next = runPolls[Math.min(runPoll++, runPolls.length - 1)];
      if (!next) return HttpResponse.json({ error: "Run not found" }, { status: 404 });
      return HttpResponse.json(next as never);
    }),
  );
}

export const runRecord = (runId: string, status: string, result: unknown = null) => ({
  id: runId,
  user_id: "u1",
  name: "slow",
  browser: { type: "extension" },
  args: {},
  status,
  result,
  source: "api",
  started_at: "2026-11-24T10:00:00.000Z",
  finished_at: status === "running" || status === "queued" ? null : "2026-11-24T10:00:09.000Z",
  script: null,
});
