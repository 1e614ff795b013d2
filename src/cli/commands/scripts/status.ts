import { Flags } from "@oclif/core";
import { folderStatus, statusLine } from "../../scripts/folder-status.js";
import { readTree } from "../../scripts/folder-tree.js";
import { BaseCommand } from "../../shell/base.js";
import { ExitCode } from "../../shell/exit-codes.js";

export default class ScriptsStatus extends BaseCommand<typeof ScriptsStatus> {
  static override summary = "Say which pulled scripts changed here, and with --remote on the service";
  static override description =
    `Compares each script folder with what reduck.lock.json records of the pull, by content hash (never file times): unchanged, changed here (its code, or which fields of its contract), new here (not yet on the service), removed here, or not promoted (pushed as a draft the script does not run yet; \`reduck scripts push --promote\` makes it live). Offline.

--remote also asks the service: a script whose current version moved since the pull is changed on the service, and one changed on both sides is a CONFLICT (push refuses it). Offline, "not promoted" is what reduck.lock.json records; a draft promoted since another way (on the web) is said as such only with --remote.

--exit-code makes the exit code tell a CI job what it found: 0 nothing to push, promote or pull; 10 changes pending (here, a pushed draft not promoted, or with --remote on the service); 11 a conflict.`;

  static override examples = [
    {
      description: "What changed in the scripts of ./scripts",
      command: "<%= config.bin %> scripts pull --dir scripts && <%= config.bin %> scripts status --dir scripts",
    },
    {
      description: "In CI: also ask the service, and exit 10 or 11 when something is pending",
      command: "<%= config.bin %> scripts pull --dir scripts && <%= config.bin %> scripts status --dir scripts --remote --exit-code",
    },
  ];

  static override flags = {
    dir: Flags.string({ description: "The folder of the scripts tree (default: the current folder).", default: ".", helpValue: "DIR" }),
    remote: Flags.boolean({ description: "Also ask the service which scripts changed there since the pull." }),
    "exit-code": Flags.boolean({ description: "Exit 10 when changes are pending, 11 when a script conflicts, 0 when neither." }),
  };

  public async run(): Promise<unknown> {
    const tree = await readTree(this.flags.dir);
    const rows = await folderStatus(tree, this.flags.remote ? await this.client() : undefined);
    // A draft not promoted is pending: `push --promote` has something to do.
    const pending = rows.filter((r) => r.state !== "unchanged" || r.unpromoted || (r.remote !== undefined && r.remote !== "same"));
    const conflicts = rows.filter((r) => r.conflict);
    if (!this.jsonEnabled()) {
      for (const row of pending) this.log(statusLine(row, this.flags.dir));
      const unchanged = rows.length - pending.length;
      this.note(
        `${rows.length} script${rows.length === 1 ? "" : "s"}: ${unchanged} unchanged, ${pending.length} pending${conflicts.length ? `, ${conflicts.length} in conflict` : ""}${this.flags.remote ? "" : " (here; --remote also asks the service)"}.`,
      );
    }
    if (this.flags["exit-code"]) process.exitCode = conflicts.length ? ExitCode.CONFLICT : pending.length ? ExitCode.CHANGES : ExitCode.OK;
    return { scripts: rows, pending: pending.length, conflicts: conflicts.length };
  }
}
