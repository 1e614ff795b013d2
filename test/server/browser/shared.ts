// The browser every store of a process shares unless given its own (one warm Chromium per sandbox,
// or per test process), kept apart from host.ts so that closing it costs a process that never used
// a browser no Playwright to load.
import type { BrowserHost } from "./host.js";

let shared: BrowserHost | undefined;

/** The shared browser, made by `make` the first time. */
export function sharedHost(make: () => BrowserHost): BrowserHost {
  shared ??= make();
  return shared;
}

/**
 * Closes the shared browser, if this process ever made one (test files call it when they end, so
 * no Chromium outlives them).
 *
 * @example
 * afterAll(closeSharedBrowserHost);
 */
export async function closeSharedBrowserHost(): Promise<void> {
  const host = shared;
  shared = undefined;
  await host?.close();
}
