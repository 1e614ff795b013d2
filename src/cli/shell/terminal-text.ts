/**
 * The trust boundary between the service and a person's terminal: every string the CLI prints for
 * people goes through here, so text from the service shows as text and never acts. A terminal
 * obeys the control characters in what it is given (ESC starts a sequence that can clear the
 * screen, retitle the window or rewrite a line; BEL rings; CR moves back over what was printed),
 * and a bidi override makes a line read backwards: each is written out as its `\u001b`-style
 * escape instead. `--json` output never comes here: it stays the exact JSON.
 */
import { visibleText } from "../../core/visible-text.js";

/**
 * Text that may span lines (a record, a script's code, a run's error): line feeds and tabs (the
 * separator of piped tables) kept, a CRLF line end read as LF, every other control or bidi
 * character shown as its escape.
 *
 * @example
 * terminalText("name\u001b[2J\nnext"); // "name\\u001b[2J\nnext"
 */
export function terminalText(text: string): string {
  return visibleText(text.replace(/\r\n/g, "\n"), "\n\t");
}

/**
 * Text for one line (a table cell, a field of a record, a service's error message): every run of
 * white space, line ends included, as one space; every control or bidi character shown.
 *
 * @example
 * terminalLine("Send\r\n  mail\u0007"); // "Send mail\\u0007"
 */
export function terminalLine(text: string): string {
  return visibleText(text.replace(/\s+/g, " "));
}

/**
 * Writes `text` for people on `stream` (stderr, mostly), shown as terminalText shows it.
 *
 * @example
 * writeText(process.stderr, `Error: ${failure}\n`);
 */
export function writeText(stream: NodeJS.WritableStream, text: string): void {
  stream.write(terminalText(text));
}
