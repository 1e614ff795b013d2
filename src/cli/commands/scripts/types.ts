import { Args, Flags } from "@oclif/core";
import { parseAddress } from "../../shell/address.js";
import { BaseCommand } from "../../shell/base.js";
import { usageError } from "../../shell/errors.js";
import { ExitCode } from "../../shell/exit-codes.js";
import { checkTypesModule } from "../../scripts/types-check.js";
import { addressContracts, treeTypesSource } from "../../scripts/types-contracts.js";
import { checkOutFolder, DEFAULT_TYPES_OUT, type TypesWritten, writeTypesModule, writtenNotes } from "../../scripts/types-module.js";
import { versionFlag } from "../../scripts/versions.js";

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
    out: Flags.string({ description: `The module to write (or, with --check, to read). Default ${DEFAULT_TYPES_OUT}.`, helpValue: "FILE" }),
    version: versionFlag("Type this version instead of the current one (one address only)."),
    check: Flags.boolean({ description: "Write nothing: exit 1 when a script in the file has moved on from its version, 0 when none has." }),
    from: Flags.string({ description: "Make the module from the contracts of this scripts tree, offline (give no addresses).", helpValue: "DIR" }),
    strict: Flags.boolean({ description: "Make the types strict: an address the module does not register is a compile error." }),
  };

  public async run(): Promise<unknown> {
    // strict=false: the addresses after the first arrive in argv.
    const { argv } = await this.parse(ScriptsTypes);
    const given = [...new Set(argv as string[])];
    const out = this.flags.out ?? DEFAULT_TYPES_OUT;
    if (this.flags.check) {
      if (given.length) throw usageError(`--check reads its scripts from ${out}: give no addresses (to type other scripts, run without --check)`);
      if (this.flags.version) throw usageError("--check compares with the current versions: drop --version");
      if (this.flags.strict) throw usageError("--check reads the file as it is: drop --strict (it is kept when you regenerate)");
      const { report, lines } = await checkTypesModule(out, () => this.client());
      if (!this.jsonEnabled()) for (const line of lines) this.log(line);
      if (!report.upToDate) process.exitCode = ExitCode.FAILED;
      return report;
    }
    if (this.flags.from) {
      if (given.length || this.flags.version) throw usageError("--from takes every script of the tree: give no addresses and no --version");
      checkOutFolder(out);
      const { scripts, from } = await treeTypesSource(this.flags.from);
      return this.written(await writeTypesModule(scripts, out, this.flags, from));
    }
    if (given.length === 0) throw usageError("give at least one script address: reduck scripts types reduck/mail.google.com/send_email");
    if (this.flags.version && given.length > 1) throw usageError("--version names a version of one script: give one address with it");
    for (const a of given) parseAddress(a);
    checkOutFolder(out);
    const scripts = await addressContracts(await this.client(), given, this.flags.version);
    return this.written(await writeTypesModule(scripts, out, this.flags, undefined));
  }

  private written(written: TypesWritten): TypesWritten {
    for (const note of writtenNotes(written)) this.note(note);
    return written;
  }
}
