/**
 * Ctrl-C: one line saying what the interrupted command leaves behind, and the conventional exit
 * code. A command whose work can outlive the process (a run the service already has) says what
 * that is through `explainInterrupts`; for any other, "Interrupted." is the whole story.
 */
import { ExitCode } from "./exit-codes.js";
import { wantsJson } from "./json-errors.js";
import { jsonText } from "./json-text.js";

/** What the command under way would leave behind if Ctrl-C came now; undefined: nothing to say. */
let leftBehind: (() => string) | undefined;

/**
 * Gives Ctrl-C the words for what the command would leave behind, asked when it comes.
 *
 * @example
 * explainInterrupts(() => progress.interruptMessage());
 */
export function explainInterrupts(message: () => string): void {
  leftBehind = message;
}

export function interruptMessage(): string {
  return leftBehind?.() ?? "Interrupted.";
}

/** One line on stderr (with --json, the error as one JSON document on stdout) and the conventional exit code. */
export function onInterrupt(): void {
  if (wantsJson(process.argv.slice(2))) {
    process.stdout.write(`${jsonText({ error: { message: interruptMessage(), exitCode: ExitCode.INTERRUPTED, kind: "aborted" } })}\n`);
  } else {
    process.stderr.write(`\n${interruptMessage()}\n`);
  }
  process.exit(ExitCode.INTERRUPTED);
}
