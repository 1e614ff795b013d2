import { Flags } from "@oclif/core";
import { BaseCommand } from "../shell/base.js";
import { CliError, usageError } from "../shell/errors.js";
import { ExitCode, EXIT_CODES_HELP } from "../shell/exit-codes.js";
import { applyContract } from "../../core/arguments.js";
import { jsonSchemaOf, type JsonSchema } from "../../core/json.js";
import { groupSteps, expandHome, type StepArgs } from "../run/run-args.js";
import { formatAddress } from "../shell/address.js";
import { checkOutDir, saveFiles, unsavedNote } from "../run/downloads.js";
import { setRunPhase, setRunScripts } from "../shell/interrupt.js";
import { readScriptOrSuggest } from "../scripts/script-lookup.js";
import { getScriptVersion } from "../../generated/operations.js";
import { resolveAddress, withBareSlugHint } from "../scripts/own-handle.js";
import { browserFlag, browserOf } from "../run/browser-flag.js";
import { preloadValidator, schemaProblems } from "../run/validate-args.js";
import { chosenVersion, resolveVersion, versionFlags } from "../scripts/versions.js";
import { runScript, RUN_REGIONS, MAX_WAIT_FOR_SECONDS, type ScriptToRun } from "../../run/run.js";
import type { RunStatusUpdate } from "../../run/outcomes.js";
import { printOutcomes, printPending, reportOf, runStatusLine, type RunReport } from "../run/run-report.js";
import { FileProblem, checkPathFile, type PathFile } from "../../run/files.js";
import { writeText } from "../shell/terminal-text.js";
import { RUNNABLE_SCRIPT, VERSION } from "../shell/answer-shapes.js";
import { progressReporter } from "../run/progress.js";
import { fileNameNotes } from "../run/file-name-notes.js";

/** Recorded as the run's source. */
const SOURCE = { "X-Reduck-Source": "cli" };

/** A step ready to send, with what the CLI needs to report on it. */
interface PreparedStep {
  script: ScriptToRun;
  label: string;
  outputSchema?: JsonSchema;
}

export default class Run extends BaseCommand<typeof Run> {
  static override summary = "Run one or more scripts and print their results as JSON";
  static override description =
    `Each --script is followed by its own arguments: name=value pairs, and file:INPUT=PATH to send a file's bytes (any file on this disk, up to 50 MiB). Values are converted to the types the script's input schema asks for; arrays and objects are written as JSON. Before anything is uploaded, the arguments are checked against the script's whole input schema (types, ranges, patterns, allowed values): a run refused by the service still counts against your quota.

stdout is the script's result as JSON; with several --script, a JSON array of results in the order given, null for a step that gave none. Run ids, and which runs failed and why, go to stderr; the exit code is 1 when any failed.

--json prints the outcome instead, as the hosted agent tool does: {"status", "runId", "result"} (or "error", with the service's "errorType" and "externalMessage" when it gave them) for one script; {"batchId", "status", "totalSteps", "runs": [{"status", "runId", "result" | "error"}]} for several. Statuses are completed, failed or skipped.

Long runs: the service holds the request up to --wait-for-seconds (its default 60, at most 110), then hands back a batch that is still running. The CLI waits through it, polling, with a one-line status on a terminal (\`running 3/5 · 1m12s\`). The run is sent once, whatever happens while polling; Ctrl-C stops waiting, not the run, and prints the command that waits for it again (\`reduck runs wait ID\`). --no-wait prints the handle instead (the id on stdout; with --json the whole handle) and exits 0.

--out DIR saves the files a result holds: a download ({"filename", "url"}) is fetched into DIR, and a file's bytes given as base64 (download_invoice's pdf_base64) are written there; the printed result says where each landed ("path"). An existing file is never replaced. Without --out nothing is written.

A file sent as bytes arrives named after its input (e.g. "attachment") unless the script takes a name argument (send_email's attachmentName).

${EXIT_CODES_HELP}`;

  static override examples = [
    {
      description: "Send an email with an attachment (the file is read and uploaded by the CLI)",
      command:
        '<%= config.bin %> run --script reduck/mail.google.com/send_email to=me@example.com subject="Our new banner" attachmentName=banner.png file:attachment=~/Downloads/banner.png',
    },
    {
      description: "Run two scripts at once; stdout is a JSON array in the same order",
      command:
        "<%= config.bin %> run --script reduck/docusign.com/upload_document documentName=contract.pdf file:document=./contract.pdf --script reduck/mail.google.com/send_email to=me@example.com subject=Signed",
    },
    {
      description: "Download an invoice into ~/Downloads/invoices",
      command:
        "<%= config.bin %> run --out ~/Downloads/invoices --script reduck/admin.atlassian.com/download_invoice id=inv_123 transaction_account=acct_9 number=IN-EU-002",
    },
    {
      description: "Run in order in one browser, stopping at the first failure",
      command: "<%= config.bin %> run --sequential --script example.com/get_title url=https://example.com --script news.ycombinator.com/top_stories",
    },
    {
      description: "Run version 1 on a cloud browser, with the outcome as JSON",
      command: "<%= config.bin %> run --browser cloud --version 1 --json --script reduck/mail.google.com/send_email to=me@example.com subject=Hi",
    },
    {
      description: "A cloud browser in a region, leaving the internet from a country",
      command: "<%= config.bin %> run --browser cloud --region us-east-1 --country US --script reduck/mail.google.com/send_email to=me@example.com subject=Hi",
    },
    {
      description: "Start a long run (the sandbox's slow script), wait for it later",
      command: "id=$(<%= config.bin %> run --no-wait --wait-for-seconds 1 --script sandbox/sandbox.test/sleep seconds=3) && <%= config.bin %> runs wait $id",
    },
  ];

