import type { Hook } from "@oclif/core";
import { redactSecrets, looksLikeSecret } from "../../core/redact.js";
import { ExitCode } from "../exit-codes.js";

/**
 * An unknown command: say what was typed, suggest the closest command, exit 2 (bad usage).
 * (oclif's plugin-not-found only suggests on a terminal and exits 127.)
 */
const hook: Hook.CommandNotFound = async function (options) {
  // A key pasted as an argument (`reduck login rk_...`) is never echoed back.
  const typed = redactSecrets(options.id.split(":").join(" "), process.env.REDUCK_API_KEY ? [process.env.REDUCK_API_KEY] : []);
  const ids = options.config.commands.filter((c) => !c.hidden).map((c) => c.id.split(":").join(" "));
  const best = closest(typed, ids);
  const hint = best ? ` Did you mean "${options.config.bin} ${best}"?` : "";
  const keyHint = looksLikeSecret(options.id) ? " Never pass a key as an argument: set REDUCK_API_KEY or pipe it to `reduck login`." : "";
  process.stderr.write(`Error: "${typed}" is not a ${options.config.bin} command.${hint}${keyHint} Run "${options.config.bin} --help" for the list.\n`);
  process.exit(ExitCode.USAGE);
};

export default hook;

export function closest(word: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = distance(word, c);
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  // Suggest only what looks like a typo, not any command at all.
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}
