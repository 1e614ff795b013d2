/**
 * oclif plugins, built in. The published CLI is one bundle with no oclif packages installed
 * beside it (so the library installs light), and oclif loads plugins from node_modules: the
 * plugins' commands are therefore registered as our own.
 *
 * plugin-autocomplete offers its command modules to oclif's loader only, not in its `exports`:
 * the build finds them in the folder the package resolves to (tsup.config.ts's alias, made by
 * build/bundle-imports.ts), and src/cli/vendor/plugin-autocomplete.d.ts types them.
 */
import { commands as helpCommands } from "@oclif/plugin-help";
import Autocomplete from "@oclif/plugin-autocomplete/lib/commands/autocomplete/index.js";
import AutocompleteCreate from "@oclif/plugin-autocomplete/lib/commands/autocomplete/create.js";
import AutocompleteScript from "@oclif/plugin-autocomplete/lib/commands/autocomplete/script.js";

export const PLUGIN_COMMANDS = {
  ...helpCommands,
  autocomplete: Autocomplete,
  "autocomplete:create": AutocompleteCreate,
  "autocomplete:script": AutocompleteScript,
};