  static override strict = false;

  static override flags = {
    script: Flags.string({
      description: "Script address [handle/]host/slug, followed by its name=value and file:INPUT=PATH arguments. Repeat to run several.",
      multiple: true,
      helpValue: "ADDRESS",
    }),
    browser: browserFlag,
    region: Flags.string({ description: "The cloud browser's region (with --browser cloud).", options: [...RUN_REGIONS] }),
    country: Flags.string({
      description: "The country the cloud browser leaves the internet from, ISO 3166 two letters, e.g. DE (with --browser cloud).",
      helpValue: "CC",
    }),
    "wait-for-seconds": Flags.integer({
      description: `Seconds the service holds the request before handing back a batch to poll (1-${MAX_WAIT_FOR_SECONDS}; the service's default is 60).`,
      min: 1,
      max: MAX_WAIT_FOR_SECONDS,
      helpValue: "N",
    }),
    wait: Flags.boolean({
      description: "Wait for the outcome, polling a run that outlives --wait-for-seconds (the default). --no-wait prints the run's handle instead and exits 0.",
      default: true,
      allowNo: true,
    }),
    device: Flags.string({ description: "Run on this paired browser (an id from `reduck devices list`).", helpValue: "ID" }),
    ...versionFlags("Run this version instead of the current one (one --script only)."),
    sequential: Flags.boolean({ description: "Run the scripts in order in one browser, stopping at the first failure." }),
    out: Flags.string({ description: "Save the files the result holds (downloads, base64 file bytes) into this folder.", helpValue: "DIR" }),
  };

  /** The files checked before the contract lookups, by step and input; the run does not check them again. */
  private checked = new Map<StepArgs, Map<string, PathFile>>();

