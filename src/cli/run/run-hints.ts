/**
 * Hints for where people slip when naming a script to `reduck run`: an address typed without
 * `--script` in front of it.
 */
import { parseAddress } from "../shell/address.js";

/**
 * When a word that should have been `name=value` is a script address, the hint to put
 * `--script` before it; otherwise undefined.
 *
 * @example
 * scriptFlagHint("reduck/mail.google.com/send_email"); // "did you mean --script reduck/mail.google.com/send_email?"
 * scriptFlagHint("oops");                               // undefined
 */
export function scriptFlagHint(word: string): string | undefined {
  if (!word.includes("/") || word.includes("=")) return undefined;
  try {
    parseAddress(word);
  } catch {
    return undefined;
  }
  return `did you mean --script ${word}?`;
}
