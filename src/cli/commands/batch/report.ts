import { stat } from "node:fs/promises";
import path from "node:path";
import { Args, Flags } from "@oclif/core";
import { BaseCommand } from "../../shell/base.js";
import { usageError } from "../../shell/errors.js";
import { expandHome } from "../../run/run-args.js";
import { checkPageFile, temporaryPage } from "../../run/pages.js";

export default class BatchReport extends BaseCommand<typeof BatchReport> {
  static override summary = "Make a batch's report, one HTML page, from its results files";
  static override description =
    `Reads results files as \`reduck batch\` writes them (--out; a running batch's too) and writes their report: whether the batch finished or was stopped (and then how many rows were never sent, and the command that carries on), the rows by status, how long they took, the failures grouped by their error with the rows of each, and every row, found by its row number or run id. One HTML file that opens from disk and makes no request; at 100,000 rows about 7 MB. The command prints its path (with --json: {"path", "rows", "state", "summary", ...}). With --json and neither --html nor --open, it prints only the counts and whether the batch finished ({"rows", "state", "summary", "inputRows", "neverSent", "stops"}), and writes no page.

Several results files make one report: the files of a batch run in shards (\`reduck batch --shard I/N\`), each row counted once.

--open opens it in your browser ($BROWSER when set, else the system's), writing it to a temporary file unless --html names one. \`reduck batch ... --report FILE\` writes the same report when the batch ends.`;

  static override examples = [
    {
      description: "Run a batch, then make its report",
      command:
        "<%= config.bin %> batch --script reduck/mail.google.com/send_email --input people.csv attachmentName=invoice.pdf && <%= config.bin %> batch report people.results.jsonl --html report.html",
    },
    {
      description: "Whether a batch finished, and its counts, as JSON (no page)",
      command:
        "<%= config.bin %> batch --script reduck/mail.google.com/send_email --input people.csv attachmentName=invoice.pdf && <%= config.bin %> batch report people.results.jsonl --json",
    },
    {
      description: "One report of a batch run in two shards",
      command:
        "<%= config.bin %> batch --script reduck/mail.google.com/send_email --input people.csv attachmentName=invoice.pdf --shard 1/2 && <%= config.bin %> batch --script reduck/mail.google.com/send_email --input people.csv attachmentName=invoice.pdf --shard 2/2 && <%= config.bin %> batch report people.shard-1-of-2.results.jsonl people.shard-2-of-2.results.jsonl --html report.html",
    },
    {
      description: "See a running batch's report in your browser",
      command: "<%= config.bin %> batch report people.results.jsonl --open  # not run by the tests: opens a browser",
    },
  ];

  // strict=false: the results files after the first arrive in argv.
  static override strict = false;

  static override args = {
    results: Args.string({
      description: "The batch's results file (JSONL), as `reduck batch` writes it; several: one report of them all (a batch's shards).",
      required: true,
    }),
  };

  static override flags = {
    html: Flags.string({ description: "Write the report (one self-contained HTML file) here.", helpValue: "FILE" }),
    open: Flags.boolean({ description: "Open the report in your browser ($BROWSER, else the system's)." }),
  };

  public async run(): Promise<void> {
    const { argv } = await this.parse(BatchReport);
    const given = [...new Set(argv as string[])];
    const results: string[] = [];
    for (const name of given) {
      const file = path.resolve(expandHome(name));
      const info = await stat(file).catch(() => undefined);
      if (!info) throw usageError(`${name}: no such file`);
      if (!info.isFile()) throw usageError(`${name}: not a file`);
      results.push(file);
    }
    const { batchReportJson, readBatchResults, writeBatchReport } = await import("../../batch/report.js");
    if (!this.flags.html && !this.flags.open) {
      if (!this.jsonEnabled()) throw usageError("say where the report goes: --html FILE, or --open to see it in your browser (--json alone prints the counts)");
      // The counts alone: no page to write.
      this.printJson(batchReportJson(await readBatchResults(results)));
      return;
    }
    const file = this.flags.html
      ? await checkPageFile(
          expandHome(this.flags.html),
          "--html",
          results.map((r) => [r, "the results file"] as [string, string]),
        )
      : await temporaryPage("batch-report.html");
    const tally = await writeBatchReport(results, file);
    if (this.flags.open) {
      const { openPage } = await import("../../run/open-page.js");
      await openPage(file, (m) => this.note(m));
    }
    if (this.jsonEnabled()) this.printJson({ path: file, ...batchReportJson(tally) });
    else process.stdout.write(`${file}\n`);
  }
}
