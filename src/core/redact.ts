/**
 * Credentials never reach a message: not the one in use (a server may echo it back), and
 * nothing that looks like one (a key pasted where an argument was expected).
 */
import type { ReduckError } from "./errors.js";

export const REDACTED = "[redacted]";

/**
 * Reduck API keys (`rk_...`) and JWTs (OAuth access tokens): three base64url parts, the
 * first of which always starts with `eyJ` (`{"`).
 */
const KEY_SHAPED = /\brk_[A-Za-z0-9_-]{6,}|\beyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]*/g;

/** Shorter "secrets" are test placeholders; replacing them would mangle ordinary words. */
const MIN_SECRET_LENGTH = 8;

/** True when `text` contains something shaped like a credential. */
export function looksLikeSecret(text: string): boolean {
  return new RegExp(KEY_SHAPED.source).test(text);
}

/**
 * `text` with every known secret and everything shaped like a key replaced by `[redacted]`.
 *
 * @example
 * redactSecrets('"login rk_live_abc123" is not a command'); // '"login [redacted]" is not a command'
 */
export function redactSecrets(text: string, known: readonly string[] = []): string {
  let out = text;
  for (const secret of known) {
    if (secret.length >= MIN_SECRET_LENGTH) out = out.split(secret).join(REDACTED);
  }
  return out.replace(KEY_SHAPED, REDACTED);
}

/** The error with its message and field messages redacted. */
export function redactError<E extends ReduckError>(error: E, known: readonly string[] = []): E {
  const out = { ...error, error: redactSecrets(error.error, known) };
  if (error.variables) {
    out.variables = Object.fromEntries(Object.entries(error.variables).map(([field, messages]) => [field, messages.map((m) => redactSecrets(m, known))]));
  }
  return out;
}
