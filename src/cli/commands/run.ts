import { stat } from "node:fs/promises";
import { Flags } from "@oclif/core";
import { BaseCommand } from "../base.js";
import { CliError, fromReduckError, usageError } from "../errors.js";
import { ExitCode, EXIT_CODES_HELP } from "../exit-codes.js";
import { groupSteps, applyContract, expandHome, type StepArgs } from "../run-args.js";
import { formatAddress } from "../address.js";
import { inCliWords } from "../cli-words.js";
import { checkOutDir, saveFiles, unsavedNote } from "../downloads.js";
import { setRunPhase } from "../interrupt.js";
import { readScriptOrSuggest } from "../script-lookup.js";
import { getScriptVersion } from "../../generated/operations.js";
import { resolveAddress } from "../own-handle.js";
import { preloadValidator, schemaProblems } from "../validate-args.js";
import { resolveVersion, versionFlag } from "../versions.js";
import { runScript, type ScriptToRun, type RunBrowser } from "../../run/run.js";
import { FileProblem, openBytes } from "../../run/files.js";
import { MAX_FILE_BYTES } from "../../run/limits.js";
import { progressReporter } from "../progress.js";
import { fileNameNotes } from "../file-name-notes.js";

/** Recorded as the run's source. */
const SOURCE = { "X-Reduck-Source": "cli" };

type Schema = Record<string, unknown>;

/** A step ready to send, with what the CLI needs to report on it. */
interface PreparedStep {
  script: ScriptToRun;
  label: string;
  outputSchema?: Schema;
}

/** One run's outcome, as the hosted agent tool reports it. */
type Outcome =
  | { status: "completed"; runId: string; result: unknown }
  | { status: "failed" | "skipped"; runId: string | null; error: string };

