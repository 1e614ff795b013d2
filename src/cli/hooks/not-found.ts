import type { Hook } from "@oclif/core";
import { redactSecrets, looksLikeSecret } from "../../core/redact.js";
import { ExitCode } from "../exit-codes.js";
import { closest } from "../suggest.js";

/**
 * An unknown command: say what was typed, suggest the closest command, exit 2 (bad usage).
 * (oclif's plugin-not-found only suggests on a terminal and exits 127.)
 */
const hook: Hook.CommandNotFound = async function (options) {
  // A key pasted as an argument (`reduck login rk_...`) is never echoed back.
  const typed = redactSecrets(options.id.split(":").join(" "), process.env.REDUCK_API_KEY ? [process.env.REDUCK_API_KEY] : []);
  // Topics too: `reduck scirpts` means the `scripts` topic, not any one command.
  const ids = [...options.config.commands.filter((c) => !c.hidden).map((c) => c.id), ...options.config.topics.map((t) => t.name)];
  const best = closest(typed, ids.map((id) => id.split(":").join(" ")));
  const hint = best ? ` Did you mean "${options.config.bin} ${best}"?` : "";
  const keyHint = looksLikeSecret(options.id) ? " Never pass a key as an argument: set REDUCK_API_KEY or pipe it to `reduck login`." : "";
  process.stderr.write(`Error: "${typed}" is not a ${options.config.bin} command.${hint}${keyHint} Run "${options.config.bin} --help" for the list.\n`);
  process.exit(ExitCode.USAGE);
};

export default hook;
