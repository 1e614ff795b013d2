/**
 * oclif plugins, built in. The published CLI is one bundle with no oclif packages installed
 * beside it (so the library installs light), and oclif loads plugins from node_modules: the
 * plugins' commands are therefore registered as our own.
 *
 * plugin-autocomplete exports no commands from its entry point, so its command modules are
 * imported by file; the bundler copies them into dist/ at build time.
 */
import { commands as helpCommands } from "@oclif/plugin-help";
import Autocomplete from "../../../node_modules/@oclif/plugin-autocomplete/lib/commands/autocomplete/index.js";
import AutocompleteCreate from "../../../node_modules/@oclif/plugin-autocomplete/lib/commands/autocomplete/create.js";
import AutocompleteScript from "../../../node_modules/@oclif/plugin-autocomplete/lib/commands/autocomplete/script.js";

export const PLUGIN_COMMANDS = {
  ...helpCommands,
  autocomplete: Autocomplete,
  "autocomplete:create": AutocompleteCreate,
  "autocomplete:script": AutocompleteScript,
};
