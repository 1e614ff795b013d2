import { Args, Flags } from "@oclif/core";
import { mkdir } from "node:fs/promises";
import { getRunTrace } from "../../../generated/operations.js";
import { BaseCommand } from "../../shell/base.js";
import { checkOutDir, fetchInto, why } from "../../run/downloads.js";
import { ExitCode } from "../../shell/exit-codes.js";
import { expandHome } from "../../run/run-args.js";
import { checkRunIds } from "../../run/run-ids.js";
import { writeText } from "../../shell/terminal-text.js";

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
  static override summary = "Print the steps a run recorded, as JSON; save its screenshots";
  static override description =
    `The output is always JSON (--json changes nothing): the steps the run took, each with its duration, and its screenshots (a PNG after the last step, or where it failed), each as a URL. Not every run records a trace; then the command fails with the service's message.

--screenshots DIR downloads the screenshots into DIR (created if missing) as <run id>-<kind>.png, never over an existing file; the printed trace then says where each landed ("path").`;

  static override examples = [
    { description: "The trace of a failed run", command: "<%= config.bin %> runs trace 00000000-0000-4000-8005-000000000002" },
    { description: "Look at the page where the run ended", command: "<%= config.bin %> runs trace 00000000-0000-4000-8005-000000000002 --screenshots ./shots" },
  ];

  static override args = {
    run_id: Args.string({ description: "Run id.", required: true }),
  };

  static override flags = {
    screenshots: Flags.string({ description: "Save the run's screenshots (PNG) into this folder.", helpValue: "DIR" }),
  };

  public async run(): Promise<void> {
    const runId = this.args.run_id;
    checkRunIds([runId]);
    const dir = this.flags.screenshots ? await checkOutDir(expandHome(this.flags.screenshots), "--screenshots") : undefined;
    const client = await this.client();
    const trace = this.unwrap(await getRunTrace({ client, path: { runId } }), `reading the trace of run ${runId}`);
    if (dir) await this.saveScreenshots(runId, trace, dir, client.baseUrl);
    // Printed here rather than returned: a returned value prints only with --json.
    this.printJson(trace);
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
