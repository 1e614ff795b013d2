import { Args } from "@oclif/core";
import { batchDeleteRuns, deleteRun } from "../../../generated/operations.js";
import { BaseCommand } from "../../shell/base.js";
import { usageError } from "../../shell/errors.js";
import { ExitCode } from "../../shell/exit-codes.js";
import { confirmOrCancel, refuseUnconfirmed, yesFlag } from "../../shell/confirm.js";
import { checkRunIds } from "../../run/run-ids.js";

/** The most ids the service takes in one batch. */
const BATCH_SIZE = 100;

export default class RunsDelete extends BaseCommand<typeof RunsDelete> {
  static override summary = "Delete finished runs and their traces";
  static override description =
    `One RUN_ID: deleted, or an error saying why not (unknown, or still queued or running). Several: deleted in batches; those that cannot go are reported as skipped and the rest still go. The exit code is 1 when any was skipped.

On a terminal it asks before deleting; --yes skips the question, and is needed where there is no terminal (scripts, CI).`;

  static override examples = [
    { description: "Delete one run (it asks first)", command: "<%= config.bin %> runs delete 00000000-0000-4000-8005-000000000001" },
    {
      description: "Delete several without asking, as JSON",
      command: "<%= config.bin %> runs delete 00000000-0000-4000-8005-000000000001 00000000-0000-4000-8005-000000000002 --yes --json",
    },
  ];

  static override strict = false;

  static override flags = { ...yesFlag };

  static override args = {
    run_id: Args.string({ description: "Run id; give several to delete them all.", required: true }),
  };

  public async run(): Promise<{ deletedIds: string[]; skippedIds: string[] }> {
    // strict=false: the positional arguments after the first arrive in argv.
    const { argv } = await this.parse(RunsDelete);
    const ids = [...new Set(argv as string[])];
    if (ids.length === 0) throw usageError("give at least one run id");
    checkRunIds(ids);
    refuseUnconfirmed(this.flags.yes, ids.length === 1 ? "deleting a run" : "deleting runs");
    await confirmOrCancel(
      this.flags.yes,
      ids.length === 1 ? `Delete run ${ids[0]} and its trace? This cannot be undone.` : `Delete ${ids.length} runs and their traces? This cannot be undone.`,
    );
    const client = await this.client();

    if (ids.length === 1) {
      const runId = ids[0]!;
      this.unwrap(await deleteRun({ client, path: { runId } }), `deleting run ${runId}`);
      this.log(`Deleted run ${runId}`);
      return { deletedIds: [runId], skippedIds: [] };
    }

    const outcome = { deletedIds: [] as string[], skippedIds: [] as string[] };
    for (let i = 0; i < ids.length; i += BATCH_SIZE) {
      const runIds = ids.slice(i, i + BATCH_SIZE);
      const batch = this.unwrap(await batchDeleteRuns({ client, body: { runIds } }), `deleting ${runIds.length} runs`);
      outcome.deletedIds.push(...batch.deletedIds);
      outcome.skippedIds.push(...batch.skippedIds);
    }
    if (outcome.deletedIds.length)
      this.log(`Deleted ${outcome.deletedIds.length} run${outcome.deletedIds.length === 1 ? "" : "s"}:\n${outcome.deletedIds.join("\n")}`);
    if (outcome.skippedIds.length) {
      this.note(`Skipped ${outcome.skippedIds.length} (unknown, not yours, or still queued or running):\n${outcome.skippedIds.join("\n")}`);
      process.exitCode = ExitCode.FAILED;
    }
    return outcome;
  }
}
