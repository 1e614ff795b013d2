import { stat } from "node:fs/promises";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import { writeText } from "../shell/terminal-text.js";
import { Flags } from "@oclif/core";
import { BaseCommand } from "../shell/base.js";
import { fromReduckError, usageError } from "../shell/errors.js";
import { checkFileToWrite } from "../shell/write-check.js";
import { ExitCode, EXIT_CODES_HELP } from "../shell/exit-codes.js";
import { statusLine } from "../shell/status-line.js";
import { parseAddress } from "../shell/address.js";
import { expandHome, sharedArguments } from "../run/run-args.js";
import { onInterrupt } from "../shell/interrupt.js";
import { browserFlag, browserOf } from "../run/browser-flag.js";
import { resolveAddress, withBareSlugHint } from "../scripts/own-handle.js";
import { scriptCallError } from "../scripts/script-lookup.js";
import { preloadValidator, schemaProblems } from "../run/validate-args.js";
import { chosenVersion, resolveVersion, versionFlags } from "../scripts/versions.js";
import type { BatchScript, PrepareOptions } from "../../batch/prepare.js";
import type { ResumeWords } from "../../batch/resume.js";
import type { BatchCounts } from "../../batch/run-many.js";
import { durationCompact } from "../../core/duration.js";
import { checkPageFile } from "../run/pages.js";

/** The batch runner, loaded when `batch` runs: other commands' start-up never pays for it (it hashes rows with node:crypto). */
const batchModules = () =>
  Promise.all([
    import("../../batch/journal.js"),
    import("../../batch/prepare.js"),
    import("../../batch/resume.js"),
    import("../../batch/rows.js"),
    import("../../batch/run-many.js"),
  ]).then(([journal, prepare, resume, rows, runMany]) => ({ ...journal, ...prepare, ...resume, ...rows, ...runMany }));

/** Recorded as the runs' source. */
const SOURCE = { "X-Reduck-Source": "cli" };
/** Pre-flight lists this many problems, then a count. */
const SHOWN_PROBLEMS = 20;

const n = (x: number) => x.toLocaleString("en-US");

/** A refused resume names the command's flags (the library's own words name runMany's options). */
const CLI_RESUME_WORDS: ResumeWords = {
  version: (id) => `--version ${id}`,
  newJournal: "--out NEW.results.jsonl, without --resume",
};

