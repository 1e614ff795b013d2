import { Args, Flags } from "@oclif/core";
import { readRunTrace, type RunTraceRead } from "../../../report/read-trace.js";
import { BaseCommand } from "../../shell/base.js";
import { checkOutDir } from "../../run/downloads.js";
import { ExitCode } from "../../shell/exit-codes.js";
import { expandHome } from "../../run/run-args.js";
import { writeText } from "../../shell/terminal-text.js";
import { checkPageFile } from "../../run/pages.js";
import { failedStepLine, onThisMachine, SIMULATED_PAGE, saveScreenshots } from "../../run/trace-screenshots.js";
import { fromReduckError } from "../../shell/errors.js";

export default class RunsTrace extends BaseCommand<typeof RunsTrace> {
  static override summary = "Print the steps a run recorded, as JSON; save its screenshots; or see it all as a page";
  static override description =
    `The output is always JSON (--json changes nothing): the steps the run took, each with its duration, and its screenshots (a PNG after the last step, or where it failed), each as a URL. Not every run records a trace; then the command fails with the service's message.

Steps are counted from 1 in what people read (the line on stderr that names the failing step, the run's page); the JSON keeps the service's own "index".

--screenshots DIR downloads the screenshots into DIR (created if missing) as <run id>-<kind>.png (or .jpg, .gif, .webp: named by what the bytes are), never over an existing file; the printed trace then says where each landed ("path"). Only images are saved: bytes that are no PNG, JPEG, GIF or WebP (whatever the server called them), and URLs other than https: or the service's own origin (each redirect too), are left out, saying why.

--html FILE writes the run's page instead: one HTML file with the run, its arguments, its steps drawn to scale (the failing one standing out), its screenshots and its result or error, which opens from disk and makes no request (mail it, attach it to a CI job); the command prints its path (with --json: {"path"}). --open opens it in your browser ($BROWSER when set, else the system's), writing it to a temporary file unless --html names one.`;

  static override examples = [
    { description: "The trace of a failed run", command: "<%= config.bin %> runs trace 00000000-0000-4000-8005-000000000002" },
    { description: "Look at the page where the run ended", command: "<%= config.bin %> runs trace 00000000-0000-4000-8005-000000000002 --screenshots ./shots" },
    { description: "The run as a page to keep or send", command: "<%= config.bin %> runs trace 00000000-0000-4000-8005-000000000002 --html run.html" },
    {
      description: "See the run in your browser",
      command: "<%= config.bin %> runs trace 00000000-0000-4000-8005-000000000002 --open  # not run by the tests: opens a browser",
    },
  ];

  static override args = {
    run_id: Args.string({ description: "Run id.", required: true }),
  };

  static override flags = {
    screenshots: Flags.string({ description: "Save the run's screenshots (PNG) into this folder.", helpValue: "DIR" }),
    html: Flags.string({ description: "Write the run's page (one self-contained HTML file) here, and print its path.", helpValue: "FILE" }),
    open: Flags.boolean({ description: "Open the run's page in your browser ($BROWSER, else the system's)." }),
  };

  public async run(): Promise<void> {
    const runId = this.args.run_id;
    const dir = this.flags.screenshots ? await checkOutDir(expandHome(this.flags.screenshots), "--screenshots") : undefined;
    const page = this.flags.html ? await checkPageFile(expandHome(this.flags.html), "--html") : undefined;
    const client = await this.client();
    if (page || this.flags.open) {
      // Read once: the screenshots saved are those the page embeds.
      const read = dir ? await this.read(runId, true) : undefined;
      if (read && dir) await this.saveFrom(read, runId, dir, client.baseUrl);
      return this.writePage(runId, page, read);
    }
    const read = await this.read(runId, dir !== undefined);
    // A run the service knows but that recorded no trace: the service's words, and exit 1.
    if (read.noTraceError) throw fromReduckError(read.noTraceError, `reading the trace of run ${runId}`);
    if (dir) await this.saveFrom(read, runId, dir, client.baseUrl);
    const failed = failedStepLine(read);
    if (failed) this.note(failed);
    // Printed here rather than returned: a returned value prints only with --json.
    this.printJson(read.trace);
  }

  /** The run read back by the one reader (report/read-trace.ts); its screenshots only when they are to be saved. */
  private async read(runId: string, images: boolean): Promise<RunTraceRead> {
    const read = await readRunTrace({ client: await this.client(), runId, images, maxTotalImageBytes: Number.POSITIVE_INFINITY });
    if (read.error) throw fromReduckError(read.error, `reading the trace of run ${runId}`);
    return read.data;
  }

  /** The run's page instead of its JSON: stdout is the page's path (with --json, `{ "path" }`). */
  private async writePage(runId: string, file: string | undefined, read: RunTraceRead | undefined): Promise<void> {
    const { writeRunPage } = await import("../../run/run-page.js");
    const client = await this.client();
    const written = await writeRunPage({ client, runId, file, open: this.flags.open, note: (m) => this.note(m), read });
    if (this.jsonEnabled()) this.printJson({ path: written });
    else process.stdout.write(`${written}\n`);
  }

  private async saveFrom(read: RunTraceRead, runId: string, dir: string, baseUrl: string): Promise<void> {
    if (!read.view.screenshots.length) {
      this.note(`Run ${runId} recorded no screenshot: nothing was saved.${onThisMachine(baseUrl) ? ` ${SIMULATED_PAGE}` : ""}`);
      return;
    }
    const { saved, leftOut } = await saveScreenshots(read, runId, dir);
    for (const file of saved) this.note(`Saved ${file}`);
    for (const line of leftOut) {
      writeText(process.stderr, `Error: ${line}\n`);
      process.exitCode = ExitCode.FAILED;
    }
  }
}
