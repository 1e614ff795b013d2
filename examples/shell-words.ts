/**
 * Commands printed so they can be pasted into a POSIX shell (bash, zsh, sh) as they stand: each
 * word that holds anything but plain characters is put in single quotes, inside which the shell
 * changes nothing (a `'` itself is closed, escaped and reopened).
 */

/** Characters no POSIX shell gives a meaning to, in any position of a word. */
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * One word, quoted only when it needs to be.
 *
 * @example
 * shellWord("subject=Our new banner"); // "'subject=Our new banner'"
 * shellWord("it's");                   // "'it'\''s'"
 * shellWord("to=me@example.com");      // "to=me@example.com"
 */
export function shellWord(word: string): string {
  if (PLAIN.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * A command line a shell splits back into exactly these words.
 *
 * @example
 * shellCommand(["reduck", "run", "--script", "reduck/mail.google.com/send_email", "subject=Hi there"]);
 * // "reduck run --script reduck/mail.google.com/send_email 'subject=Hi there'"
 */
export function shellCommand(words: string[]): string {
  return words.map(shellWord).join(" ");
}