export default class Run extends BaseCommand<typeof Run> {
  static override summary = "Run one or more scripts and print their results as JSON";
  static override description = `Each --script is followed by its own arguments: name=value pairs, and file:INPUT=PATH to send a file's bytes (any file on this disk, up to 50 MiB). Values are converted to the types the script's input schema asks for; arrays and objects are written as JSON. Before anything is uploaded, the arguments are checked against the script's whole input schema (types, ranges, patterns, allowed values): a run refused by the service still counts against your quota.

stdout is the script's result as JSON; with several --script, a JSON array of results in the order given, null for a step that gave none. Run ids, and which runs failed and why, go to stderr; the exit code is 1 when any failed.

--json prints the outcome instead, as the hosted agent tool does: {"status", "runId", "result"} (or "error") for one script; {"batchId", "status", "totalSteps", "runs": [{"status", "runId", "result" | "error"}]} for several. Statuses are completed, failed or skipped.

--out DIR saves the files a result holds: a download ({"filename", "url"}) is fetched into DIR, and a file's bytes given as base64 (download_invoice's pdf_base64) are written there; the printed result says where each landed ("path"). An existing file is never replaced. Without --out nothing is written.

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
      description: "Download an invoice into ~/Downloads/invoices",
      command: "<%= config.bin %> run --out ~/Downloads/invoices --script reduck/admin.atlassian.com/download_invoice id=inv_123 transaction_account=acct_9 number=IN-EU-002",
    },
    {
      description: "Run in order in one browser, stopping at the first failure",
      command: "<%= config.bin %> run --sequential --script example.com/get_title url=https://example.com --script news.ycombinator.com/top_stories",
    },
    {
      description: "Run version 1 on a managed browser, with the outcome as JSON",
      command: '<%= config.bin %> run --browser managed --version 1 --json --script reduck/mail.google.com/send_email to=me@example.com subject=Hi',
    },
  ];

  static override strict = false;

  static override flags = {
    script: Flags.string({
      description: "Script address [handle/]host/slug, followed by its name=value and file:INPUT=PATH arguments. Repeat to run several.",
      multiple: true,
      helpValue: "ADDRESS",
    }),
    browser: Flags.string({
      description: "Where to run: extension (your own paired browser, the default) or managed (a managed browser; needs a connector for the site).",
      options: ["extension", "managed"],
    }),
    device: Flags.string({ description: "Run on this paired browser (an id from `reduck devices list`).", helpValue: "ID" }),
    version: versionFlag("Run this version instead of the current one (one --script only)."),
    sequential: Flags.boolean({ description: "Run the scripts in order in one browser, stopping at the first failure." }),
    out: Flags.string({ description: "Save the files the result holds (downloads, base64 file bytes) into this folder.", helpValue: "DIR" }),
  };

  public async run(): Promise<unknown> {
    setRunPhase("preparing");
    const steps = groupSteps(this.argv);
    const version = this.flags.version;
    if (version && steps.length > 1) throw usageError("--version applies to one script: give a single --script with it");
    if (this.flags.device && this.flags.browser === "managed") {
      throw usageError("--device names one of your own paired browsers, so it cannot go with --browser managed: drop one of them");
    }
    if (this.flags.sequential && steps.length < 2) this.note("--sequential has no effect with a single --script");
    const out = this.flags.out ? await checkOutDir(expandHome(this.flags.out)) : undefined;

    // Local files first: a typo in a path needs no network, nor even a credential, to report.
    for (const step of steps) {
      for (const [input, file] of step.files) await checkLocalFile(input, file);
    }
    const client = await this.client();
    // ajv loads while the contracts are on their way.
    preloadValidator();
    const prepared = await Promise.all(steps.map((step) => this.prepareStep(step, version)));
    const browser: RunBrowser = this.flags.device ? { deviceId: this.flags.device } : ((this.flags.browser ?? "extension") as "extension" | "managed");

    const multipart = prepared.some((p) => p.script.files);
    // A JSON request goes out at once; a multipart one once its last byte has been sent.
    if (!multipart) setRunPhase("sent");
    const progress = progressReporter(process.stderr);
    const onUploadProgress = (p: { sent: number; total: number }) => {
      progress.update(p);
      if (p.sent === p.total) setRunPhase("sent");
    };
    const options = { client, browser, headers: SOURCE, onUploadProgress };
    let outcomes: Outcome[];
    let batch: { batchId: string; status: string; totalSteps: number } | undefined;
    try {
      if (prepared.length === 1) {
        const result = await runScript({ ...options, script: prepared[0]!.script });
        progress.done();
        if (result.error) {
          // A run the service recorded and failed is an outcome to report; anything else is an error.
          if (!result.error.runId) throw fromReduckError(result.error);
          outcomes = [{ status: "failed", runId: result.error.runId, error: inCliWords(result.error.error) }];
        } else {
          outcomes = [{ status: "completed", runId: result.data.runId, result: result.data.result }];
        }
      } else {
        const result = await runScript({ ...options, scripts: prepared.map((p) => p.script), sequential: this.flags.sequential });
        progress.done();
        if (result.error) throw fromReduckError(result.error);
        const { runs, ...rest } = result.data;
        batch = rest;
        outcomes = runs.map((r) =>
          r.status === "completed"
            ? { status: "completed", runId: r.runId!, result: r.result }
            : { status: r.status as "failed" | "skipped", runId: r.runId ?? null, error: inCliWords(r.error ?? r.status) },
        );
      }
    } finally {
      progress.done();
    }

    const failures: string[] = [];
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.status !== "completed") continue;
      if (out) {
        const saved = await saveFiles(outcome.result, prepared[i]!.outputSchema as never, out);
        outcome.result = saved.result;
        for (const file of saved.written) this.note(`Saved ${file}`);
        failures.push(...saved.failures.map((f) => (prepared.length > 1 ? `${prepared[i]!.label}: ${f}` : f)));
      } else {
        const note = unsavedNote(outcome.result, prepared[i]!.outputSchema as never);
        if (note) this.note(note);
      }
    }
    const failed = outcomes.some((o) => o.status !== "completed") || failures.length > 0;
    if (failed) process.exitCode = ExitCode.FAILED;

    if (this.jsonEnabled()) {
      this.printJson(batch ? { ...batch, runs: outcomes } : outcomes[0]);
      for (const f of failures) process.stderr.write(`Error: ${f}\n`);
      return;
    }
    for (const [i, o] of outcomes.entries()) {
      const label = prepared.length > 1 ? `${prepared[i]!.label}: ` : "";
      if (o.status === "completed") this.note(`${label}run ${o.runId}`);
      else if (o.status === "skipped") process.stderr.write(`${label}skipped: ${o.error}\n`);
      else process.stderr.write(`${prepared.length > 1 ? label : "Error: "}${o.runId ? `run ${o.runId} failed` : "failed"}: ${o.error}\n`);
    }
    for (const f of failures) process.stderr.write(`Error: ${f}\n`);
    if (batch) this.printJson(outcomes.map((o) => (o.status === "completed" ? o.result : null)));
    else if (outcomes[0]!.status === "completed") this.printJson(outcomes[0]!.result);
  }

  /** Reads the script's contract and turns the step's arguments into a run reference. */
  private async prepareStep(step: StepArgs, version: string | undefined): Promise<PreparedStep> {
    const client = await this.client();
    const path = await resolveAddress(client, step.address);
    const label = formatAddress(step.address);
    let contract: { input_schema?: Schema; output_schema?: Schema };
    let versionId: string | undefined;
    if (version) {
      versionId = await resolveVersion(client, path, version);
      contract = this.unwrap(await getScriptVersion({ client, path: { ...path, versionId } }), `reading ${label} version ${version}`);
    } else {
      const script = await readScriptOrSuggest(client, path);
      if (!script.current_version) throw new CliError(`${label} has no current version to run: promote one, or pass --version`, ExitCode.FAILED);
      contract = script.current_version as typeof contract;
    }
    const inputSchema = (contract.input_schema ?? {}) as Schema;
    const { args, files, fileInputs, problems } = applyContract(step, inputSchema as never);
    problems.push(...(await schemaProblems(inputSchema, args, fileInputs)));
    if (problems.length) throw usageError(`${label}: ${problems.join("; ")}`);
    // stderr even with --json: stdout stays one document, and the surprise is worth saying.
    for (const note of fileNameNotes(inputSchema, args, files)) process.stderr.write(`${note}\n`);
    return {
      label,
      outputSchema: contract.output_schema,
      script: {
        handle: path.handle,
        host: step.address.host,
        slug: step.address.slug,
        args,
        ...(Object.keys(files).length ? { files: Object.fromEntries(Object.entries(files).map(([k, p]) => [k, { path: p }])) } : {}),
        ...(versionId ? { version_id: versionId } : {}),
      },
    };
  }
}

/** A file to upload: it exists, is readable and is within the limit, in exact numbers. */
async function checkLocalFile(input: string, file: string): Promise<void> {
  const info = await stat(file).catch(() => undefined);
  if (info?.isFile() && info.size > MAX_FILE_BYTES) {
    const n = (bytes: number) => bytes.toLocaleString("en-US");
    throw usageError(`file input ${input}: ${file} is ${n(info.size)} bytes, over the limit of ${n(MAX_FILE_BYTES)} bytes (${MAX_FILE_BYTES / 2 ** 20} MiB) per file`);
  }
  await openBytes(0, input, { path: file }).catch((err: Error) => {
    throw err instanceof FileProblem ? usageError(err.message) : err;
  });
}
