/**
 * The reference server in-process: a fresh seeded store per test file, its handlers
 * installed with MSW, and clients made the way users make them.
 */
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from "vitest";
import { createReduckClient, type ReduckClient } from "../../src/index.js";
import { createHandlers, createStore, type ReferenceStore } from "@reduck-client/sandbox";

export interface Reference {
  store: ReferenceStore;
  /** The demo account's client (API key). */
  client: ReduckClient;
  clientWith(credential: { apiKey: string } | { oauthToken: string }): ReduckClient;
}

/**
 * Call at the top of a test file. With `fresh`, every test gets a new store. With `selfCheck`,
 * a test fails when the server's own check logged an answer outside openapi.json (on
 * console.error): for tests that hold the server itself to the description.
 */
export function useReferenceServer({ fresh = false, selfCheck = false }: { fresh?: boolean; selfCheck?: boolean } = {}): Reference {
  const ref = {} as Reference;
  const server = setupServer();
  const reset = () => {
    // In-process tests run scripts against the simulated page, which is fast; the end-to-end tests
    // (test/e2e, test/mcp, test/run/run-http) run them in the sandbox's real browser.
    ref.store = createStore({ browser: "simulated" });
    server.resetHandlers(...createHandlers(ref.store));
    ref.client = createReduckClient({ apiKey: ref.store.demo.apiKey, maxRetries: 0 });
  };
  ref.clientWith = (credential) => createReduckClient({ ...credential, maxRetries: 0 } as never);
  beforeAll(() => {
    server.listen({ onUnhandledRequest: "error" });
    reset();
  });
  if (fresh) beforeEach(reset);
  if (selfCheck) {
    beforeEach(() => void vi.spyOn(console, "error"));
    afterEach(() => {
      expect(console.error).not.toHaveBeenCalled();
      vi.restoreAllMocks();
    });
  }
  afterAll(() => server.close());
  return ref;
}
