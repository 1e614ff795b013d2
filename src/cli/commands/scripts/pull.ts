import { mkdir } from "node:fs/promises";
import { Args, Flags } from "@oclif/core";
import { keptWords, pullScripts } from "../../scripts/pull.js";
import { BaseCommand } from "../../shell/base.js";
import { CliError, usageError } from "../../shell/errors.js";
import { ExitCode } from "../../shell/exit-codes.js";

export default class ScriptsPull extends BaseCommand<typeof ScriptsPull> {
  static override summary = "Write scripts into folders: code, contract and a lock file, to keep them in git";
  static override description =
    `Writes each script's current version into <dir>/<handle>/<host>/<slug>/: script.ts or script.js (the code, named for its language) and contract.json (name, description, schemas, side effects, login, visibility). reduck.lock.json records the version each was pulled from and a hash of each file.

With no argument, pulls your own scripts; a handle pulls all of that owner's scripts; an address pulls one. A script whose code the service withholds (official scripts) comes down as its contract alone.

Pulling again updates what has not changed here. A folder you have edited, or one holding a draft you pushed and have not promoted, is kept and named (exit 11); --force overwrites it.`;

  static override examples = [
    { description: "Your own scripts, into the current folder", command: "<%= config.bin %> scripts pull" },
    {
      description: "One script and all of the official catalogue, into ./scripts",
      command: "<%= config.bin %> scripts pull example.com/get_title reduck --dir scripts",
    },
    {
      description: "Overwrite what you changed here with the service's version",
      command: "<%= config.bin %> scripts pull example.com/get_title --dir scripts --force",
    },
  ];

  static override strict = false;

  static override args = {
    target: Args.string({
      description: "Script address [handle/]host/slug, or a handle (@user or a project); several may be given. Default: your own scripts.",
    }),
  };

  static override flags = {
    dir: Flags.string({ description: "The folder of the scripts tree (default: the current folder).", default: ".", helpValue: "DIR" }),
    force: Flags.boolean({ description: "Overwrite folders changed here, and start a new lock when the lock file is broken." }),
  };

  public async run(): Promise<unknown> {
    const { argv } = await this.parse(ScriptsPull);
    const dir = this.flags.dir;
    await mkdir(dir, { recursive: true }).catch((err: NodeJS.ErrnoException) => {
      throw usageError(`--dir ${dir}: cannot create it (${err.code})`);
    });
    const report = await pullScripts(await this.client(), { dir, given: argv as string[], force: this.flags.force });
    const n = (k: number) => `${k} script${k === 1 ? "" : "s"}`;
    this.note(`Pulled ${n(report.written.length)} into ${dir}${report.unchanged.length ? ` (${report.unchanged.length} already up to date)` : ""}.`);
    if (report.withheld.length)
      this.note(`The service withholds the code of ${n(report.withheld.length)}: pulled their contract only (${report.withheld.join(", ")}).`);
    for (const s of report.skipped) this.note(`Skipped ${s.address}: ${s.why}.`);
    if (report.kept.length) throw new CliError(keptWords(report.kept, dir), ExitCode.CONFLICT, { kept: report.kept, written: report.written });
    return report;
  }
}
