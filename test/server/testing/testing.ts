/// <reference types="node" preserve="true" />
/**
 * `@reduck-client/sandbox/testing`: the sandbox in-process for a vitest file. A fresh seeded store
 * per test file (or per test), its handlers installed with MSW, and clients made by the caller's
 * own `createReduckClient`: the sandbox's tests pass the published `reduck-client` (a witness never
 * uses the client's source), the root's tests the client under test, built from source.
 * A subpath of its own, because it registers vitest hooks: the package entry runs outside vitest too.
 */
import type { RequestHandler } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from "vitest";
import { closeSharedBrowserHost } from "../runtime/browser/shared.js";
import { createHandlers } from "../api/routing.js";
import { createStore, type SandboxStore } from "../store/store.js";
import { removeScratchFolders } from "../store/scratch.js";

/**
 * What ends every test file: the sandbox browser its stores shared is closed, if one was started,
 * and its stores' temporary folders are removed, so no Chromium and no file outlives the test file
 * (a test process may be ended without running its exit handlers). Called from an `afterAll` of a
 * setup file, which vitest runs anew for every test file (test-setup.ts, and the root's
 * test/support/sandbox-cleanup.ts): a module a setup file imports is evaluated once per test
 * process when files share one, so a hook it registered would end the first file only.
 */
export async function endOfTestFile(): Promise<void> {
  await closeSharedBrowserHost();
  removeScratchFolders();
}

/** How a test file's clients are made: `createReduckClient`, from wherever the file takes it. */
export type MakeClient<C> = (options: { apiKey: string; maxRetries: number } | { oauthToken: string; maxRetries: number }) => C;

/** What `useSandboxInProcess` gives a test file: the store, the demo account's client, and `use` for a test's own handlers. */
export interface SandboxInProcess<C> {
  store: SandboxStore;
  /** The demo account's client (API key). */
  client: C;
  clientWith(credential: { apiKey: string } | { oauthToken: string }): C;
  /** Puts `handlers` before the sandbox's own for the current test (MSW's `use`): a fault, a canned answer. */
  use(...handlers: RequestHandler[]): void;
}

/** @deprecated The same as `SandboxInProcess`, under its older name. */
export type Reference<C> = SandboxInProcess<C>;

/**
 * Call at the top of a test file. With `fresh`, every test gets a new store. `seed` adds the
 * file's own scripts, connectors or files to each new store. With `selfCheck`,
 * a test fails when the server's own check logged an answer outside openapi.json (on
 * console.error): for tests that hold the server itself to the description.
 *
 * @example
 * ```ts
 * import { createReduckClient } from "reduck-client";
 * const server = useSandboxInProcess(createReduckClient, { fresh: true });
 * test("lists", async () => expect((await listScripts({ client: server.client })).error).toBeUndefined());
 * ```
 */
export function useSandboxInProcess<C>(
  makeClient: MakeClient<C>,
  { fresh = false, selfCheck = false, seed }: { fresh?: boolean; selfCheck?: boolean; seed?: (store: SandboxStore) => void | Promise<void> } = {},
): SandboxInProcess<C> {
  const sandbox = {} as SandboxInProcess<C>;
  const server = setupServer();
  let used = false;
  const reset = async () => {
    // In-process tests run scripts against the simulated page, which is fast; the end-to-end tests
    // run them in the sandbox's real browser.
    const store = createStore({ browser: "simulated" });
    await seed?.(store);
    sandbox.store = store;
    server.resetHandlers(...createHandlers(store));
    sandbox.client = makeClient({ apiKey: store.demo.apiKey, maxRetries: 0 });
  };
  sandbox.clientWith = (credential) => makeClient({ ...credential, maxRetries: 0 });
  sandbox.use = (...handlers) => {
    used = true;
    server.use(...handlers);
  };
  beforeAll(async () => {
    server.listen({ onUnhandledRequest: "error" });
    await reset();
  });
  if (fresh) beforeEach(reset);
  // A test's own handlers end with it, also when the store lives on.
  afterEach(() => {
    if (used && !fresh) server.resetHandlers(...createHandlers(sandbox.store));
    used = false;
  });
  if (selfCheck) {
    beforeEach(() => void vi.spyOn(console, "error"));
    afterEach(() => {
      expect(console.error).not.toHaveBeenCalled();
      vi.restoreAllMocks();
    });
  }
  afterAll(() => server.close());
  return sandbox;
}
