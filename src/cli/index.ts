import { run, flush, handle } from "@oclif/core";
import { onInterrupt } from "./interrupt.js";
export { COMMANDS } from "./commands.js";
// Named in package.json (oclif.helpClass), so help needs no second file.
export { ReduckHelp } from "./help.js";
// Named in package.json (oclif.hooks), for the same reason.
export { default as NOT_FOUND_HOOK } from "./hooks/not-found.js";

/**
 * The CLI entry. Not run at import: oclif imports this module to find COMMANDS, and a
 * top-level run would deadlock that import.
 */
export async function main(argv = process.argv.slice(2)): Promise<void> {
  // Ctrl-C: one line saying what was left behind (see interrupt.ts), and exit 130.
  process.once("SIGINT", onInterrupt);
  try {
    await run(argv, import.meta.url);
    await flush();
  } catch (err) {
    await handle(err as Error);
  }
}
