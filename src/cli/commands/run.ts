import { Flags } from "@oclif/core";
import { MAX_WAIT_FOR_SECONDS, RUN_REGIONS } from "../../run/run.js";
import { browserFlag } from "../run/browser-flag.js";
import { printOutcomes, printPending } from "../run/run-report.js";
import { runSteps } from "../run/run-steps.js";
import { versionFlags } from "../scripts/versions.js";
import { BaseCommand } from "../shell/base.js";
import { EXIT_CODES_HELP } from "../shell/exit-codes.js";

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

  public async run(): Promise<unknown> {
    const printer = { json: this.jsonEnabled(), note: (m: string) => this.note(m), printJson: (v: unknown) => this.printJson(v) };
    const ran = await runSteps({
      argv: this.argv,
      flagDefinitions: this.flagDefinitions(),
      flags: this.flags,
      client: () => this.client(),
      note: printer.note,
    });
    if ("pending" in ran) return printPending(printer, ran.pending);
    printOutcomes(printer, ran.outcomes, ran.batch, ran.labels, ran.failures);
  }
}
