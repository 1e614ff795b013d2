import { Args, Flags } from "@oclif/core";
import { mkdir } from "node:fs/promises";
import { getRunTrace } from "../../../generated/operations.js";
import { BaseCommand } from "../../shell/base.js";
import { checkOutDir, fetchInto, why } from "../../run/downloads.js";
import { ExitCode } from "../../shell/exit-codes.js";
import { expandHome } from "../../run/run-args.js";
import { writeText } from "../../shell/terminal-text.js";
import { checkPageFile } from "../../run/pages.js";

const SIMULATED_PAGE =
  "On the sandbox, a run on its simulated page (--browser simulated) takes none: that page renders nothing. " +
  "For a screenshot, start the sandbox without --browser simulated (its real headless Chromium) and run the script again.";

/** A screenshot entry of a trace: where its PNG is, and what it shows (`last`, `failure`). */
type Screenshot = Record<string, unknown> & { url: string; kind?: unknown };

/** The screenshots a trace refers to by URL (the trace's own objects, so adding `path` shows in the output). */
function screenshotsOf(trace: unknown): Screenshot[] {
  const list = (trace as { screenshots?: unknown } | null)?.screenshots;
  if (!Array.isArray(list)) return [];
  return list.filter((s): s is Screenshot => typeof s === "object" && s !== null && typeof s.url === "string" && /^(https?:|data:image\/)/i.test(s.url));
}

export default class RunsTrace extends BaseCommand<typeof RunsTrace> {
  static override summary = "Print the steps a run recorded, as JSON; save its screenshots; or see it all as a page";
  static override description =
    `The output is always JSON (--json changes nothing): the steps the run took, each with its duration, and its screenshots (a PNG after the last step, or where it failed), each as a URL. Not every run records a trace; then the command fails with the service's message.

--screenshots DIR downloads the screenshots into DIR (created if missing) as <run id>-<kind>.png, never over an existing file; the printed trace then says where each landed ("path").

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
    if (page || this.flags.open) return this.writePage(runId, page, dir);
    const trace = this.unwrap(await getRunTrace({ client, path: { runId } }), `reading the trace of run ${runId}`);
    if (dir) await this.saveScreenshots(runId, trace, dir, client.baseUrl);
    // Printed here rather than returned: a returned value prints only with --json.
    this.printJson(trace);
  }

  /** The run's page instead of its JSON: stdout is the page's path (with --json, `{ "path" }`). */
  private async writePage(runId: string, file: string | undefined, dir: string | undefined): Promise<void> {
    const { writeRunPage } = await import("../../run/run-page.js");
    const client = await this.client();
    if (dir)
      await this.saveScreenshots(runId, this.unwrap(await getRunTrace({ client, path: { runId } }), `reading the trace of run ${runId}`), dir, client.baseUrl);
    const written = await writeRunPage({ client, runId, file, open: this.flags.open, note: (m) => this.note(m) });
    if (this.jsonEnabled()) this.printJson({ path: written });
    else process.stdout.write(`${written}\n`);
  }

  private async saveScreenshots(runId: string, trace: unknown, dir: string, baseUrl: string): Promise<void> {
    const screenshots = screenshotsOf(trace);
    if (!screenshots.length) {
      // A service on this machine is the sandbox, whose simulated page is the likely reason.
      const sandbox = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(new URL(baseUrl).hostname);
      this.note(`Run ${runId} recorded no screenshot: nothing was saved.${sandbox ? ` ${SIMULATED_PAGE}` : ""}`);
      return;
    }
    await mkdir(dir, { recursive: true });
    for (const screenshot of screenshots) {
      const kind = typeof screenshot.kind === "string" && screenshot.kind ? screenshot.kind : "screenshot";
      try {
        screenshot.path = await fetchInto(dir, `${runId}-${kind}.png`, screenshot.url);
        this.note(`Saved ${screenshot.path}`);
      } catch (err) {
        writeText(process.stderr, `Error: could not save the ${kind} screenshot: ${why(err)}\n`);
        process.exitCode = ExitCode.FAILED;
      }
    }
  }
}
