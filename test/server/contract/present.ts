// For values that cannot be missing (a regex group that matched, a record the seed made, the first
// step of a run that has steps) but that an index read types as possibly undefined: if one ever is
// missing, the sandbox has a bug, and the error names what was expected instead of failing later
// on a property of undefined.

/**
 * Returns `value`, or throws an error naming `what` when it is `undefined`.
 *
 * @example
 * const [, port] = present(/:(\d+)$/.exec(address), "a port in the address");
 */
export function present<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new Error(`the sandbox expected ${what}, but it was missing`);
  return value;
}
