import { stat } from "node:fs/promises";
import path from "node:path";
import { Args, Flags } from "@oclif/core";
import { BaseCommand } from "../../shell/base.js";
import { usageError } from "../../shell/errors.js";
import { expandHome } from "../../run/run-args.js";
import { checkPageFile, temporaryPage } from "../../run/pages.js";

export default class BatchReport extends BaseCommand<typeof BatchReport> {
  static override summary = "Make a batch's report, one HTML page, from its results file";
  static override description =
    `Reads a results file as \`reduck batch\` writes it (--out; a running batch's too) and writes its report: the rows by status, how long they took, the failures grouped by their error with the rows of each, and every row, found by its row number or run id. One HTML file that opens from disk and makes no request; at 100,000 rows about 7 MB. The command prints its path (with --json: {"path", "rows"}).

--open opens it in your browser ($BROWSER when set, else the system's), writing it to a temporary file unless --html names one. \`reduck batch ... --report FILE\` writes the same report when the batch ends.`;

  static override examples = [
    {
      description: "Run a batch, then make its report",
      command:
        "<%= config.bin %> batch --script reduck/mail.google.com/send_email --input people.csv attachmentName=invoice.pdf && <%= config.bin %> batch report people.results.jsonl --html report.html",
    },
    {
      description: "See a running batch's report in your browser",
      command: "<%= config.bin %> batch report people.results.jsonl --open  # not run by the tests: opens a browser",
    },
  ];

  static override args = {
    results: Args.string({ description: "The batch's results file (JSONL), as `reduck batch` writes it.", required: true }),
  };

  static override flags = {
    html: Flags.string({ description: "Write the report (one self-contained HTML file) here.", helpValue: "FILE" }),
    open: Flags.boolean({ description: "Open the report in your browser ($BROWSER, else the system's)." }),
  };

  public async run(): Promise<void> {
    const given = this.args.results;
    const results = path.resolve(expandHome(given));
    const info = await stat(results).catch(() => undefined);
    if (!info) throw usageError(`${given}: no such file`);
    if (!info.isFile()) throw usageError(`${given}: not a file`);
    if (!this.flags.html && !this.flags.open) throw usageError("say where the report goes: --html FILE, or --open to see it in your browser");
    const file = this.flags.html
      ? await checkPageFile(expandHome(this.flags.html), "--html", [[results, "the results file"]])
      : await temporaryPage("batch-report.html");
    const { writeBatchReport } = await import("../../batch/report.js");
    const rows = await writeBatchReport(results, file);
    if (this.flags.open) {
      const { openPage } = await import("../../run/open-page.js");
      await openPage(file, (m) => this.note(m));
    }
    if (this.jsonEnabled()) this.printJson({ path: file, rows });
    else process.stdout.write(`${file}\n`);
  }
}
