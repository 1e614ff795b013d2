import { Flags } from "@oclif/core";
import { BaseCommand } from "../base.js";
import { CliError, fromReduckError, usageError } from "../errors.js";
import { ExitCode, EXIT_CODES_HELP } from "../exit-codes.js";
import { groupSteps, applyContract, type StepArgs } from "../run-args.js";
import { formatAddress } from "../address.js";
import { getScript, getScriptVersion } from "../../generated/operations.js";
import { resolveAddress } from "../own-handle.js";
import { runScript, type ScriptToRun, type RunBrowser } from "../../run/run.js";
import { runDispatcher } from "../../run/dispatcher.js";
import { FileProblem, openBytes } from "../../run/files.js";
import { progressReporter } from "../progress.js";

/** Recorded as the run's source. */
const SOURCE = { "X-Reduck-Source": "cli" };

export default class Run extends BaseCommand<typeof Run> {
  static override summary = "Run one or more scripts and print their results as JSON";
  static override description = `Each --script is followed by its own arguments: name=value pairs, and file:INPUT=PATH to send a file's bytes (any file on this disk, up to 50 MB). Values are converted to the types the script's input schema asks for; arrays and objects are written as JSON. Before anything is uploaded, the arguments are checked against the script's contract.

stdout is exactly the script's result as JSON; with several --script, a JSON array in the order given. The run id and notes go to stderr.

A file sent as bytes arrives named after its input (e.g. "attachment") unless the script takes a name argument (send_email's attachmentName).

${EXIT_CODES_HELP}`;

  static override examples = [
    {
      description: "Send an email with an attachment (the file is read and uploaded by the CLI)",
      command: '<%= config.bin %> run --script reduck/mail.google.com/send_email to=me@example.com subject="Our new banner" attachmentName=banner.png file:attachment=~/Downloads/banner.png',
    },
    {
      description: "Run two scripts at once; stdout is a JSON array in the same order",
      command: "<%= config.bin %> run --script reduck/docusign.com/upload_document documentName=contract.pdf file:document=./contract.pdf --script reduck/mail.google.com/send_email to=me@example.com subject=Signed",
    },
    {
      description: "Run in order in one browser, stopping at the first failure",
      command: "<%= config.bin %> run --sequential --script site.com/login --script site.com/scrape max=5",
    },
    {
      description: "Run a draft version on a managed browser",
      command: "<%= config.bin %> run --browser managed --version-id 3f0c... --script linkedin.com/get_post url=https://...",
    },
  ];

  static override strict = false;

  static override flags = {
    script: Flags.string({
      description: "Script address [handle/]host/slug, followed by its name=value and file:INPUT=PATH arguments. Repeat to run several.",
      multiple: true,
      required: true,
    }),
    browser: Flags.string({
      description: "Where to run: extension (your own paired browser) or managed (a managed browser; needs a connector for the site).",
      options: ["extension", "managed"],
      default: "extension",
    }),
    device: Flags.string({ description: "Run on this paired device (an id from `reduck devices list`)." }),
    "version-id": Flags.string({ description: "Run this version instead of the current one (one --script only)." }),
    sequential: Flags.boolean({ description: "Run the scripts in order in one browser, stopping at the first failure." }),
  };

  public async run(): Promise<unknown> {
    const steps = groupSteps(this.argv);
    const versionId = this.flags["version-id"];
    if (versionId && steps.length > 1) throw usageError("--version-id applies to one script: give a single --script with it");
    if (this.flags.sequential && steps.length < 2) this.note("--sequential has no effect with a single --script");

    // Local files first: a typo in a path needs no network, nor even a credential, to report.
    for (const step of steps) {
      for (const [input, file] of step.files) {
        await openBytes(0, input, { path: file }).catch((err: Error) => {
          throw err instanceof FileProblem ? usageError(err.message) : err;
        });
      }
    }
    const client = await this.client();
    // Load the upload machinery while the contracts are being fetched.
    void runDispatcher();
    const scripts = await Promise.all(steps.map((step) => this.prepareStep(step, versionId)));
    const browser: RunBrowser = this.flags.device ? { deviceId: this.flags.device } : (this.flags.browser as "extension" | "managed");

    const progress = progressReporter(process.stderr);
    try {
      if (scripts.length === 1) {
        const result = await runScript({ client, script: scripts[0]!, browser, headers: SOURCE, onUploadProgress: progress.update });
        progress.done();
        if (result.error) throw fromReduckError(result.error);
        this.note(`run ${result.data.runId}`);
        this.printJson(result.data.result);
        return;
      }
      const result = await runScript({
        client,
        scripts,
        sequential: this.flags.sequential,
        browser,
        headers: SOURCE,
        onUploadProgress: progress.update,
      });
      progress.done();
      if (result.error) throw fromReduckError(result.error);
      const out = result.data.runs.map((step, i) => {
        const label = formatAddress(steps[i]!.address);
        if (step.status === "completed") {
          this.note(`${label}: run ${step.runId}`);
          return step.result;
        }
        this.note(`${label}: ${step.status}${step.error ? `: ${step.error}` : ""}`);
        return { error: step.error ?? step.status, status: step.status, ...(step.runId ? { runId: step.runId } : {}) };
      });
      this.printJson(out);
      if (result.data.status !== "completed") process.exitCode = ExitCode.FAILED;
    } finally {
      progress.done();
    }
  }

  /** Reads the script's contract and turns the step's arguments into a run reference. */
  private async prepareStep(step: StepArgs, versionId: string | undefined): Promise<ScriptToRun> {
    const client = await this.client();
    const path = await resolveAddress(client, step.address);
    const handle = path.handle;
    const label = formatAddress(step.address);
    let inputSchema: Record<string, unknown> | undefined;
    if (versionId) {
      const version = this.unwrap(await getScriptVersion({ client, path: { ...path, versionId } }), `reading ${label} version ${versionId}`);
      inputSchema = version.input_schema;
    } else {
      const script = this.unwrap(await getScript({ client, path }), `reading ${label}`);
      if (!script.current_version) throw new CliError(`${label} has no current version to run: promote one, or pass --version-id`, ExitCode.FAILED);
      inputSchema = (script.current_version as { input_schema?: Record<string, unknown> }).input_schema;
    }
    const { args, files } = applyContract(step, (inputSchema ?? {}) as never);
    return {
      handle,
      host: step.address.host,
      slug: step.address.slug,
      args,
      ...(Object.keys(files).length ? { files: Object.fromEntries(Object.entries(files).map(([k, p]) => [k, { path: p }])) } : {}),
      ...(versionId ? { version_id: versionId } : {}),
    };
  }
}
