import { Flags } from "@oclif/core";
import { runBatch } from "../batch/run-batch.js";
import { batchWords } from "../batch/words.js";
import { browserFlag } from "../run/browser-flag.js";
import { versionFlags } from "../scripts/versions.js";
import { BaseCommand } from "../shell/base.js";
import { EXIT_CODES_HELP } from "../shell/exit-codes.js";

export default class Batch extends BaseCommand<typeof Batch> {
  static override summary = "Run one script over every row of a CSV or JSONL file: resumable, each row run once";
  static override description =
    `Each row is one run of --script. A CSV's header names the script's inputs; a column named file:INPUT holds a path whose bytes are sent for that file input (relative to the input file's folder). A JSONL file holds one object per line with the same keys. Cells are converted to the types the script's input schema asks for, as name=value is for \`reduck run\`; a JSONL value of a JSON type the input does not take (an object or a number where it asks for text) is a problem of its row, never sent as its JSON text. name=value and file:INPUT=PATH after --script apply to every row; a row that sets one of them too is an error.

Before the first run, every row is checked against the script's contract (types, required inputs, allowed values, files that exist and fit the limit); all problems are listed with their row numbers and nothing is sent (exit 2). --skip-invalid runs the good rows and records the others as invalid; --dry-run only checks.

Results go to --out (default: beside the input, NAME.results.jsonl), one JSON line per row as it ends: {"row", "key", "status", "runId", "result" | "error", "errorType"}, status completed, failed, invalid or unknown. Before each request a "sending" line is written and flushed to disk, so a batch stopped at any moment (Ctrl-C, a crash, a reboot) can be resumed with --resume: completed rows are never sent again (rows are recognised by their values, so an edited or reordered file resumes correctly); a row the service already has is waited for, never sent again; a row whose request was cut off is looked for among the script's runs, and marked unknown only when none is found (--retry-unknown sends those again; they may then run twice). --retry-failed sends failed rows again. The results file's first line records the script, its version and the name=value given for every row; --resume with others is refused before anything is sent (they would make every row new, and run it again): give the batch's own, or start a new results file with --out.

--report FILE writes the batch's report when it ends or is stopped: one HTML page with the rows by status, how long they took and the failures grouped by their error, and, for a batch stopped before its end, how many rows were never sent and the command that carries on (\`reduck batch report\` makes it from any results file).

--shard I/N sends only the I-th of N shares of the rows (a hash of each row's values picks its share, so every machine given the same input splits it the same way, and an edited input keeps each row in its share): N jobs of a CI matrix, one --shard each, run every row once between them. Each shard keeps its own results file (default NAME.shard-I-of-N.results.jsonl) and resumes on its own with --resume and the same --shard; \`reduck batch report\` given every shard's file makes one report.

A 429 or 503 from the service slows the whole batch down (honouring Retry-After); it fails no row. Ctrl-C stops sending and waits for the rows in flight; a second Ctrl-C stops waiting (those rows stay resumable). Either way the command to resume is printed.

Exit 0 when every row completed (rows skipped with --skip-invalid aside), 1 when any failed or is unknown, 2 for bad input (nothing sent), 130 when interrupted.

${EXIT_CODES_HELP}`;

  static override examples = [
    {
      description: "Send one email per row of people.csv (columns to, subject, file:attachment), 8 at a time",
      command:
        "<%= config.bin %> batch --script reduck/mail.google.com/send_email --input people.csv --concurrency 8  # not run by the tests: needs people.csv; test/e2e/batch.test.ts runs batch on real files",
    },
    {
      description: "Check every row without sending anything",
      command:
        "<%= config.bin %> batch --script reduck/mail.google.com/send_email --input people.csv --dry-run  # not run by the tests: needs people.csv; test/e2e/batch.test.ts runs batch on real files",
    },
    {
      description: "Carry on after a crash or Ctrl-C: nothing already run is sent again",
      command:
        "<%= config.bin %> batch --script reduck/mail.google.com/send_email --input people.csv --resume  # not run by the tests: needs people.csv; test/e2e/batch.test.ts runs batch on real files",
    },
    {
      description: "Keep a report to look at when the batch ends",
      command: "<%= config.bin %> batch --script reduck/mail.google.com/send_email --input people.csv attachmentName=invoice.pdf --report report.html",
    },
    {
      description: "The same subject for every row, rows from JSONL, the summary as JSON",
      command:
        '<%= config.bin %> batch --script reduck/mail.google.com/send_email --input people.jsonl subject="Our new banner" --json  # not run by the tests: needs people.jsonl; test/e2e/batch.test.ts runs batch on real files',
    },
  ];

  static override strict = false;

  static override flags = {
    script: Flags.string({
      description: "Script address [handle/]host/slug, followed by name=value and file:INPUT=PATH arguments for every row.",
      required: true,
      helpValue: "ADDRESS",
    }),
    input: Flags.string({
      description: "The rows: a .csv file (a header, then one row per run) or a .jsonl file (one JSON object per line).",
      required: true,
      helpValue: "FILE",
    }),
    out: Flags.string({ description: "The results journal (JSONL). Default: beside the input, NAME.results.jsonl.", helpValue: "FILE" }),
    concurrency: Flags.integer({ description: "Rows in flight at once.", default: 4, min: 1, max: 100 }),
    resume: Flags.boolean({ description: "Continue the batch --out records: completed rows are not sent again." }),
    "retry-failed": Flags.boolean({ description: "With --resume: send the rows that failed again." }),
    "retry-unknown": Flags.boolean({ description: "With --resume: send the rows whose fate is unknown again (they may run twice)." }),
    "skip-invalid": Flags.boolean({ description: "Run the rows that pass the check; record the others as invalid." }),
    "dry-run": Flags.boolean({ description: "Check every row and say how many runs would go out; send nothing." }),
    shard: Flags.string({
      description:
        "Send only this share of the rows, I of N (1/4 ... 4/4): the rows whose values hash to I, the same split on every machine. Results default to NAME.shard-I-of-N.results.jsonl; `reduck batch report` takes every shard's file.",
      helpValue: "I/N",
    }),
    report: Flags.string({ description: "When the batch ends or is stopped, write its report (one HTML page) here.", helpValue: "FILE" }),
    browser: browserFlag,
    device: Flags.string({ description: "Run on this paired browser (an id from `reduck devices list`).", helpValue: "ID" }),
    ...versionFlags("Run this version instead of the current one."),
  };

  public async run(): Promise<void> {
    const done = await runBatch({
      argv: this.argv,
      flagDefinitions: this.flagDefinitions(),
      flags: this.flags,
      client: () => this.client(),
      note: (m) => this.note(m),
      json: this.jsonEnabled(),
      bin: this.config.bin,
    });
    const words = batchWords(done);
    if (this.jsonEnabled()) this.printJson(words.json);
    else {
      if (words.before) process.stderr.write(words.before);
      process.stdout.write(words.summary);
    }
    for (const text of words.after) process.stderr.write(text);
    if (words.exitCode !== undefined) process.exitCode = words.exitCode;
  }
}
