import { Args, Flags } from "@oclif/core";
import { getRun, getScriptVersion } from "../../../generated/operations.js";
import { jsonSchemaOf } from "../../../core/json.js";
import { BaseCommand } from "../../shell/base.js";
import { checkOutDir, saveFiles, unsavedNote } from "../../run/downloads.js";
import { ExitCode } from "../../shell/exit-codes.js";
import { renderFields } from "../../shell/output.js";
import { browserLabel, scriptLabel } from "../../run/run-labels.js";
import { expandHome } from "../../run/run-args.js";
import { writeText } from "../../shell/terminal-text.js";
import { RUN } from "../../shell/answer-shapes.js";

export default class RunsGet extends BaseCommand<typeof RunsGet> {
  static override summary = "Show one run: its script, arguments, status and result or error";
  static override description =
    `Reading a failed run succeeds (exit 0): the failure is the run's, shown under ERROR. For the steps it took, see \`reduck runs trace RUN_ID\`.

--out DIR saves the files the run's result holds, as \`reduck run --out\` does: downloads ({"filename", "url"}) are fetched into DIR and base64 file bytes are written there; the result then says where each landed ("path").`;

  static override examples = [
    { description: "What happened in a run", command: "<%= config.bin %> runs get 00000000-0000-4000-8005-000000000002" },
    { description: "The record as JSON", command: "<%= config.bin %> runs get 00000000-0000-4000-8005-000000000001 --json" },
    { description: "Save the invoice a past run downloaded", command: "<%= config.bin %> runs get 00000000-0000-4000-8005-000000000001 --out ~/Downloads" },
  ];

  static override args = {
    run_id: Args.string({ description: "Run id (printed by `reduck run` on stderr, or see `reduck runs list`).", required: true }),
  };

  static override flags = {
    out: Flags.string({ description: "Save the files the result holds (downloads, base64 file bytes) into this folder.", helpValue: "DIR" }),
  };

  public async run(): Promise<unknown> {
    const runId = this.args.run_id;
    const out = this.flags.out ? await checkOutDir(expandHome(this.flags.out)) : undefined;
    const client = await this.client();
    const run = this.unwrap(await getRun({ client, path: { runId } }), `reading run ${runId}`, RUN);
    const outcome = run.result;
    if (outcome && "result" in outcome) {
      // The contract says which fields are a file's bytes; without it, the naming rules still apply.
      const version = run.script
        ? await getScriptVersion({
            client,
            path: { handle: run.script.handle, host: run.script.host, slug: run.script.slug, versionId: run.script.version_id },
          })
        : undefined;
      const schema = jsonSchemaOf(version?.data?.output_schema);
      if (out) {
        const saved = await saveFiles(outcome.result, schema, out);
        run.result = { result: saved.result as typeof outcome.result };
        for (const file of saved.written) this.note(`Saved ${file}`);
        for (const failure of saved.failures) writeText(process.stderr, `Error: ${failure}\n`);
        if (saved.failures.length) process.exitCode = ExitCode.FAILED;
      } else {
        const note = unsavedNote(outcome.result, schema);
        if (note) this.note(note);
      }
    }
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
    if (run.result && "error" in run.result) this.log(`\nERROR\n${run.result.error}`);
    else if (run.result && "result" in run.result) this.log(`\nRESULT\n${JSON.stringify(run.result.result, null, 2)}`);
    else this.log(`\nNo result yet: the run is ${run.status}.`);
    return run;
  }
}
