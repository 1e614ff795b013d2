/**
 * A failure's words said once. The service gives a failed run an `error` (what the script threw)
 * and often an `externalMessage` for people, which usually repeats it (`reduck/… failed on the
 * site: <error>`): shown side by side they say the same thing twice.
 */

/**
 * The one message to show for a failure: the message alone when it holds the error (its first
 * line, without an `Error:` label; the lines after it kept), the error alone when it holds the
 * message, both (`error (externalMessage)`) only when they differ, else whichever there is.
 *
 * @example
 * errorSaidOnce("Error: Timeout", "reduck/a.com/s failed on the site: Timeout"); // "reduck/a.com/s failed on the site: Timeout"
 * errorSaidOnce("Timeout", "Try again later"); // "Timeout (Try again later)"
 */
export function errorSaidOnce(error: string | undefined, externalMessage: string | undefined): string | undefined {
  const e = error?.trim() ? error : undefined;
  const m = externalMessage?.trim() ? externalMessage : undefined;
  if (!e || !m) return e ?? m;
  // The error's first line without the label a thrown error's text starts with ("Error: ", "TimeoutError: ").
  const [first = "", ...rest] = e.split("\n");
  const core = first.replace(/^[A-Za-z]*Error:\s*/, "").trim();
  // The message holds it: the message, and whatever the error says after its first line (where it was thrown).
  if (core && m.includes(core)) return rest.length ? `${m}\n${rest.join("\n")}` : m;
  if (e.includes(m.trim())) return e;
  return `${e} (${m})`;
}
