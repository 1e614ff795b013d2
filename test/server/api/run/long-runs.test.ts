// Long runs and batches in-process, through msw (the cases are in fixtures/long-runs-cases.ts).
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from "vitest";
import { createHandlers, createStore, type SandboxStore } from "../../index.js";
import { longRunCases } from "./fixtures/long-runs-cases.js";

const server = setupServer();
let store: SandboxStore;

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
beforeEach(() => {
  store = createStore({ browser: "simulated", pollIntervalMs: 250 });
  server.resetHandlers(...createHandlers(store));
  vi.spyOn(console, "error");
});
// The self-check logs every answer outside openapi.json: no test may provoke one.
afterEach(() => {
  expect(console.error).not.toHaveBeenCalled();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

longRunCases(() => ({
  store,
  runUrl: "https://mcp.reduck.ai/run",
  runHost: "https://mcp.reduck.ai",
  api: "https://reduck.ai",
  requests: async () => store.requestLog,
}));
