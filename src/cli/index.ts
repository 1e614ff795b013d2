import path from "node:path";
import { fileURLToPath } from "node:url";
import { run, flush } from "@oclif/core";
import { exitAskedFor, toCliError } from "./shell/errors.js";
import { onInterrupt } from "./shell/interrupt.js";
import { reportError, wantsJson } from "./shell/json-errors.js";
import { hideSecretsFromDebug } from "./shell/debug-secrets.js";
import { COMMANDS as LOADERS } from "./commands.js";
import { runKnownCommand } from "./shell/known-command.js";
import { lazyCommands, loadAllCommands as loadAll } from "./shell/lazy-commands.js";
// Named in package.json (oclif.helpClass), so help needs no second file.
export { ReduckHelp } from "./shell/help.js";
// Named in package.json (oclif.hooks), for the same reason.
export { default as NOT_FOUND_HOOK } from "./hooks/not-found.js";

/** What oclif's explicit discovery reads (package.json's oclif.commands): each command loaded when it runs. */
export const COMMANDS = lazyCommands(LOADERS);

/** Every command's real class in COMMANDS, for `oclif manifest` (scripts/manifest.mjs). */
export const loadAllCommands = () => loadAll(COMMANDS, LOADERS);

/**
 * The CLI entry. Not run at import: oclif imports this module to find COMMANDS, and a
 * top-level run would deadlock that import.
 */
export async function main(argv = process.argv.slice(2)): Promise<void> {
  // Before oclif's first debug line, which prints the whole command line.
  await hideSecretsFromDebug(argv);
  // Ctrl-C: one line saying what was left behind (see interrupt.ts), and exit 130.
  process.once("SIGINT", onInterrupt);
  try {
    // The package's folder, not this module's: oclif looks for package.json from where it is
    // told, upwards, one failed read a folder (dist/cli/, dist/) before it finds it.
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
    const words = officialFlockWords(argv);
    if (!(await runKnownCommand(words, root, LOADERS))) await run(words, root);
    await flush();
  } catch (err) {
    // What no command's own catch saw (help, autocomplete, oclif itself): the same one line, or
    // one JSON document with --json, never oclif's stack trace.
    const asked = exitAskedFor(err);
    if (asked !== undefined) {
      process.exitCode = asked;
      return;
    }
    const json = wantsJson(argv);
    const cliError = toCliError(err);
    if (json && /Nonexistent flags?: --json/.test(cliError.message)) {
      cliError.message = `\`reduck ${argv
        .filter((a) => !a.startsWith("-"))
        .slice(0, 1)
        .join(" ")}\` prints text and takes no --json`;
    }
    reportError(cliError, json);
    if (process.env.REDUCK_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
  }
}

/**
 * The official CLI writes its flock verbs with a colon (`reduck flock secrets:set NAME=value`);
 * oclif, with a space between topics, reads `secrets:set` as a command and loses the argument
 * after it. Split there, so both spellings run the same command.
 */
function officialFlockWords(argv: string[]): string[] {
  if (argv[0] !== "flock" || !argv[1]?.includes(":") || argv[1].startsWith("-")) return argv;
  return [argv[0], ...argv[1].split(":"), ...argv.slice(2)];
}
