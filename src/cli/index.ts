import { run, flush, handle } from "@oclif/core";
import { ExitCode } from "./exit-codes.js";
export { COMMANDS } from "./commands.js";

/**
 * The CLI entry. Not run at import: oclif imports this module to find COMMANDS, and a
 * top-level run would deadlock that import.
 */
export async function main(argv = process.argv.slice(2)): Promise<void> {
  // Ctrl-C: one line and the conventional exit code. A run cut short is recorded as failed
  // by the service (the upload broke); it is never half-sent twice.
  process.once("SIGINT", () => {
    process.stderr.write("\nInterrupted.\n");
    process.exit(ExitCode.INTERRUPTED);
  });
  try {
    await run(argv, import.meta.url);
    await flush();
  } catch (err) {
    await handle(err as Error);
  }
}
