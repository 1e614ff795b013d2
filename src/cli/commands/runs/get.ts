import { Args } from "@oclif/core";
import { getRun } from "../../../generated/operations.js";
import { BaseCommand } from "../../base.js";
import { renderFields } from "../../output.js";
import { browserLabel, scriptLabel } from "../../run-labels.js";

export default class RunsGet extends BaseCommand<typeof RunsGet> {
  static override summary = "Show one run: its script, arguments, status and result or error";
  static override description = "Reading a failed run succeeds (exit 0): the failure is the run's, shown under ERROR. For the steps it took, see `reduck runs trace RUN_ID`.";

  static override examples = [
    { description: "What happened in a run", command: "<%= config.bin %> runs get 00000000-0000-4000-8005-000000000002" },
    { description: "The record as JSON", command: "<%= config.bin %> runs get 00000000-0000-4000-8005-000000000001 --json" },
  ];

  static override args = {
    run_id: Args.string({ description: "Run id (printed by `reduck run` on stderr, or see `reduck runs list`).", required: true }),
  };

  public async run(): Promise<unknown> {
    const client = await this.client();
    const runId = this.args.run_id;
    const run = this.unwrap(await getRun({ client, path: { runId } }), `reading run ${runId}`);
    if (this.jsonEnabled()) return run;
    const duration = run.finished_at ? `${((Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000).toFixed(1)} s` : "-";
    this.log(
      renderFields([
        ["Run", run.id],
        ["Status", run.status],
        ["Script", `${scriptLabel(run)}${run.script ? ` (version ${run.script.version_number})` : ""}`],
        ["Browser", browserLabel(run.browser)],
        ["Source", run.source],
        ["Started", run.started_at],
        ["Finished", run.finished_at ?? "-"],
        ["Duration", duration],
        ["Arguments", run.args],
      ]),
    );
    const outcome = run.result;
    if (outcome && "error" in outcome) this.log(`\nERROR\n${outcome.error}`);
    else if (outcome && "result" in outcome) this.log(`\nRESULT\n${JSON.stringify(outcome.result, null, 2)}`);
    else this.log(`\nNo result yet: the run is ${run.status}.`);
    return run;
  }
}
