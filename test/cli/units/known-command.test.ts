/**
 * The start without oclif's load (src/cli/shell/known-command.ts) against oclif itself, on the
 * package the tests run: for every command line it takes, oclif's `Config.load` and `normalizeArgv`
 * find the same command and words, its configuration holds what oclif's holds in every field a
 * command can read (in several homes and settings), hooks answer alike, and every command line it
 * must leave to oclif is left.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Config } from "@oclif/core";
import { normalizeArgv } from "@oclif/core/help";
import { afterEach, describe, expect, test, vi } from "vitest";
import { knownCommand } from "../../../src/cli/shell/known-command.js";
import { BUILD_ROOT } from "../../support/cli.js";
import { temporaryFolder } from "../../support/files.js";

/** The CLI's command table as the start sees it: every command oclif knows (none is loaded here). */
const COMMANDS = Object.fromEntries((await Config.load(BUILD_ROOT)).commandIDs.map((id) => [id, () => Promise.reject(new Error(`${id} is not loaded here`))]));

afterEach(() => {
  vi.unstubAllEnvs();
});

/** A user's settings: a fresh home, and the variables given (undefined: unset). */
function user(variables: Record<string, string | undefined> = {}): string {
  const home = temporaryFolder("reduck-known-command-");
  for (const name of Object.keys(process.env)) if (/^(REDUCK_|XDG_|DEBUG$)/.test(name)) vi.stubEnv(name, undefined);
  for (const [name, value] of Object.entries({ HOME: home, ...variables })) vi.stubEnv(name, value);
  return home;
}

/**
 * What oclif's load leaves out of the comparison: its tables (commands, topics, permutations,
 * plugins and their loader), which this path never reads (it runs a command it already found), and
 * what records how it was loaded. Hooks are compared by what they do, below.
 */
const TABLES = new Set([
  "options",
  "plugins",
  "pluginLoader",
  "rootPlugin",
  "_commands",
  "_topics",
  "_commandIDs",
  "commandPermutations",
  "topicPermutations",
  "userPJSON",
]);

/** package.json as oclif holds it, less the name it writes into each topic as it builds its table of topics. */
function withoutTopicNames(pjson: Config["pjson"]): unknown {
  const topics = Object.fromEntries(Object.entries(pjson.oclif.topics ?? {}).map(([key, topic]) => [key, { ...topic, name: undefined }]));
  return { ...pjson, oclif: { ...pjson.oclif, topics } };
}

describe("a command line the CLI knows runs with oclif's command, words and configuration", () => {
  const lines = [
    ["scripts", "list", "reduck", "--json"],
    ["list", "reduck"],
    ["read", "reduck/mail.google.com/send_email"],
    ["scripts:list", "reduck"],
    ["scripts", "versions", "list", "reduck/example.com/get_title"],
    ["run", "--script", "reduck/mail.google.com/send_email", "to=a@b.c", "file:attachment=x.pdf"],
    ["batch", "report", "people.csv"],
    ["batch", "people.csv", "--script", "x/y/z"],
    ["runs", "get", "scripts"],
    ["whoami"],
    ["flock", "secrets", "set", "NAME=value"],
    ["scripts", "list", "--", "--help"],
  ];
  test.each(lines.map((line) => [line.join(" "), line]))("%s", async (_, line) => {
    user();
    const found = await knownCommand(line as string[], BUILD_ROOT, COMMANDS);
    const oclif = await Config.load(BUILD_ROOT);
    const [word, ...rest] = normalizeArgv(oclif, [...(line as string[])]);
    // The command itself, also when the line names it by an alias (which oclif's table lists as an id of its own).
    const command = oclif.getPluginsList()[0]!.commands.find((c) => c.id === word || c.aliases.includes(word!));
    expect(found?.id).toBe(command?.id);
    expect(found?.argv).toEqual(rest);
  });

  const settings: [string, Record<string, string | undefined>][] = [
    ["a bare home", {}],
    ["XDG folders", { XDG_CONFIG_HOME: "/x/config", XDG_CACHE_HOME: "/x/cache", XDG_DATA_HOME: "/x/data" }],
    [
      "REDUCK_ folders and oclif's other REDUCK_ variables",
      {
        REDUCK_CONFIG_DIR: "/r/config",
        REDUCK_CACHE_DIR: "/r/cache",
        REDUCK_DATA_DIR: "/r/data",
        REDUCK_BINPATH: "/r/bin",
        REDUCK_NPM_REGISTRY: "https://registry.example",
      },
    ],
    ["no SHELL", { SHELL: undefined }],
  ];
  test.each(settings)("every field oclif's load sets, with %s", async (_, variables) => {
    user(variables);
    const found = await knownCommand(["scripts", "list"], BUILD_ROOT, COMMANDS);
    const oclif = await Config.load(BUILD_ROOT);
    const fields = Object.keys(oclif).filter((key) => !TABLES.has(key) && typeof (oclif as never)[key] !== "function");
    expect(fields).toEqual(expect.arrayContaining(["bin", "userAgent", "configDir", "cacheDir", "dataDir", "home", "shell", "theme", "pjson", "version"]));
    for (const key of fields) expect((found!.config as never)[key], key).toEqual(key === "pjson" ? withoutTopicNames(oclif.pjson) : (oclif as never)[key]);
  });

  test("a user's theme.json is read as oclif reads it", async () => {
    const home = user();
    mkdirSync(path.join(home, ".config", "reduck"), { recursive: true });
    writeFileSync(path.join(home, ".config", "reduck", "theme.json"), JSON.stringify({ command: "cyan", json: { key: "red" } }));
    const found = await knownCommand(["whoami"], BUILD_ROOT, COMMANDS);
    const oclif = await Config.load(BUILD_ROOT);
    expect(oclif.theme).toBeDefined();
    expect(found!.config.theme).toEqual(oclif.theme);
  });

  test("every hook a command meets answers as oclif's does: none runs", async () => {
    user();
    const found = await knownCommand(["scripts", "list"], BUILD_ROOT, COMMANDS);
    const oclif = await Config.load(BUILD_ROOT);
    for (const event of ["init", "prerun", "preparse", "postrun", "finally"] as const) {
      const options = { argv: [], id: "scripts:list", Command: undefined, result: undefined, options: {} } as never;
      expect(await found!.config.runHook(event, options), event).toEqual({ failures: [], successes: [] });
      expect(await oclif.runHook(event, options), event).toEqual({ failures: [], successes: [] });
    }
  });
});

