// Waiting in tests: for the event a test needs (a run that exists, a line printed, a request
// logged), checked often, with a deadline that fails naming what was awaited. Never a fixed sleep.
// The one such helper of the root's tests (the sandbox's own tests, a package of their own, wait
// on its events directly).
/**
 * Resolves with `check()`'s first truthy value (`check` may be async: a file read, a request);
 * rejects after `timeoutMs` with "timed out after N ms waiting for <what>".
 *
 * @example
 * const run = await waitFor("the run to reach the server", () => [...store.runs.values()].find((r) => r.status === "running"));
 */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  { timeoutMs = 30_000, intervalMs = 20 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
