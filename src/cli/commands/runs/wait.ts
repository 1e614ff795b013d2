import { Args } from "@oclif/core";
import { BaseCommand } from "../../shell/base.js";
import { CliError } from "../../shell/errors.js";
import { ExitCode, EXIT_CODES_HELP } from "../../shell/exit-codes.js";
import { notAWaitId } from "../../run/run-ids.js";
import { runStatusLine } from "../../run/progress-lines.js";
import { endedOf, printOutcomes } from "../../run/run-report.js";
import { RunProgress } from "../../run/run-progress.js";
import { waitForRun } from "../../../run/wait.js";

export default class RunsWait extends BaseCommand<typeof RunsWait> {
  static override summary = "Wait for a run that is still going, and print its outcome as `reduck run` does";
  static override description =
    `Give the id \`reduck run --no-wait\` printed, or the one Ctrl-C left behind: a batch id (several scripts, or one that outlived --wait-for-seconds) or a run id. The outcome is printed as \`reduck run\` prints it (stdout: the result, or a JSON array of results for several; --json: the outcome as JSON), with the same exit codes: 1 when a run failed.

Waiting is polling: it sends nothing new to run. On a terminal a one-line status shows progress (\`running 3/5 · 1m12s\`). Ctrl-C stops waiting, not the run.

${EXIT_CODES_HELP}`;

  static override examples = [
    {
      description: "Wait for a run started with --no-wait (the sandbox's slow script)",
      command: "id=$(<%= config.bin %> run --no-wait --wait-for-seconds 1 --script sandbox/sandbox.test/sleep seconds=3) && <%= config.bin %> runs wait $id",
    },
    { description: "Wait for one run, with the outcome as JSON", command: "<%= config.bin %> runs wait 00000000-0000-4000-8005-000000000001 --json" },
  ];

  static override args = {
    id: Args.string({ description: "The batch id or run id to wait for.", required: true }),
  };

  public async run(): Promise<unknown> {
    const id = this.args.id.trim();
    if (!id) throw new CliError("give the batch id or run id to wait for (printed by `reduck run --no-wait`)", ExitCode.USAGE);
    const client = await this.client();
    RunProgress.waitingFor(id);
    const status = runStatusLine(process.stderr);
    const printer = { json: this.jsonEnabled(), note: (m: string) => this.note(m), printJson: (v: unknown) => this.printJson(v) };
    try {
      // A batch first (the usual handle); an id the run host does not know may be a run's.
      const batch = await waitForRun({ client, batchId: id, onStatus: (u) => status.update(u) });
      // Refused before any poll was sent: an id of neither kind's shape.
      if (batch.error?.code === "invalid_id") notAWaitId(id, batch.error);
      if (batch.error?.code !== "run_not_found") {
        status.done();
        const { outcomes, batch: header } = endedOf(batch);
        // A batch of one is one script that outlived --wait-for-seconds: shown as `run` showed it.
        if (outcomes.length === 1) return printOutcomes(printer, outcomes, undefined, []);
        return printOutcomes(
          printer,
          outcomes,
          header,
          outcomes.map((r, i) => (r.runId ? `run ${i + 1}` : `step ${i + 1}`)),
        );
      }
      const run = await waitForRun({ client, runId: id, onStatus: (u) => status.update(u) });
      status.done();
      if (run.error?.code === "run_not_found") {
        throw new CliError(
          `there is no batch or run ${id}: check the id (\`reduck run --no-wait\` prints it; \`reduck runs list\` lists runs)`,
          ExitCode.FAILED,
        );
      }
      return printOutcomes(printer, endedOf(run).outcomes, undefined, []);
    } finally {
      status.done();
    }
  }
}