  public async run(): Promise<unknown> {
    setRunPhase("preparing");
    let steps: StepArgs[];
    try {
      steps = groupSteps(this.argv, this.flagDefinitions());
    } catch (err) {
      throw await withBareSlugHint(err, () => this.client());
    }
    setRunScripts(steps.map((step) => formatAddress(step.address)));
    const version = chosenVersion(this.flags);
    if (version && steps.length > 1) throw usageError("--version applies to one script: give a single --script with it");
    const browser = browserOf(this.flags.browser, this.flags.device);
    const cloud = browser === "cloud";
    for (const flag of ["region", "country"] as const) {
      if (this.flags[flag] && !cloud)
        throw usageError(
          `--${flag} chooses where a cloud browser runs, so it needs --browser cloud (this run would go to ${typeof browser === "object" ? `device ${browser.deviceId}` : "your own browser"})`,
        );
    }
    if (this.flags.country && !/^[A-Za-z]{2}$/.test(this.flags.country))
      throw usageError(`--country takes a two-letter ISO 3166 code such as DE or US (got ${JSON.stringify(this.flags.country)})`);
    if (this.flags.sequential && steps.length < 2) this.note("--sequential has no effect with a single --script");
    const out = this.flags.out ? await checkOutDir(expandHome(this.flags.out)) : undefined;

    // Local files first: a typo in a path needs no network, nor even a credential, to report.
    for (const step of steps) {
      const files = new Map<string, PathFile>();
      this.checked.set(step, files);
      for (const [input, file] of step.files) files.set(input, await checkLocalFile(input, file));
    }
    const client = await this.client();
    // ajv loads while the contracts are on their way.
    preloadValidator();
    const prepared = await Promise.all(steps.map((step) => this.prepareStep(step, version)));

    const multipart = prepared.some((p) => p.script.files);
    const status = runStatusLine(process.stderr);
    const startedAt = Date.now();
    let holding: ReturnType<typeof setTimeout> | undefined;
    let waiting = false;
    const sent = () => {
      setRunPhase("sent");
      // The service may hold the request a minute: a run still unanswered after a second gets the
      // status line (on a terminal) before any poll has counts to show.
      holding = setTimeout(() => {
        if (!waiting) status.update({ status: "running", runIds: [], total: prepared.length, completed: 0, failed: 0, elapsedMs: Date.now() - startedAt });
      }, 1_000);
      holding.unref();
    };
    // A JSON request goes out at once; a multipart one once its last byte has been sent.
    if (!multipart) sent();
    const progress = progressReporter(process.stderr);
    const onUploadProgress = (p: { sent: number; total: number }) => {
      progress.update(p);
      if (p.sent === p.total && !holding) sent();
    };
    const onStatus = (u: RunStatusUpdate) => {
      // From here Ctrl-C stops the wait, not the run: say how to wait again.
      waiting = true;
      setRunPhase("waiting", u.batchId ?? u.runId);
      progress.done();
      status.update(u);
    };
    const options = {
      client,
      browser,
      headers: SOURCE,
      onUploadProgress,
      onStatus,
      wait: this.flags.wait,
      ...(this.flags.region ? { region: this.flags.region as (typeof RUN_REGIONS)[number] } : {}),
      ...(this.flags.country ? { country: this.flags.country } : {}),
      ...(this.flags["wait-for-seconds"] !== undefined ? { waitForSeconds: this.flags["wait-for-seconds"] } : {}),
    };
    let report: RunReport;
    try {
      const result =
        prepared.length === 1
          ? await runScript({ ...options, script: prepared[0]!.script })
          : await runScript({ ...options, scripts: prepared.map((p) => p.script), sequential: this.flags.sequential });
      progress.done();
      status.done();
      report = reportOf(result);
    } finally {
      clearTimeout(holding);
      progress.done();
      status.done();
    }
    if ("pending" in report) return printPending(this.printer(), report.pending);
    const { outcomes, batch } = report;
    // The wait is over: what is left (saving files) concerns a run that has ended.
    setRunPhase("sent");

    const failures: string[] = [];
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.status !== "completed") continue;
      if (out) {
        const saved = await saveFiles(outcome.result, prepared[i]!.outputSchema, out);
        outcome.result = saved.result;
        for (const file of saved.written) this.note(`Saved ${file}`);
        failures.push(...saved.failures.map((f) => (prepared.length > 1 ? `${prepared[i]!.label}: ${f}` : f)));
      } else {
        const note = unsavedNote(outcome.result, prepared[i]!.outputSchema);
        if (note) this.note(note);
      }
    }
    printOutcomes(
      this.printer(),
      outcomes,
      batch,
      prepared.map((p) => p.label),
      failures,
    );
  }

  /** The file checked for this input, when it is the same path (else the run checks it itself). */
  private checkedFile(step: StepArgs, input: string, file: string): PathFile {
    const checked = this.checked.get(step)?.get(input);
    return checked?.path === file ? checked : { path: file };
  }

  private printer() {
    return { json: this.jsonEnabled(), note: (m: string) => this.note(m), printJson: (v: unknown) => this.printJson(v) };
  }

  /** Reads the script's contract and turns the step's arguments into a run reference. */
  private async prepareStep(step: StepArgs, version: string | undefined): Promise<PreparedStep> {
    const client = await this.client();
    const path = await resolveAddress(client, step.address);
    const label = formatAddress(step.address);
    let contract: { input_schema?: unknown; output_schema?: unknown };
    let versionId: string | undefined;
    if (version) {
      versionId = await resolveVersion(client, path, version);
      contract = this.unwrap(await getScriptVersion({ client, path: { ...path, versionId } }), `reading ${label} version ${version}`, VERSION);
    } else {
      const script = await readScriptOrSuggest(client, path, !step.address.handle, RUNNABLE_SCRIPT);
      if (!script.current_version) throw new CliError(`${label} has no current version to run: promote one, or pass --version`, ExitCode.FAILED);
      contract = script.current_version as typeof contract;
    }
    const inputSchema = jsonSchemaOf(contract.input_schema) ?? {};
    const { args, files, fileInputs, problems } = applyContract(step, inputSchema);
    problems.push(...(await schemaProblems(inputSchema, args, fileInputs)));
    if (problems.length) throw usageError(`${label}: ${problems.join("; ")}`);
    // stderr even with --json: stdout stays one document, and the surprise is worth saying.
    for (const note of fileNameNotes(inputSchema, args, files)) writeText(process.stderr, `${note}\n`);
    return {
      label,
      outputSchema: jsonSchemaOf(contract.output_schema),
      script: {
        handle: path.handle,
        host: step.address.host,
        slug: step.address.slug,
        args,
        ...(Object.keys(files).length ? { files: Object.fromEntries(Object.entries(files).map(([k, p]) => [k, this.checkedFile(step, k, p)])) } : {}),
        ...(versionId ? { version_id: versionId } : {}),
      },
    };
  }
}

/**
 * A file to upload: it exists, is readable and is within the limit, in exact numbers. Checked
 * by the run module's own check, whose result the run uses (nothing is checked twice), and
 * worded by it too, so the CLI and the library say one thing.
 */
async function checkLocalFile(input: string, file: string): Promise<PathFile> {
  try {
    return await checkPathFile(input, file);
  } catch (err) {
    if (err instanceof FileProblem) throw usageError(err.message);
    throw err;
  }
}
