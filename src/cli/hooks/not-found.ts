import type { Hook } from "@oclif/core";
import { redactSecrets, looksLikeSecret } from "../../core/redact.js";
import { usageError } from "../shell/errors.js";
import { reportError, wantsJson } from "../shell/json-errors.js";
import { closest } from "../../core/words/suggest.js";

/**
 * An unknown command: say what was typed, suggest the closest command, exit 2 (bad usage); with
 * --json, as one JSON document on stdout like every other error.
 * (oclif's plugin-not-found only suggests on a terminal and exits 127.)
 */
const hook: Hook.CommandNotFound = async function (options) {
  const bin = options.config.bin;
  // A key pasted as an argument (`reduck login rk_...`) is never echoed back.
  const typed = redactSecrets(options.id.split(":").join(" "), process.env.REDUCK_API_KEY ? [process.env.REDUCK_API_KEY] : []);
  const argv = [options.id, ...(options.argv ?? [])];
  const json = wantsJson(argv) || wantsJson(process.argv.slice(2));
  let message: string;
  if (typed.startsWith("-")) {
    // `reduck --json` alone: a flag where a command should be.
    message = `${typed} needs a command before it, e.g. "${bin} scripts list ${typed}". Run "${bin} --help" for the list.`;
  } else {
    // Topics too: `reduck scirpts` means the `scripts` topic, not any one command.
    const ids = [...options.config.commands.filter((c) => !c.hidden).map((c) => c.id), ...options.config.topics.map((t) => t.name)];
    const best = closest(
      typed,
      ids.map((id) => id.split(":").join(" ")),
    );
    const hint = best ? ` Did you mean "${bin} ${best}"?` : "";
    const keyHint = looksLikeSecret(options.id) ? " Never pass a key as an argument: set REDUCK_API_KEY or pipe it to `reduck login`." : "";
    message = `"${typed}" is not a ${bin} command.${hint}${keyHint} Run "${bin} --help" for the list.`;
  }
  reportError(usageError(message), json);
  process.exit(process.exitCode as number);
};

export default hook;
