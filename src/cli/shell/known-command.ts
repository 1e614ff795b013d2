/**
 * A start without oclif's `Config.load`, for a command the CLI knows, named as itself.
 *
 * oclif's `run` loads a whole configuration before it finds the command: it parses
 * oclif.manifest.json (every command's flags and help), builds its tables of commands and topics,
 * looks for user plugins, then runs the command with the result. A command of this CLI reads
 * little of it: `bin`, `userAgent`, a `REDUCK_*` variable, the theme, and hooks, of which this CLI
 * has only `command_not_found` (never met on this path). So when argv names a command of
 * dist/cli/commands.json (written beside the manifest at build time: each id, its aliases, and
 * whether words follow it) and nothing would make oclif do otherwise, the command runs with a
 * configuration holding those fields, each made as oclif makes it (about a tenth of a catalogue
 * command's instructions fewer, measured). Anything else goes to oclif's own `run`: help
 * and version flags, an unknown or misspelt command, a topic, `DEBUG`, WSL, user plugins, hooks
 * or plugins in package.json, the commands oclif's plugins bring (help, autocomplete), a table
 * that cannot be read. test/cli/units/known-command.test.ts holds this configuration against
 * oclif's own, field by field.
 *
 * oclif's `Command.run` is handed this configuration and uses it as it is: the build keeps oclif
 * from loading a configuration anew when given one of its own (build/oclif-patches.ts,
 * SAME_CONFIG).
 */
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Command, Config } from "@oclif/core";
import { normalizeArgv } from "@oclif/core/help";
import type { CommandLoader } from "./lazy-commands.js";

/** One command of the table: its aliases, and whether words may follow its id (oclif reads the id from argv by it). */
type KnownCommand = { aliases: string[]; words: boolean };

/** The table's file in dist/cli/, written by scripts/manifest.mjs. */
const KNOWN_COMMANDS_FILE = "commands.json";

/** Commands oclif's plugins bring, which read more of the configuration than this CLI's own. */
const PLUGIN_COMMAND = /^(help|autocomplete)(:|$)/;

type OclifSettings = {
  bin?: string;
  binAliases?: string[];
  dirname?: string;
  topicSeparator?: string;
  additionalHelpFlags?: string[];
  hooks?: Record<string, unknown>;
  plugins?: unknown[];
  devPlugins?: unknown[];
  jitPlugins?: Record<string, string>;
  flexibleTaxonomy?: boolean;
  npmRegistry?: string;
  nsisCustomization?: string;
  update?: { node?: unknown };
  theme?: unknown;
  commands?: unknown;
};
type Package = { name: string; version: string; oclif?: OclifSettings };

/** Config's members that TypeScript keeps private, called here as Config.load calls them. */
type ConfigInside = {
  windowsHome(): string;
  macosCacheDir(): string | undefined;
  buildS3Config(): unknown;
  maybeAdjustDebugSetting(): void;
  loadTheme(): Promise<unknown>;
  dir(category: "cache" | "config" | "data"): string;
};

/**
 * Runs the command argv names and says so; or says it cannot, having done nothing, and oclif's
 * `run` must. `root` is the package's folder.
 */
export async function runKnownCommand(argv: string[], root: string, loaders: Record<string, CommandLoader>): Promise<boolean> {
  const found = await knownCommand(argv, root, loaders);
  if (!found) return false;
  const Real = (await loaders[found.id]!()).default as unknown as Command.Class;
  // What oclif sets on the class it found.
  Real.id = found.id;
  await Real.run(found.argv, found.config);
  return true;
}

/**
 * The command argv names (its id, the words after them) and the configuration to run it with, when
 * it may run without oclif's load; else undefined.
 */
