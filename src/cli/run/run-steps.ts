/**
 * `reduck run` from its command line to what it prints: the plan (plan-run.ts) sent once, with an
 * upload bar and then a status line on a terminal, Ctrl-C told how far the run got
 * (run-progress.ts), and a result's files saved with --out.
 */
import { runScript, type RunRegion } from "../../run/run.js";
import type { RunStatusUpdate } from "../../run/outcomes.js";
import { saveFiles, unsavedNote } from "./downloads.js";
import { planRun, type RunCommandLine, type RunPlan } from "./plan-run.js";
import { progressReporter, runStatusLine } from "./progress-lines.js";
import { RunProgress } from "./run-progress.js";
import { reportOf, type EndedRuns, type RunReport } from "./run-report.js";

/** Recorded as the run's source. */
const SOURCE = { "X-Reduck-Source": "cli" };

/** How the runs ended, with each step's label and the command's own failures (a file not saved). */
export type RunsEnded = EndedRuns & { labels: string[]; failures: string[] };

/**
 * Runs what the command line asks for: a pending run's handle (`--no-wait`), or how the runs
 * ended, ready for printOutcomes.
 *
 * @example
 * const ran = await runSteps({ argv: this.argv, flagDefinitions: this.flagDefinitions(), flags: this.flags, client: () => this.client(), note });
 * if ("pending" in ran) printPending(printer, ran.pending);
 * else printOutcomes(printer, ran.outcomes, ran.batch, ran.labels, ran.failures);
 */
export async function runSteps(line: RunCommandLine): Promise<Extract<RunReport, { pending: unknown }> | RunsEnded> {
  const progress = RunProgress.preparing();
  const plan = await planRun(line, progress);
  const report = await send(plan, line, progress);
  if ("pending" in report) return report;
  // The wait is over: what is left (saving files) concerns a run that has ended.
  progress.sent();
  const failures = await saveOutcomeFiles(report, plan, line.note);
  return { ...report, labels: plan.steps.map((step) => step.label), failures };
}

/** Sends the plan once and waits for it, drawing the upload bar, then the status line. */
async function send(plan: RunPlan, { flags }: RunCommandLine, progress: RunProgress): Promise<RunReport> {
  const { steps } = plan;
  const multipart = steps.some((step) => step.script.files);
  const status = runStatusLine(process.stderr);
  const startedAt = Date.now();
  let holding: ReturnType<typeof setTimeout> | undefined;
  let waiting = false;
  const sent = () => {
    progress.sent();
    // The service may hold the request a minute: a run still unanswered after a second gets the
    // status line (on a terminal) before any poll has counts to show.
    holding = setTimeout(() => {
      if (!waiting) status.update({ status: "running", runIds: [], total: steps.length, completed: 0, failed: 0, elapsedMs: Date.now() - startedAt });
    }, 1_000);
    holding.unref();
  };
  // A JSON request goes out at once; a multipart one once its last byte has been sent.
  if (!multipart) sent();
  const uploadBar = progressReporter(process.stderr);
  const onUploadProgress = (p: { sent: number; total: number }) => {
    uploadBar.update(p);
    if (p.sent === p.total && !holding) sent();
  };
  const onStatus = (u: RunStatusUpdate) => {
    // From here Ctrl-C stops the wait, not the run: say how to wait again.
    waiting = true;
    progress.waiting(u.batchId ?? u.runId);
    uploadBar.done();
    status.update(u);
  };
  const options = {
    client: plan.client,
    browser: plan.browser,
    headers: SOURCE,
    onUploadProgress,
    onStatus,
    wait: flags.wait,
    ...(flags.region ? { region: flags.region as RunRegion } : {}),
    ...(flags.country ? { country: flags.country } : {}),
    ...(flags["wait-for-seconds"] !== undefined ? { waitForSeconds: flags["wait-for-seconds"] } : {}),
  };
  try {
    const result =
      steps.length === 1
        ? await runScript({ ...options, script: steps[0]!.script })
        : await runScript({ ...options, scripts: steps.map((step) => step.script), sequential: flags.sequential });
    uploadBar.done();
    status.done();
    return reportOf(result);
  } finally {
    clearTimeout(holding);
    uploadBar.done();
    status.done();
  }
}

/**
 * With --out, saves the files each completed result holds (the result then says where each
 * landed); without, notes what was left unsaved. Returns what could not be saved.
 */
async function saveOutcomeFiles({ outcomes }: EndedRuns, plan: RunPlan, note: (message: string) => void): Promise<string[]> {
  const failures: string[] = [];
  for (const [i, outcome] of outcomes.entries()) {
    if (outcome.status !== "completed") continue;
    const step = plan.steps[i]!;
    if (plan.out) {
      const saved = await saveFiles(outcome.result, step.outputSchema, plan.out);
      outcome.result = saved.result;
      for (const file of saved.written) note(`Saved ${file}`);
      failures.push(...saved.failures.map((f) => (plan.steps.length > 1 ? `${step.label}: ${f}` : f)));
    } else {
      const message = unsavedNote(outcome.result, step.outputSchema);
      if (message) note(message);
    }
  }
  return failures;
}
