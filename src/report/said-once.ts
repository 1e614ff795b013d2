/**
 * A failure's words said once. The service gives a failed run an `error` (what the script threw)
 * and often an `externalMessage` for people, which usually repeats it (`reduck/… failed on the
 * site: <error>`): shown side by side they say the same thing twice.
 */

/**
 * The one message to show for a failure: the longer one alone when it holds the other, both
 * (`error (externalMessage)`) only when they differ, else whichever there is.
 *
 * @example
 * errorSaidOnce("Timeout", "reduck/a.com/s failed on the site: Timeout"); // "reduck/a.com/s failed on the site: Timeout"
 * errorSaidOnce("Timeout", "Try again later"); // "Timeout (Try again later)"
 */
export function errorSaidOnce(error: string | undefined, externalMessage: string | undefined): string | undefined {
  const e = error?.trim() ? error : undefined;
  const m = externalMessage?.trim() ? externalMessage : undefined;
  if (!e || !m) return e ?? m;
  if (m.includes(e.trim())) return m;
  if (e.includes(m.trim())) return e;
  return `${e} (${m})`;
}