export async function knownCommand(
  argv: string[],
  root: string,
  loaders: Record<string, CommandLoader>,
): Promise<{ id: string; argv: string[]; config: Config } | undefined> {
  if (!argv[0] || argv[0].startsWith("-") || "DEBUG" in process.env) return undefined;
  let table: Record<string, KnownCommand>;
  let pjson: Package;
  try {
    table = JSON.parse(readFileSync(path.join(root, "dist", "cli", KNOWN_COMMANDS_FILE), "latin1"));
    pjson = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  } catch {
    return undefined;
  }
  const oclif = pjson.oclif;
  if (!oclif || oclif.topicSeparator !== " " || oclif.flexibleTaxonomy || oclif.commands === undefined) return undefined;
  if (oclif.plugins?.length || oclif.devPlugins?.length || oclif.jitPlugins) return undefined;
  if (Object.keys(oclif.hooks ?? {}).some((event) => event !== "command_not_found")) return undefined;
  // oclif's helpAddition: a help flag anywhere before `--`.
  const helpFlags = ["--help", ...(oclif.additionalHelpFlags ?? [])];
  for (const arg of argv) {
    if (arg === "--") break;
    if (helpFlags.includes(arg)) return undefined;
  }

  const named = new Map<string, string>();
  for (const [id, command] of Object.entries(table)) {
    named.set(id, id);
    for (const alias of command.aliases) named.set(alias, id);
  }
  // oclif's own reading of the id from argv, over the table.
  const lookup = {
    topicSeparator: " ",
    commandIDs: [...named.keys()],
    findCommand: (id: string) => {
      const command = named.has(id) ? table[named.get(id)!] : undefined;
      return command && { strict: true, args: command.words ? { words: {} } : {} };
    },
  };
  const [word = "", ...rest] = normalizeArgv(lookup as unknown as Config, [...argv]);
  const id = named.get(word);
  if (!id || PLUGIN_COMMAND.test(id) || !Object.hasOwn(loaders, id)) return undefined;
  if (process.platform === "linux" && maybeWsl()) return undefined;
  // oclif asks Windows for the shell where SHELL is unset (shellName does not).
  if (process.platform === "win32" && !process.env.SHELL) return undefined;

  const config = configFor(root, pjson, oclif);
  // User plugins are listed here: oclif's load knows them.
  if (existsSync(path.join(config.dataDir, "package.json"))) return undefined;
  const inside = config as unknown as ConfigInside;
  inside.maybeAdjustDebugSetting();
  // oclif's theme: package.json's, merged with the user's theme.json; with neither, none.
  if (oclif.theme || existsSync(path.resolve(config.configDir, "theme.json"))) config.theme = (await inside.loadTheme()) as Config["theme"];
  return { id, argv: rest, config };
}

/** What Config.load sets, for a CLI with no plugins: the same fields, made the same way. */
function configFor(root: string, pjson: Package, oclif: OclifSettings): Config {
  const config = new Config({ root });
  const inside = config as unknown as ConfigInside;
  const arch = os.arch() === "ia32" ? "x86" : os.arch();
  const platform = process.platform;
  const windows = platform === "win32";
  const dirname = oclif.dirname || pjson.name;
  Object.assign(config, {
    root,
    pjson,
    name: pjson.name,
    version: pjson.version,
    channel: /[^-]+(?:-([^.]+))?/.exec(pjson.version)?.[1] || "stable",
    valid: true,
    arch,
    platform,
    windows,
    bin: oclif.bin || pjson.name,
    binAliases: oclif.binAliases,
    nsisCustomization: oclif.nsisCustomization,
    dirname: windows ? dirname.replace("/", "\\") : dirname,
    flexibleTaxonomy: false,
    topicSeparator: " ",
    userAgent: `${pjson.name}/${pjson.version} ${platform}-${arch} node-${process.version}`,
    shell: shellName(),
    isSingleCommandCLI: false,
    // The root plugin's part in running hooks (oclif runs `preparse` for it alone): it has none.
    rootPlugin: { name: pjson.name, root, pjson, hooks: {} },
  });
  config.home = process.env.HOME || (windows && inside.windowsHome()) || os.homedir() || os.tmpdir();
  config.cacheDir = config.scopedEnvVar("CACHE_DIR") || inside.macosCacheDir() || inside.dir("cache");
  config.configDir = config.scopedEnvVar("CONFIG_DIR") || inside.dir("config");
  config.dataDir = config.scopedEnvVar("DATA_DIR") || inside.dir("data");
  config.binPath = config.scopedEnvVar("BINPATH");
  config.npmRegistry = config.scopedEnvVar("NPM_REGISTRY") || oclif.npmRegistry;
  config.updateConfig = { ...oclif.update, node: oclif.update?.node ?? {}, s3: inside.buildS3Config() } as Config["updateConfig"];
  return config;
}

/**
 * Any sign of WSL, where oclif names the platform `wsl` (its is-wsl check, which also asks whether
 * it runs in a container there: oclif's load answers that). The same signs as bin/run.js's onWsl,
 * which answers `--version` before this bundle loads; is-wsl itself, loaded here, cost 2.7M
 * instructions (measured).
 */
function maybeWsl(): boolean {
  if (os.release().toLowerCase().includes("microsoft")) return true;
  try {
    if (readFileSync("/proc/version", "latin1").toLowerCase().includes("microsoft")) return true;
  } catch {}
  return existsSync("/proc/sys/fs/binfmt_misc/WSLInterop") || existsSync("/run/WSL");
}

/** oclif's getShell where SHELL is set or the system is not Windows: the last part of `SHELL`, else of the user's login shell. */
function shellName(): string {
  const shell = process.env.SHELL ?? os.userInfo().shell?.split(path.sep)?.pop();
  return shell ? (shell.split("/").at(-1) ?? "unknown") : "unknown";
}
