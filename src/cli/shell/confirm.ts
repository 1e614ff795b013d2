/**
 * Commands that destroy or move things ask first on a terminal, and take --yes. Without a
 * terminal to ask on and without --yes they refuse (exit 2) rather than guess: a script that
 * deletes must say so.
 */
import { Flags } from "@oclif/core";
import { nodeReadline } from "../../core/builtins.js";
import { CliError } from "./errors.js";
import { ExitCode } from "./exit-codes.js";
import { onInterrupt } from "./interrupt.js";

export const yesFlag = {
  yes: Flags.boolean({ char: "y", description: "Do it without asking (needed when there is no terminal to ask on)." }),
};

function canAsk(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY);
}

/**
 * Fails at once (before anything is sent) when there is no terminal to ask on and no --yes.
 *
 * @example
 * refuseUnconfirmed(this.flags.yes, "deleting runs");
 */
export function refuseUnconfirmed(yes: boolean | undefined, doing: string): void {
  if (yes || canAsk()) return;
  throw new CliError(`${doing} needs confirmation, and there is no terminal to ask on: add --yes to go ahead`, ExitCode.USAGE);
}

/**
 * Asks `question [y/N]` on the terminal unless --yes was given; anything but y or yes cancels
 * the command (exit 2, nothing sent).
 *
 * @example
 * await confirmOrCancel(this.flags.yes, `Archive ${address}?`);
 */
export async function confirmOrCancel(yes: boolean | undefined, question: string): Promise<void> {
  if (yes) return;
  const rl = nodeReadline().createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  // The prompt holds the terminal in raw mode, where Ctrl-C reaches readline, not the process.
  rl.on("SIGINT", onInterrupt);
  const answer = await new Promise<string>((resolve) => {
    rl.question(`${question} [y/N] `, resolve);
    rl.on("close", () => resolve(""));
  });
  rl.close();
  if (!/^(y|yes)$/i.test(answer.trim())) throw new CliError("cancelled: nothing was changed", ExitCode.USAGE);
}
