/**
 * Writing the module `reduck scripts types` makes: its folder checked before the service is read,
 * the module written whole through a temporary file, and what the command says about it.
 */
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { addressOf, scriptsModule, type ScriptContract } from "../../typegen/module.js";
import { CliError, usageError } from "../shell/errors.js";
import { ExitCode } from "../shell/exit-codes.js";
import { madeWith } from "./types-header.js";

/** The module written (and, with --check, read) when no --out is given. */
export const DEFAULT_TYPES_OUT = "reduck-scripts.ts";

/** What a written module holds: the command's answer with --json. */
export interface TypesWritten {
  file: string;
  scripts: Array<{ address: string; versionNumber: number; versionId: string }>;
  /** How many fields are typed `unknown`: schema forms the converter does not express. */
  unknownFields: number;
}

/** The flags the module's header repeats (`out` as given: absent when it was the default). */
export interface TypesFlags {
  version?: string;
  out?: string;
  strict?: boolean;
}

/** The folder `--out` names must exist: said before anything is read from the service. */
export function checkOutFolder(out: string): void {
  const folder = path.dirname(path.resolve(out));
  if (!existsSync(folder)) throw usageError(`cannot write ${out}: the folder ${path.dirname(out)} does not exist (create it first)`);
  if (!statSync(folder).isDirectory()) throw usageError(`cannot write ${out}: ${path.dirname(out)} is not a folder`);
  if (existsSync(out) && statSync(out).isDirectory())
    throw usageError(`cannot write ${out}: it is a folder; give a file name such as ${path.join(out, DEFAULT_TYPES_OUT)}`);
  // Written through a temporary file renamed over it: the folder must take new files.
  try {
    accessSync(folder, constants.W_OK | constants.X_OK);
  } catch (err) {
    throw usageError(
      `cannot write ${out}: no file can be created in ${path.dirname(out)} (${(err as NodeJS.ErrnoException).code}): choose a folder you can write to`,
    );
  }
}

/**
 * Writes the module for these contracts to `out`, whole or not at all; its header names `from`
 * (--from DIR), else the addresses.
 */
export async function writeTypesModule(scripts: ScriptContract[], out: string, flags: TypesFlags, from: string[] | undefined): Promise<TypesWritten> {
  const unique = [...new Map(scripts.map((s) => [addressOf(s), s])).values()];
  const addresses = unique.map(addressOf).sort();
  const text = scriptsModule(unique, madeWith(from ?? addresses, flags), { strict: flags.strict });
  // Written whole or not at all: a half-written module would break the user's build.
  const temporary = `${out}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, text);
    await rename(temporary, out);
  } catch (err) {
    throw new CliError(`cannot write ${out}: ${(err as Error).message}`, ExitCode.USAGE);
  }
  return {
    file: out,
    scripts: [...unique]
      .sort((a, b) => (addressOf(a) < addressOf(b) ? -1 : 1))
      .map((s) => ({ address: addressOf(s), versionNumber: s.versionNumber, versionId: s.versionId })),
    unknownFields: (text.match(/^\s*\/\/ unknown: /gm) ?? []).length,
  };
}

/** The notes for people after a module is written: where it is, how to use it, and what is typed unknown. */
export function writtenNotes({ file, scripts, unknownFields: loose }: TypesWritten): string[] {
  const notes = [
    `Wrote types for ${scripts.length} script${scripts.length === 1 ? "" : "s"} to ${file}. Import it once (import "./${path.basename(file, ".ts")}.js";) and runScript checks their args.`,
  ];
  if (loose)
    notes.push(
      `${loose} field${loose === 1 ? " is" : "s are"} typed unknown: a schema form the converter does not express (see the "// unknown:" comments in ${file}).`,
    );
  return notes;
}
