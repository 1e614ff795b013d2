/**
 * oclif plugins, built in. The published CLI is one bundle with no oclif packages installed
 * beside it (so the library installs light), and oclif loads plugins from node_modules: the
 * plugins' commands are therefore registered as our own, loaded when they run like ours
 * (src/cli/commands.ts).
 *
 * plugin-autocomplete offers its command modules to oclif's loader only, not in its `exports`:
 * the build finds them in the folder the package resolves to (tsup.config.ts's alias, made by
 * build/bundle-imports.ts), and src/cli/vendor/plugin-autocomplete.d.ts types them.
 */
export const PLUGIN_COMMANDS = {
  help: () => import("@oclif/plugin-help").then((m) => ({ default: m.commands.help })),
  autocomplete: () => import("@oclif/plugin-autocomplete/lib/commands/autocomplete/index.js"),
  "autocomplete:create": () => import("@oclif/plugin-autocomplete/lib/commands/autocomplete/create.js"),
  "autocomplete:script": () => import("@oclif/plugin-autocomplete/lib/commands/autocomplete/script.js"),
};
