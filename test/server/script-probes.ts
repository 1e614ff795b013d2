// For the isolation tests: an in-process reference server (msw, the sandbox's handlers) with a
// fresh store per test, where a probe is a script created through the API and run through POST /run.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from "vitest";
import { createHandlers, createStore, type ReferenceStore, type StoreOptions } from "./index.js";

export const API = "https://reduck.ai";

export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/**
 * Call at the top of a test file. `serving` is a script (and its result) that shows the server
 * still runs scripts after a probe failed.
 */
export function useScriptProbes(storeOptions: StoreOptions, serving: { content: string; result: unknown }) {
  const server = setupServer();
  const state = {} as { store: ReferenceStore; scratch: string };
  let scripts = 0;

  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  beforeEach(() => {
    state.scratch = mkdtempSync(path.join(os.tmpdir(), "reduck-isolation-"));
    state.store = createStore(storeOptions);
    server.resetHandlers(...createHandlers(state.store));
    vi.spyOn(console, "error");
  });
  // The self-check logs every answer outside openapi.json: no probe may provoke one.
  afterEach(() => {
    expect(console.error).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    rmSync(state.scratch, { recursive: true, force: true });
  });
  afterAll(() => server.close());

  async function call(method: string, url: string, body?: unknown): Promise<Answer> {
    const response = await fetch(url, {
      method,
      headers: { "x-api-key": state.store.demo.apiKey, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  /** Creates a script with this body through the API and runs it in the caller's own browser. */
  async function createAndRun(content: string, { files }: { files?: Record<string, { b64: string; mime: string }> } = {}): Promise<Answer> {
    const slug = `probe_${++scripts}`;
    const created = await call("POST", `${API}/api/scripts/@demo`, {
      host: "example.org",
      slug,
      description: "An escape attempt",
      content,
      language: "javascript",
      input_schema: { type: "object", properties: { note: { type: "string" }, doc: { type: "string", format: "file" } } },
      output_schema: { type: "object" },
      side_effects: "none",
    });
    expect(created.status).toBe(201);
    return call("POST", "https://mcp.reduck.ai/run", {
      browser: "extension",
      script: { host: "example.org", slug, args: { note: "hi" }, ...(files ? { files } : {}) },
    });
  }

  /** The run failed with `error`, was recorded as such, and the server still runs scripts. */
  async function expectFailedRun(ran: Answer, error: RegExp | string): Promise<void> {
    expect(ran.status).toBe(422);
    if (typeof error === "string") expect(ran.body.error).toBe(error);
    else expect(ran.body.error).toMatch(error);
    const run = await call("GET", `${API}/api/runs/${ran.body.runId}`);
    expect(run.body).toMatchObject({ status: "error", result: { error: ran.body.error } });
    const next = await createAndRun(serving.content);
    expect(next).toMatchObject({ status: 200, body: { result: serving.result } });
  }

  return {
    get store() {
      return state.store;
    },
    get scratch() {
      return state.scratch;
    },
    call,
    createAndRun,
    expectFailedRun,
  };
}
