import { accessSync, constants, existsSync, statSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { Args, Flags } from "@oclif/core";
import type { ReduckClient } from "../../../core/client.js";
import { getScript, getScriptVersion } from "../../../generated/operations.js";
import { inputChanges } from "../../../typegen/drift.js";
import { addressOf, declaresStrict, recordedVersions, scriptsModule, type RecordedVersion, type ScriptContract } from "../../../typegen/module.js";
import { formatAddress, parseAddress } from "../../shell/address.js";
import { BaseCommand } from "../../shell/base.js";
import { CliError, fromReduckError, usageError } from "../../shell/errors.js";
import { ExitCode } from "../../shell/exit-codes.js";
import { resolveAddress, type ScriptPath } from "../../scripts/own-handle.js";
import { readScriptOrSuggest } from "../../scripts/script-lookup.js";
import { madeWith } from "../../scripts/types-header.js";
import { checkAnswer } from "../../shell/answer-check.js";
import { SCRIPT, VERSION } from "../../shell/answer-shapes.js";
import { checkVersionGiven, resolveVersion, versionFlag } from "../../scripts/versions.js";
import { readTree, treeContracts } from "../../scripts/folder-tree.js";

const DEFAULT_OUT = "reduck-scripts.ts";

/** One script of a `--check`: still at its recorded version, moved on, or gone. */
interface CheckedScript {
  address: string;
  status: "current" | "moved" | "missing";
  recorded: { versionNumber: number; versionId: string };
  current?: { versionNumber: number; versionId: string };
  /** What changed in its inputs, one line each (moved only). */
  inputChanges?: string[];
  /** Whether its result type changed (moved only). */
  resultChanged?: boolean;
}

export default class ScriptsTypes extends BaseCommand<typeof ScriptsTypes> {
  static override summary = "Write TypeScript types for scripts, so the compiler checks your runs";
  static override description =
    `Reads each script's contract (its current version, or --version) and writes one TypeScript module: for each script an args type, a files type (its file inputs) and a result type, registered in reduck-client's ReduckScripts under the script's address. Import the module once anywhere in your program, and runScript, runMany and waitForRun check the args and files of a registered script and type its result.

ADDRESS is [handle/]host/slug; without a handle, one of your own scripts (its types are registered under your handle: give the handle in runScript too). The file is the same for the same contracts (sorted, no dates), and its header names each script's version.

--strict also makes the types strict: a script address the module does not register (a misspelt slug, a handle left out, an address whose parts widened to string) no longer compiles, so every script your program runs must be in the module.

--from DIR makes the module offline from the contracts of a scripts tree (the folders \`reduck scripts pull\` writes), so a program type-checks against the scripts in the same commit.

--check reads the scripts from the file's header and exits 1 when one has moved on to another version since (a CI job runs it), naming the script, both versions and what changed in its inputs; 0 when every script is still at its version.

A schema form the converter does not express becomes \`unknown\`, with a comment saying why.`;

  static override examples = [
    {
      description: "Types for two official scripts, into reduck-scripts.ts",
      command: "<%= config.bin %> scripts types reduck/mail.google.com/send_email reduck/slack.com/upload_file",
    },
    {
      description: "One of your own scripts, into a file of your choice",
      command: "<%= config.bin %> scripts types example.com/get_title --out my-scripts.ts",
    },
    {
      description: "Offline, from the contracts of a pulled scripts tree",
      command: "<%= config.bin %> scripts pull --dir scripts && <%= config.bin %> scripts types --from scripts --out my-scripts.ts",
    },
    { description: "An earlier version of a script", command: "<%= config.bin %> scripts types example.com/get_title --version 1" },
    {
      description: "In CI: fail when a script moved on since the file was made (here, just made)",
      command: "<%= config.bin %> scripts types example.com/get_title --out my-scripts.ts && <%= config.bin %> scripts types --check --out my-scripts.ts",
    },
  ];

  static override strict = false;

  static override args = {
    address: Args.string({ description: "Script address: [handle/]host/slug; give several for several scripts." }),
  };

  static override flags = {
    out: Flags.string({ description: `The module to write (or, with --check, to read). Default ${DEFAULT_OUT}.`, helpValue: "FILE" }),
    version: versionFlag("Type this version instead of the current one (one address only)."),
    check: Flags.boolean({ description: "Write nothing: exit 1 when a script in the file has moved on from its version, 0 when none has." }),
    from: Flags.string({ description: "Make the module from the contracts of this scripts tree, offline (give no addresses).", helpValue: "DIR" }),
    strict: Flags.boolean({ description: "Make the types strict: an address the module does not register is a compile error." }),
  };

  public async run(): Promise<unknown> {
    // strict=false: the addresses after the first arrive in argv.
    const { argv } = await this.parse(ScriptsTypes);
    const given = [...new Set(argv as string[])];
    const out = this.flags.out ?? DEFAULT_OUT;
    if (this.flags.check) {
      if (given.length) throw usageError(`--check reads its scripts from ${out}: give no addresses (to type other scripts, run without --check)`);
      if (this.flags.version) throw usageError("--check compares with the current versions: drop --version");
      if (this.flags.strict) throw usageError("--check reads the file as it is: drop --strict (it is kept when you regenerate)");
      return this.check(out);
    }
    if (this.flags.from) {
      if (given.length || this.flags.version) throw usageError("--from takes every script of the tree: give no addresses and no --version");
      checkOutFolder(out);
      const from = path.relative(process.cwd(), path.resolve(this.flags.from)).split(path.sep).join("/") || ".";
      return this.write(treeContracts(await readTree(this.flags.from)), out, ["--from", from]);
    }
    if (given.length === 0) throw usageError("give at least one script address: reduck scripts types reduck/mail.google.com/send_email");
    if (this.flags.version && given.length > 1) throw usageError("--version names a version of one script: give one address with it");
    for (const a of given) parseAddress(a);
    checkOutFolder(out);

    const client = await this.client();
    const scripts: ScriptContract[] = [];
    for (const text of given) scripts.push(await this.contract(client, await resolveAddress(client, text), this.flags.version));
    return this.write(scripts, out, undefined);
  }

  /** Writes the module for these contracts to `out`, whole or not at all; its header names `from` (--from DIR), else the addresses. */
  private async write(scripts: ScriptContract[], out: string, from: string[] | undefined): Promise<unknown> {
    const unique = [...new Map(scripts.map((s) => [addressOf(s), s])).values()];
    const addresses = unique.map(addressOf).sort();
    const text = scriptsModule(unique, madeWith(from ?? addresses, this.flags), { strict: this.flags.strict });
    // Written whole or not at all: a half-written module would break the user's build.
    const temporary = `${out}.${process.pid}.tmp`;
    try {
      await writeFile(temporary, text);
      await rename(temporary, out);
    } catch (err) {
      throw new CliError(`cannot write ${out}: ${(err as Error).message}`, ExitCode.USAGE);
    }
    const loose = (text.match(/^\s*\/\/ unknown: /gm) ?? []).length;
    this.note(
      `Wrote types for ${unique.length} script${unique.length === 1 ? "" : "s"} to ${out}. Import it once (import "./${path.basename(out, ".ts")}.js";) and runScript checks their args.`,
    );
    if (loose)
      this.note(
        `${loose} field${loose === 1 ? " is" : "s are"} typed unknown: a schema form the converter does not express (see the "// unknown:" comments in ${out}).`,
      );
    return {
      file: out,
      scripts: [...unique]
        .sort((a, b) => (addressOf(a) < addressOf(b) ? -1 : 1))
        .map((s) => ({ address: addressOf(s), versionNumber: s.versionNumber, versionId: s.versionId })),
      unknownFields: loose,
    };
  }

  /** One script's contract: its current version, or the version `version` names. */
  private async contract(client: ReduckClient, scriptPath: ScriptPath, version: string | undefined): Promise<ScriptContract> {
    const address = formatAddress(scriptPath);
    if (version) checkVersionGiven(scriptPath, version);
    const script = await readScriptOrSuggest(client, scriptPath).catch((err: unknown) => {
      // An address that names no script is the caller's input: exit 2, with the did-you-mean.
      if (err instanceof CliError && err.detail.status === 404) throw new CliError(err.message, ExitCode.USAGE, err.detail);
      throw err;
    });
    let chosen = script.current_version;
    if (version) {
      const versionId = await resolveVersion(client, scriptPath, version);
      chosen = this.unwrap(await getScriptVersion({ client, path: { ...scriptPath, versionId } }), `reading ${address} version ${version}`, VERSION);
    }
    if (!chosen) {
      throw usageError(`${address} has no current version (only drafts): promote one with \`reduck scripts versions promote\`, or give --version`);
    }
    return {
      ...scriptPath,
      name: script.name,
      description: script.description ?? undefined,
      versionId: chosen.id,
      versionNumber: chosen.version_number,
      inputSchema: chosen.input_schema,
      outputSchema: chosen.output_schema,
    };
  }

  /** `--check`: each recorded script's version against its current one. */
  private async check(out: string): Promise<unknown> {
    let text: string;
    try {
      text = await readFile(out, "utf8");
    } catch {
      throw usageError(`${out} cannot be read: make it with \`reduck scripts types ADDRESS... --out ${out}\`, or name it with --out`);
    }
    const recorded = recordedVersions(text);
    if (recorded.length === 0) throw usageError(`${out} names no scripts in its header: it was not made by \`reduck scripts types\``);
    const client = await this.client();
    const results: CheckedScript[] = [];
    for (const r of recorded) results.push(await this.checkOne(client, r));
    const moved = results.filter((r) => r.status !== "current");
    if (!this.jsonEnabled()) {
      for (const r of results) this.log(describe(r));
      if (moved.length) {
        const addresses = results.filter((r) => r.status !== "missing").map((r) => r.address);
        this.log(
          `\nRegenerate with: reduck scripts types ${addresses.join(" ")}${out === DEFAULT_OUT ? "" : ` --out ${out}`}${declaresStrict(text) ? " --strict" : ""}`,
        );
      }
    }
    if (moved.length) process.exitCode = ExitCode.FAILED;
    return { file: out, upToDate: moved.length === 0, scripts: results };
  }

  private async checkOne(client: ReduckClient, r: RecordedVersion): Promise<CheckedScript> {
    const scriptPath = parseAddress(r.address) as ScriptPath;
    const recorded = { versionNumber: r.versionNumber, versionId: r.versionId };
    const read = await getScript({ client, path: scriptPath });
    if (read.error) {
      if (read.error.status === 404) return { address: r.address, status: "missing", recorded };
      throw fromReduckError(read.error, `reading ${r.address}`);
    }
    const now = checkAnswer(read.data, SCRIPT, `reading ${r.address}`).current_version;
    if (now && now.id === r.versionId) return { address: r.address, status: "current", recorded };
    if (!now) return { address: r.address, status: "missing", recorded };
    const current = { versionNumber: now.version_number, versionId: now.id };
    const before = await getScriptVersion({ client, path: { ...scriptPath, versionId: r.versionId } });
    // The recorded version may have been deleted: the changes are then unknown, the move is not.
    if (before.error) return { address: r.address, status: "moved", recorded, current };
    checkAnswer(before.data, VERSION, `reading ${r.address} version ${r.versionNumber}`);
    return {
      address: r.address,
      status: "moved",
      recorded,
      current,
      inputChanges: inputChanges(before.data.input_schema, now.input_schema),
      resultChanged: JSON.stringify(before.data.output_schema) !== JSON.stringify(now.output_schema),
    };
  }
}

/** A --check line (and the changes under it) for people. */
function describe(r: CheckedScript): string {
  const was = `version ${r.recorded.versionNumber}`;
  if (r.status === "current") return `${r.address}: still at ${was}`;
  if (r.status === "missing") return `${r.address}: was at ${was}; no longer readable, or has no current version`;
  const lines = [`${r.address}: moved from ${was} (id ${r.recorded.versionId}) to version ${r.current!.versionNumber} (id ${r.current!.versionId})`];
  if (r.inputChanges === undefined) lines.push(`  inputs: unknown (version ${r.recorded.versionNumber} can no longer be read)`);
  else if (r.inputChanges.length === 0) lines.push("  inputs: unchanged");
  else lines.push(...r.inputChanges.map((c) => `  input ${c}`));
  if (r.resultChanged) lines.push("  result: its schema changed");
  return lines.join("\n");
}

/** The folder `--out` names must exist: said before anything is read from the service. */
function checkOutFolder(out: string): void {
  const folder = path.dirname(path.resolve(out));
  if (!existsSync(folder)) throw usageError(`cannot write ${out}: the folder ${path.dirname(out)} does not exist (create it first)`);
  if (!statSync(folder).isDirectory()) throw usageError(`cannot write ${out}: ${path.dirname(out)} is not a folder`);
  if (existsSync(out) && statSync(out).isDirectory())
    throw usageError(`cannot write ${out}: it is a folder; give a file name such as ${path.join(out, DEFAULT_OUT)}`);
  // Written through a temporary file renamed over it: the folder must take new files.
  try {
    accessSync(folder, constants.W_OK | constants.X_OK);
  } catch (err) {
    throw usageError(
      `cannot write ${out}: no file can be created in ${path.dirname(out)} (${(err as NodeJS.ErrnoException).code}): choose a folder you can write to`,
    );
  }
}
