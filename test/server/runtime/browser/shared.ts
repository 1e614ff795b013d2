// The browser every store of a process shares unless given its own (one warm Chromium per sandbox,
// or per test process), kept apart from host.ts so that closing it costs a process that never used
// a browser no Playwright to load.

/** All this module needs of a browser host (named so, host.ts need not be imported: it imports this). */
interface Closable {
  close(): Promise<void>;
}

/**
 * What the requests of the browser were, by who answered them: the simulated web, a loopback port a
 * test opened (allowLoopbackPort), or nobody (`refused`: this machine's other ports).
 */
export interface Traffic {
  simulated: number;
  loopback: number;
  refused: number;
}

/**
 * The shared browser as the package's users see it (`sharedBrowserHost()`): named apart from
 * host.ts so that the package's declarations never reach playwright-core's types, which an
 * optional dependency brings and TypeScript 7 refuses without `skipLibCheck`.
 */
export interface SandboxBrowser extends Closable {
  /** Lets pages reach this one port of 127.0.0.1 (a test's own server); every other local port stays refused. */
  allowLoopbackPort(port: number): void;
  /** How many times Chromium was started (a crash makes the next run start another). */
  readonly launches: number;
  /** How many runs got a context (a run whose script never touches the page gets none). */
  readonly runs: number;
  /** Requests the browser made, by who answered them. */
  readonly traffic: Traffic;
  /** Launches the browser now, if none runs, so that the first run does not wait. */
  warm(): Promise<void>;
  /** Requests stopped at the second wall (the ones the routing did not answer), oldest first. */
  wallAttempts(): Promise<readonly string[]>;
  /** The browser's main process id, or null when none runs (or this is not Linux). */
  browserPid(): Promise<number | null>;
  /** Resident memory of the browser's whole process tree, in bytes (0 when none runs; Linux only). */
  rssBytes(): Promise<number>;
  /** Ends the browser process at once; the next run launches a new one. */
  kill(): Promise<void>;
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
