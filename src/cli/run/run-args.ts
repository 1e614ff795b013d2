/**
 * The arguments of `reduck run` and `reduck batch`, read by one reader driven by each command's
 * flag definitions: flags (with their values) apart, what is left are script arguments,
 * `name=value` and `file:INPUT=PATH`. For `run`, `--script ADDRESS` starts a step and the
 * arguments after it belong to that step; for `batch`, they apply to every row. Values are
 * coerced to the types the script's input schema asks for, and checked before anything is
 * uploaded.
 */
import { resolve } from "node:path";
import type { ReduckClient } from "../../core/client.js";
import { expandHome } from "../../system/paths.js";
import { usageError } from "../shell/errors.js";
import { parseAddress, type ScriptAddress } from "../shell/address.js";
import { scriptFlagHint } from "./run-hints.js";

/** One `--script ADDRESS` and the arguments after it; its files as paths, until they are checked. */
export interface StepArgs<File = string> {
  address: ScriptAddress;
  /** Raw `name=value` pairs, in order. */
  values: Array<[string, string]>;
  /** `file:INPUT=PATH`, with `~` expanded. */
  files: Array<[string, File]>;
}

/**
 * What the argument reader needs of a command's oclif flag definitions (`Flags.string(...)` and
 * `Flags.boolean(...)` give these fields): which flags take a value ("option"), and the other
 * names a flag answers to.
 */
export interface FlagShape {
  type: string;
  char?: string;
  aliases?: readonly string[];
  charAliases?: readonly string[];
  allowNo?: boolean;
}
export type FlagDefinitions = Readonly<Record<string, FlagShape>>;

/** What `reduck run` or `reduck batch` was given, and how it reaches the service and the user. */
export interface CommandLine<Flags> {
  argv: readonly string[];
  flagDefinitions: FlagDefinitions;
  flags: Flags;
  /** The command's client, made only once the local checks have passed. */
  client: () => Promise<ReduckClient>;
  /** A note for people on stderr (silent with --json). */
  note: (message: string) => void;
}

/** One token of argv (with its value, for a flag that takes one), in order. */
export type ArgvPart =
  | { flag: string; value?: string }
  /** Starts with `-` but names no flag of the command: oclif reports it, or lets it through; never a script argument. */
  | { unknown: string }
  | { argument: string };

/**
 * Splits argv into the command's flags and everything else, by the command's own flag
 * definitions: a flag that takes a value takes the next token (`--out DIR`, `-q words`) or its
 * inline value (`--out=DIR`, `-qwords`, `-q=words`), under its name, an alias (`--version-id`)
 * or a char; `--no-X` is a boolean's negation. As oclif reads them, so a token oclif takes as a
 * flag's value is never a script argument. A flag added to a command is known here at once.
 *
 * @example
 * splitArgv(["--out", "dir", "to=me@example.com"], { out: { type: "option" } });
 * // [{ flag: "out", value: "dir" }, { argument: "to=me@example.com" }]
 */
export function splitArgv(argv: readonly string[], flags: FlagDefinitions): ArgvPart[] {
  const longNames = new Map<string, string>();
  const charNames = new Map<string, string>();
  for (const [name, flag] of Object.entries(flags)) {
    longNames.set(name, name);
    for (const alias of flag.aliases ?? []) longNames.set(alias, name);
    if (flag.type === "boolean" && flag.allowNo) longNames.set(`no-${name}`, name);
    if (flag.char) charNames.set(flag.char, name);
    for (const c of flag.charAliases ?? []) charNames.set(c, name);
  }
  const isFlag = (token: string) =>
    token.startsWith("--") ? longNames.has(token.slice(2).split("=")[0]!) : token.length > 1 && token.startsWith("-") && charNames.has(token[1]!);
  const parts: ArgvPart[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (!token.startsWith("-")) {
      parts.push({ argument: token });
      continue;
    }
    const long = token.startsWith("--");
    const eq = token.indexOf("=");
    const name = long ? longNames.get(token.slice(2, eq < 0 ? undefined : eq)) : charNames.get(token.slice(1, 2));
    if (!name) {
      parts.push({ unknown: token });
      continue;
    }
    if (flags[name]!.type !== "option") {
      parts.push({ flag: name });
      continue;
    }
    // Inline (`--out=DIR`, `-qwords`, `-q=words`), else the next token unless that is a flag itself.
    const inline = long ? (eq < 0 ? undefined : token.slice(eq + 1)) : token.length > 2 ? token.slice(token[2] === "=" ? 3 : 2) : undefined;
    if (inline !== undefined) parts.push({ flag: name, value: inline });
    else if (i + 1 < argv.length && !isFlag(argv[i + 1]!)) parts.push({ flag: name, value: argv[++i] });
    else parts.push({ flag: name });
  }
  return parts;
}

