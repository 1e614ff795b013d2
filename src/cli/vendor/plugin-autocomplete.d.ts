/**
 * plugin-autocomplete's command modules, which its `exports` leave out (the build reaches them
 * through the package's folder: build/bundle-imports.ts): each is an oclif command class.
 */
declare module "@oclif/plugin-autocomplete/lib/commands/autocomplete/*" {
  import type { Command } from "@oclif/core";
  const command: typeof Command;
  export default command;
}
