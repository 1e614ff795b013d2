// Waiting in tests: for the event a test needs (a run that exists, a line printed, a request
// logged), checked often, with a deadline that fails naming what was awaited. Never a fixed sleep.
/**
 * Resolves with `check()`'s first truthy value; rejects after `timeoutMs` with "timed out after
 * N ms waiting for <what>".
 *
 * @example
 * const run = await waitFor("the run to reach the server", () => [...store.runs.values()].find((r) => r.status === "running"));
 */
export async function waitFor<T>(what: string, check: () => T | undefined | null | false, { timeoutMs = 10_000, intervalMs = 20 } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