describe("everything else is left to oclif", () => {
  const lines: [string, string[]][] = [
    ["no words", []],
    ["--version", ["--version"]],
    ["-v", ["-v"]],
    ["--help", ["--help"]],
    ["a command's --help", ["scripts", "list", "--help"]],
    ["a command's -h", ["run", "-h", "--script", "a/b/c"]],
    ["a topic", ["scripts"]],
    ["a topic of a topic", ["scripts", "versions"]],
    ["a misspelt command", ["scripts", "lst"]],
    ["an unknown command", ["deploy"]],
    ["help", ["help", "scripts"]],
    ["autocomplete", ["autocomplete", "bash"]],
    ["a flag first", ["--json", "whoami"]],
  ];
  test.each(lines)("%s", async (_, line) => {
    user();
    expect(await knownCommand(line, BUILD_ROOT, COMMANDS)).toBeUndefined();
  });

  test("DEBUG set (oclif's debug lines describe its load)", async () => {
    user({ DEBUG: "oclif:*" });
    expect(await knownCommand(["whoami"], BUILD_ROOT, COMMANDS)).toBeUndefined();
  });

  test("a user's plugins (oclif reads them from its data folder's package.json)", async () => {
    const home = user();
    expect(await knownCommand(["whoami"], BUILD_ROOT, COMMANDS)).toBeDefined();
    mkdirSync(path.join(home, ".local", "share", "reduck"), { recursive: true });
    writeFileSync(path.join(home, ".local", "share", "reduck", "package.json"), JSON.stringify({ oclif: { plugins: ["some-plugin"] } }));
    expect(await knownCommand(["whoami"], BUILD_ROOT, COMMANDS)).toBeUndefined();
  });

  test("a package without the table, or with a damaged one", async () => {
    user();
    const bare = temporaryFolder("reduck-known-command-package-");
    writeFileSync(
      path.join(bare, "package.json"),
      JSON.stringify({ name: "reduck-client", version: "1.0.0", oclif: { bin: "reduck", topicSeparator: " ", commands: "./x" } }),
    );
    expect(await knownCommand(["whoami"], bare, COMMANDS)).toBeUndefined();
    mkdirSync(path.join(bare, "dist", "cli"), { recursive: true });
    writeFileSync(path.join(bare, "dist", "cli", "commands.json"), '{"whoami": {"aliases": [], "wor');
    expect(await knownCommand(["whoami"], bare, COMMANDS)).toBeUndefined();
  });

  test("a package.json with hooks or plugins beyond the CLI's own", async () => {
    user();
    const copy = temporaryFolder("reduck-known-command-package-");
    mkdirSync(path.join(copy, "dist", "cli"), { recursive: true });
    writeFileSync(path.join(copy, "dist", "cli", "commands.json"), JSON.stringify({ whoami: { aliases: [], words: false } }));
    const oclif = { bin: "reduck", topicSeparator: " ", commands: "./x" };
    const write = (extra: object) =>
      writeFileSync(path.join(copy, "package.json"), JSON.stringify({ name: "reduck-client", version: "1.0.0", oclif: { ...oclif, ...extra } }));
    write({ hooks: { command_not_found: "./x" } });
    expect(await knownCommand(["whoami"], copy, COMMANDS)).toBeDefined();
    for (const extra of [{ hooks: { init: "./x" } }, { plugins: ["@oclif/plugin-x"] }, { jitPlugins: { "@x/y": "1" } }, { flexibleTaxonomy: true }]) {
      write(extra);
      expect(await knownCommand(["whoami"], copy, COMMANDS), JSON.stringify(extra)).toBeUndefined();
    }
  });
});
