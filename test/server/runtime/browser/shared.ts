// The browser every store of a process shares unless given its own (one warm Chromium per sandbox,
// or per test process), kept apart from host.ts so that closing it costs a process that never used
// a browser no Playwright to load.

/** All this module needs of a browser host (named so, host.ts need not be imported: it imports this). */
interface Closable {
  close(): Promise<void>;
}

let shared: Closable | undefined;

/** The shared browser, made by `make` the first time (one kind of host per process: host.ts's). */
export function sharedHost<Host extends Closable>(make: () => Host): Host {
  shared ??= make();
  return shared as Host;
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
