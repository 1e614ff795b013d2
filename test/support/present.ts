// A test that reads `list[0]` or a regex group means "this must be there": this says so, and fails
// the test with what was missing instead of a TypeError about undefined a few lines later.

/**
 * Returns `value`, or throws (failing the test) naming `what` when it is `undefined` or `null`.
 *
 * @example
 * const runId = present(/^run (\S+)$/m.exec(stderr)?.[1], "a run id on stderr");
 */
export function present<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new Error(`expected ${what}, found none`);
  return value;
}
