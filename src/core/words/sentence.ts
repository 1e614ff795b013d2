/**
 * A message and the hint that follows it, as two sentences: the CLI's errors and the agent tool's
 * answers both add hints ("Did you mean @demo?") to the service's words, which may or may not end
 * with a full stop.
 */

/**
 * `message` ended as a sentence (a full stop, unless it ends with ".", "!" or "?"), then `hint`;
 * the message as it is when there is no hint.
 *
 * @example
 * withHint("No such handle: demo", "Did you mean @demo?"); // "No such handle: demo. Did you mean @demo?"
 */
export function withHint(message: string, hint: string | undefined): string {
  if (!hint) return message;
  const ended = message.trimEnd();
  return `${/[.!?]$/.test(ended) ? ended : `${ended}.`} ${hint}`;
}
