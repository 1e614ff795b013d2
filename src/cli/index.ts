import { run, flush, handle } from "@oclif/core";
export { COMMANDS } from "./commands.js";

/**
 * The CLI entry. Not run at import: oclif imports this module to find COMMANDS, and a
 * top-level run would deadlock that import.
 */
export async function main(argv = process.argv.slice(2)): Promise<void> {
  try {
    await run(argv, import.meta.url);
    await flush();
  } catch (err) {
    await handle(err as Error);
  }
}
