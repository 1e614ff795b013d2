import { Args } from "@oclif/core";
import { getRunTrace } from "../../../generated/operations.js";
import { BaseCommand } from "../../base.js";
import { checkRunIds } from "../../run-ids.js";

export default class RunsTrace extends BaseCommand<typeof RunsTrace> {
  static override summary = "Print the steps a run recorded, as JSON";
  static override description = "The output is always JSON (--json changes nothing). Not every run records a trace; then the command fails with the service's message.";

  static override examples = [
    { description: "The trace of a failed run", command: "<%= config.bin %> runs trace 00000000-0000-4000-8005-000000000002" },
  ];

  static override args = {
    run_id: Args.string({ description: "Run id.", required: true }),
  };

  public async run(): Promise<void> {
    const runId = this.args.run_id;
    checkRunIds([runId]);
    const client = await this.client();
    const trace = this.unwrap(await getRunTrace({ client, path: { runId } }), `reading the trace of run ${runId}`);
    // Printed here rather than returned: a returned value prints only with --json.
    this.printJson(trace);
  }
}