/** A word of a shell command, quoted only when it must be. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export default class Batch extends BaseCommand<typeof Batch> {
  static override summary = "Run one script over every row of a CSV or JSONL file: resumable, each row run once";
  static override description =
    `Each row is one run of --script. A CSV's header names the script's inputs; a column named file:INPUT holds a path whose bytes are sent for that file input (relative to the input file's folder). A JSONL file holds one object per line with the same keys. Cells are converted to the types the script's input schema asks for, as name=value is for \`reduck run\`; a JSONL value of a JSON type the input does not take (an object or a number where it asks for text) is a problem of its row, never sent as its JSON text. name=value and file:INPUT=PATH after --script apply to every row; a row that sets one of them too is an error.

Before the first run, every row is checked against the script's contract (types, required inputs, allowed values, files that exist and fit the limit); all problems are listed with their row numbers and nothing is sent (exit 2). --skip-invalid runs the good rows and records the others as invalid; --dry-run only checks.

Results go to --out (default: beside the input, NAME.results.jsonl), one JSON line per row as it ends: {"row", "key", "status", "runId", "result" | "error", "errorType"}, status completed, failed, invalid or unknown. Before each request a "sending" line is written and flushed to disk, so a batch stopped at any moment (Ctrl-C, a crash, a reboot) can be resumed with --resume: completed rows are never sent again (rows are recognised by their values, so an edited or reordered file resumes correctly); a row the service already has is waited for, never sent again; a row whose request was cut off is looked for among the script's runs, and marked unknown only when none is found (--retry-unknown sends those again; they may then run twice). --retry-failed sends failed rows again. The results file's first line records the script, its version and the name=value given for every row; --resume with others is refused before anything is sent (they would make every row new, and run it again): give the batch's own, or start a new results file with --out.

--report FILE writes the batch's report when it ends or is stopped: one HTML page with the rows by status, how long they took and the failures grouped by their error (\`reduck batch report\` makes it from any results file).

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
    report: Flags.string({ description: "When the batch ends or is stopped, write its report (one HTML page) here.", helpValue: "FILE" }),
    browser: browserFlag,
    device: Flags.string({ description: "Run on this paired browser (an id from `reduck devices list`).", helpValue: "ID" }),
    ...versionFlags("Run this version instead of the current one."),
  };

  public async run(): Promise<void> {
    keepYoungGenerationSmall();
    const { readBatchScript, readRows, rowsFormat, runMany } = await batchModules();
    const flags = this.flags;
    const browser = browserOf(flags.browser, flags.device);
    if ((flags["retry-failed"] || flags["retry-unknown"]) && !flags.resume)
      throw usageError("--retry-failed and --retry-unknown act on an earlier batch: add --resume");
    const address = await Promise.resolve()
      .then(() => parseAddress(flags.script))
      .catch(async (err: unknown) => {
        throw await withBareSlugHint(err, () => this.client());
      });
    const shared = sharedArguments(this.argv, this.flagDefinitions());
    const input = path.resolve(expandHome(flags.input));
    const info = await stat(input).catch(() => undefined);
    if (!info) throw usageError(`--input ${flags.input}: no such file`);
    if (!info.isFile()) throw usageError(`--input ${flags.input}: not a file`);
    try {
      rowsFormat(input);
    } catch (err) {
      throw usageError(`--input ${(err as Error).message}`);
    }
    const out = flags.out ? path.resolve(expandHome(flags.out)) : path.join(path.dirname(input), `${path.basename(input, path.extname(input))}.results.jsonl`);
    const existing = await stat(out).then(
      (s) => s.size,
      () => 0,
    );
    if (existing > 0 && !flags.resume && !flags["dry-run"]) {
      throw usageError(`${out} already holds the results of a batch: add --resume to continue it (rows already run are not sent again), or give another --out`);
    }
    // The journal is written as rows are sent: a file that cannot be is said before anything is.
    if (!flags["dry-run"]) await checkFileToWrite(out, `--out ${flags.out ?? out}`);
    const report = flags.report
      ? await checkPageFile(expandHome(flags.report), "--report", [
          [out, "the results file"],
          [input, "the input"],
        ])
      : undefined;

    const client = await this.client();
    preloadValidator();
    const where = await resolveAddress(client, address);
    const version = chosenVersion(flags);
    const versionId = version ? await resolveVersion(client, where, version) : undefined;
    const read = await readBatchScript(client, where, versionId);
    if (read.error) throw await scriptCallError(client, where, read.error, undefined, { ownImplied: !address.handle });
    const script = read.data;
    const check = (args: Record<string, unknown>, fileInputs: string[]) => schemaProblems(script.inputSchema, args, fileInputs);
    const options = { shared, filesRelativeTo: path.dirname(input), check };

    // Pre-flight: every row, before the first run.
    const preflight = await this.preflight(script, input, { ...options, keys: Boolean(flags.resume) }, flags.resume ? out : undefined);
    if (preflight.problems.length && !flags["skip-invalid"] && !flags["dry-run"]) {
      throw usageError(this.problemList(preflight, input));
    }
    if (flags["dry-run"]) {
      const summary = { total: preflight.total, wouldRun: preflight.toSend, invalid: preflight.invalid, alreadyDone: preflight.done };
      if (this.jsonEnabled()) this.printJson(summary);
      else {
        if (preflight.problems.length) writeText(process.stderr, `${this.problemList(preflight, input)}\n`);
        process.stdout.write(
          `${n(preflight.total)} row${preflight.total === 1 ? "" : "s"} checked: ${n(preflight.toSend)} run${preflight.toSend === 1 ? "" : "s"} would go out` +
            `${preflight.invalid ? `, ${n(preflight.invalid)} invalid` : ""}${preflight.done ? `, ${n(preflight.done)} already done (per ${out})` : ""}\n`,
        );
      }
      if (preflight.problems.length && !flags["skip-invalid"]) process.exitCode = ExitCode.USAGE;
      return;
    }

    // Ctrl-C: stop sending and wait for the rows in flight; a second one stops waiting.
    const stop = new AbortController();
    const hard = new AbortController();
    process.removeListener("SIGINT", onInterrupt);
    const resumeCommand = this.resumeCommand(out);
    process.on("SIGINT", () => {
      if (!stop.signal.aborted) {
        stop.abort();
        progress.clear();
        process.stderr.write(`\nStopping: no more rows are sent; waiting for the rows in flight (Ctrl-C again to stop waiting; they stay resumable)\n`);
      } else hard.abort();
    });

    const progress = this.progressLine(preflight.total);
    const run = runMany({
      client,
      script: script.address,
      contract: script,
      rows: readRows(input),
      ...options,
      concurrency: flags.concurrency,
      journal: out,
      resume: flags.resume,
      retryFailed: flags["retry-failed"],
      retryUnknown: flags["retry-unknown"],
      browser,
      headers: SOURCE,
      stop: stop.signal,
      signal: hard.signal,
      onProgress: progress.update,
      onWarning: (w) => {
        progress.clear();
        writeText(process.stderr, `Warning: ${w}\n`);
      },
    });
    for await (const _ of run) {
      // Each outcome is in the journal already; the progress line tells the rest.
    }
    progress.clear();
    if (report) await this.writeReport(out, report);
    const c = run.counts;
    if (run.error && c.completed + c.failed + c.invalid + c.unknown === 0 && c.total === 0) throw fromReduckError(run.error);
    const summary = { total: preflight.total, completed: c.completed, failed: c.failed, invalid: c.invalid, unknown: c.unknown, out };
    const stillRunning = c.leftRunning;
    const notRun = Math.max(0, preflight.total - c.completed - c.failed - c.invalid - c.unknown - stillRunning);
    if (this.jsonEnabled())
      this.printJson({ ...summary, ...(stillRunning ? { stillRunning } : {}), ...(notRun ? { notRun } : {}), ...(report ? { report } : {}) });
    else {
      process.stdout.write(
        `${n(summary.total)} rows: ${n(c.completed)} completed, ${n(c.failed)} failed` +
          `${c.invalid ? `, ${n(c.invalid)} invalid` : ""}${c.unknown ? `, ${n(c.unknown)} unknown` : ""}` +
          `${notRun ? `, ${n(notRun)} not run` : ""}${stillRunning ? `, ${n(stillRunning)} still running at the service: --resume waits for them` : ""}. Results: ${out}\n`,
      );
    }
    if (run.error) {
      const e = fromReduckError(run.error);
      writeText(process.stderr, `Error: ${e.message}\n`);
      writeText(process.stderr, `To continue: ${resumeCommand}\n`);
      process.exitCode = e.exitCode === ExitCode.USAGE ? ExitCode.FAILED : e.exitCode;
      return;
    }
    if (stop.signal.aborted) {
      writeText(process.stderr, `Interrupted. To continue where it stopped: ${resumeCommand}\n`);
      process.exitCode = ExitCode.INTERRUPTED;
      return;
    }
    if (c.failed || c.unknown) {
      process.stderr.write(
        `${c.failed ? `${n(c.failed)} failed (see their "error" in ${out}; --resume --retry-failed sends them again)` : ""}${c.failed && c.unknown ? "; " : ""}` +
          `${c.unknown ? `${n(c.unknown)} unknown (sent, but no run found: --resume --retry-unknown sends them again)` : ""}\n`,
      );
      process.exitCode = ExitCode.FAILED;
    }
  }

  /** The report, from the journal as the batch left it; a report that cannot be written costs the batch nothing. */
  private async writeReport(journal: string, file: string): Promise<void> {
    try {
      const { writeBatchReport } = await import("../run/batch-report.js");
      await writeBatchReport(journal, file);
      this.note(`Report: ${file}`);
    } catch (err) {
      process.stderr.write(`Warning: the report could not be written to ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})\n`);
    }
  }

  /** Checks every row; keeps only counts and the first problems, so memory stays flat. */
  private async preflight(script: BatchScript, input: string, options: PrepareOptions, journal: string | undefined) {
    const { readJournal, readRows, resumeRefusal, RowPreparer, RowsError } = await batchModules();
    const contents = journal ? await readJournal(journal) : undefined;
    // Other arguments for every row than the journal's would make every row new: refused here, before anything is sent.
    const refusal =
      contents && resumeRefusal(contents, { script: script.address, versionId: script.versionId, shared: options.shared ?? {} }, journal!, CLI_RESUME_WORDS);
    if (refusal) throw usageError(refusal);
    const states = contents?.states;
    const preparer = new RowPreparer(script, options);
    const result = { total: 0, invalid: 0, done: 0, toSend: 0, problems: [] as string[] };
    try {
      for await (const values of readRows(input)) {
        const check = await preparer.prepare(values);
        result.total++;
        const prior = states?.get(check.key)?.outcome?.status;
        if (prior === "completed" || (prior === "failed" && !this.flags["retry-failed"]) || (prior === "unknown" && !this.flags["retry-unknown"])) {
          result.done++;
          continue;
        }
        if (check.ok) {
          result.toSend++;
          continue;
        }
        result.invalid++;
        if (result.problems.length < SHOWN_PROBLEMS) result.problems.push(`row ${check.row}: ${check.problems.join("; ")}`);
      }
    } catch (err) {
      if (err instanceof RowsError) throw usageError(`--input ${err.message}`);
      throw err;
    }
    return result;
  }

  private problemList(preflight: { invalid: number; total: number; problems: string[] }, input: string): string {
    const more = preflight.invalid - preflight.problems.length;
    return [
      `${n(preflight.invalid)} of ${n(preflight.total)} rows of ${path.basename(input)} cannot run (nothing was sent):`,
      ...preflight.problems.map((p) => `  ${p}`),
      ...(more > 0 ? [`  ... and ${n(more)} more`] : []),
      "Fix them, or add --skip-invalid to run the others and record these as invalid.",
    ].join("\n");
  }

  /** The command line that continues this batch. */
  private resumeCommand(out: string): string {
    const args = process.argv.slice(2).filter((a) => a !== "--resume" && a !== "--json");
    if (!this.flags.out) args.push("--out", out);
    return [this.config.bin, ...args, "--resume"].map(shellWord).join(" ");
  }

  /** `412/2,000 · 3 failed · 18.2 runs/min · eta 1h27m` on the status line (shell/status-line.ts). */
  private progressLine(total: number) {
    const line = statusLine(process.stderr, !this.jsonEnabled());
    const started = Date.now();
    return {
      update: (c: BatchCounts) => {
        if (!line.enabled || !line.due(200)) return;
        const ended = c.completed + c.failed + c.invalid + c.unknown;
        const fresh = ended - c.earlier;
        const minutes = (Date.now() - started) / 60_000;
        const rate = fresh > 0 && minutes > 0 ? fresh / minutes : 0;
        const parts = [`${n(ended)}/${n(total)}`];
        if (c.failed) parts.push(`${n(c.failed)} failed`);
        if (c.pausedUntil) parts.push(`slowed by the service`);
        if (rate) parts.push(`${rate.toFixed(1)} runs/min`, `eta ${durationCompact(((total - ended) / rate) * 60_000)}`);
        line.show(parts.join(" · "));
      },
      clear: () => line.clear(),
    };
  }
}

/**
 * A batch reads every row at least once (the pre-flight) and each row's short-lived objects make
 * V8 grow its young generation, a few MiB at a time, up to 16 MiB per semi-space: resident memory
 * then grows with the number of rows although what is in use stays at 10-15 MiB. Growth factor 1
 * keeps the young generation at its starting size for this process (`node
 * --max-semi-space-size=1` has the same effect, but the CLI cannot pass node flags to itself).
 * Measured on a 100,000-row `--dry-run` (one CSV column, the other argument given once): a peak of
 * 112-118 MiB became 87-91 MiB with it and the smaller reads of rows.ts.
 */
function keepYoungGenerationSmall(): void {
  setFlagsFromString("--semi-space-growth-factor=1");
}