/** A script argument as written after --script: `name=value`, or `file:INPUT=PATH` (PATH with `~` expanded). */
export type ScriptArgument = { name: string; value: string; file?: undefined } | { file: string; path: string };

/** Reads one `name=value` or `file:INPUT=PATH`; anything else is a usage error saying how to write it. */
export function readScriptArgument(token: string): ScriptArgument {
  const eq = token.indexOf("=");
  if (eq <= 0) throw usageError(`${JSON.stringify(token)} is not an argument: write name=value, or file:input=path for a file`);
  const name = token.slice(0, eq);
  const value = token.slice(eq + 1); // split on the first "=" only: values may contain "="
  if (!name.startsWith("file:")) return { name, value };
  const input = name.slice("file:".length);
  if (!input) throw usageError(`${JSON.stringify(token)} names no file input: write file:input=path`);
  if (!value) throw usageError(`file:${input} needs a path: write file:${input}=path`);
  return { file: input, path: expandHome(value) };
}

/** `reduck run`'s argv as steps: each `--script ADDRESS` starts one, and the script arguments after it are its own. */
export function groupSteps(argv: readonly string[], flags: FlagDefinitions): StepArgs[] {
  const steps: StepArgs[] = [];
  for (const part of splitArgv(argv, flags)) {
    if ("flag" in part && part.flag === "script") {
      const value = part.value;
      if (!value || value.startsWith("-")) throw usageError("--script needs an address, e.g. --script reduck/mail.google.com/send_email");
      steps.push({ address: parseAddress(value), values: [], files: [] });
      continue;
    }
    if (!("argument" in part)) continue;
    const token = part.argument;
    const hint = scriptFlagHint(token);
    if (hint) throw usageError(`${JSON.stringify(token)} is a script address, not an argument: ${hint} (its arguments follow it as name=value)`);
    const argument = readScriptArgument(token);
    const step = steps.at(-1);
    if (!step) {
      throw usageError(
        `${JSON.stringify(token)} comes before any --script: arguments follow --script ADDRESS, e.g. reduck run --script reduck/mail.google.com/send_email ${token}`,
      );
    }
    if (argument.file !== undefined) step.files.push([argument.file, argument.path]);
    else step.values.push([argument.name, argument.value]);
  }
  if (steps.length === 0)
    throw usageError("give a script to run: --script ADDRESS name=value ..., where ADDRESS is [handle/]host/slug (see `reduck scripts list`)");
  return steps;
}

/**
 * `reduck batch`'s script arguments (after its one --script), the same for every row, as a row
 * holds them: `name` to value, `file:INPUT` to an absolute path. A name given twice is an error.
 */
export function sharedArguments(argv: readonly string[], flags: FlagDefinitions): Record<string, string> {
  const shared: Record<string, string> = {};
  for (const part of splitArgv(argv, flags)) {
    if (!("argument" in part)) continue;
    const argument = readScriptArgument(part.argument);
    const name = argument.file !== undefined ? `file:${argument.file}` : argument.name;
    if (name in shared) throw usageError(`${name} is given twice`);
    shared[name] = argument.file !== undefined ? resolve(argument.path) : argument.value;
  }
  return shared;
}

/** Shells do not expand `~` after `=`, so the CLI does (`~\` too on Windows). */
export { expandHome } from "../../system/paths.js";
