/**
 * `reduck batch` from its command line to how it ended: every local check before the network
 * (the input, the results file, the report's file), the script's contract, the pre-flight of every
 * row (preflight.ts), then the rows sent with a progress line, Ctrl-C stopping the sending and a
 * second one the waiting, and the report written when the batch ends or is stopped.
 */
import { stat } from "node:fs/promises";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import { browserOf } from "../run/browser-flag.js";
import { checkPageFile } from "../run/pages.js";
import { expandHome, sharedArguments, type CommandLine } from "../run/run-args.js";
import { schemaProblems } from "../run/validate-args.js";
import { resolveAddress, withBareSlugHint } from "../scripts/own-handle.js";
import { scriptCallError } from "../scripts/script-lookup.js";
import { chosenVersion, resolveVersion } from "../scripts/versions.js";
import { parseAddress } from "../shell/address.js";
import { fromReduckError, usageError } from "../shell/errors.js";
import { onInterrupt } from "../shell/interrupt.js";
import { writeText } from "../shell/terminal-text.js";
import { checkFileToWrite } from "../shell/write-check.js";
import { batchModules } from "./modules.js";
import { preflight, problemList } from "./preflight.js";
import { batchProgressLine } from "./progress.js";
import { resumeCommand, type BatchChecked, type BatchEnded } from "./words.js";

/** Recorded as the runs' source. */
const SOURCE = { "X-Reduck-Source": "cli" };

/** The flags of `reduck batch` this module reads. */
export interface BatchFlags {
  script: string;
  input: string;
  out?: string;
  concurrency: number;
  resume?: boolean;
  "retry-failed"?: boolean;
  "retry-unknown"?: boolean;
  "skip-invalid"?: boolean;
  "dry-run"?: boolean;
  report?: string;
  browser?: string;
  device?: string;
  version?: string;
  "version-id"?: string;
  shard?: string;
}

/** What `reduck batch` was given, and how it reaches the service and the user. */
export interface BatchCommandLine extends CommandLine<BatchFlags> {
  json: boolean;
  /** The CLI's name, for the command that resumes the batch. */
  bin: string;
}

/**
 * Checks, then (unless --dry-run) runs the batch; what to print about it is words.ts's.
 *
 * @example
 * const done = await runBatch({ argv: this.argv, flagDefinitions: this.flagDefinitions(), flags: this.flags, client: () => this.client(), note, json, bin });
 */
export async function runBatch(line: BatchCommandLine): Promise<BatchChecked | BatchEnded> {
  keepYoungGenerationSmall();
  const { parseShard, readBatchScript, readRows, rowsFormat, runMany } = await batchModules();
  const { flags } = line;
  const browser = browserOf(flags.browser, flags.device);
  if ((flags["retry-failed"] || flags["retry-unknown"]) && !flags.resume)
    throw usageError("--retry-failed and --retry-unknown act on an earlier batch: add --resume");
  const address = await Promise.resolve()
    .then(() => parseAddress(flags.script))
    .catch(async (err: unknown) => {
      throw await withBareSlugHint(err, line.client);
    });
  const shared = sharedArguments(line.argv, line.flagDefinitions);
  const input = path.resolve(expandHome(flags.input));
  const info = await stat(input).catch(() => undefined);
  if (!info) throw usageError(`--input ${flags.input}: no such file`);
  if (!info.isFile()) throw usageError(`--input ${flags.input}: not a file`);
  try {
    rowsFormat(input);
  } catch (err) {
    throw usageError(`--input ${(err as Error).message}`);
  }
  const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  if (typeof shard === "string") throw usageError(`--shard ${flags.shard}: ${shard}`);
  // Two shards in one folder write two results files: `people.shard-1-of-4.results.jsonl`.
  const name = `${path.basename(input, path.extname(input))}${shard ? `.shard-${shard.index}-of-${shard.count}` : ""}.results.jsonl`;
  const out = flags.out ? path.resolve(expandHome(flags.out)) : path.join(path.dirname(input), name);
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

  const client = await line.client();
  const where = await resolveAddress(client, address);
  const version = chosenVersion(flags);
  const versionId = version ? await resolveVersion(client, where, version) : undefined;
  const read = await readBatchScript(client, where, versionId);
  if (read.error) throw await scriptCallError(client, where, read.error, undefined, { ownImplied: !address.handle });
  const script = read.data;
  const check = (args: Record<string, unknown>, fileInputs: string[]) => schemaProblems(script.inputSchema, args, fileInputs);
  const options = { shared, filesRelativeTo: path.dirname(input), check, ...(shard ? { shard } : {}) };

  // Pre-flight: every row, before the first run.
  const retry = { retryFailed: flags["retry-failed"], retryUnknown: flags["retry-unknown"] };
  const found = await preflight(script, input, { ...options, keys: Boolean(flags.resume) }, flags.resume ? out : undefined, retry);
  if (found.problems.length && !flags["skip-invalid"] && !flags["dry-run"]) throw usageError(problemList(found, input));
  if (flags["dry-run"]) return { dryRun: true, found, input, out, skipInvalid: Boolean(flags["skip-invalid"]) };

  const progress = batchProgressLine(found.total, !line.json);
  const { stop, hard } = stopOnInterrupt(() => progress.clear());
  const resume = resumeCommand(line.bin, process.argv.slice(2), out, Boolean(flags.out));
  // Whether any row was read: a batch that could not start (its journal locked...) is an error of its own.
  let began = false;
  const run = runMany({
    client,
    script: script.address,
    contract: script,
    rows: readRows(input),
    // Counted by the pre-flight: the journal records it, and a stopped batch's report says how many were never sent.
    total: found.total,
    ...options,
    resumeCommand: resume,
    concurrency: flags.concurrency,
    journal: out,
    resume: flags.resume,
    ...retry,
    browser,
    headers: SOURCE,
    stop,
    signal: hard,
    onProgress: (counts) => {
      began = true;
      progress.update(counts);
    },
    onWarning: (w) => {
      progress.clear();
      writeText(process.stderr, `Warning: ${w}\n`);
    },
  });
  for await (const _ of run) {
    // Each outcome is in the journal already; the progress line tells the rest.
  }
  progress.clear();
  if (report) await writeReport(out, report, line.note);
  const c = run.counts;
  if (run.error && !began) throw fromReduckError(run.error);
  return {
    dryRun: false,
    total: found.total,
    counts: c,
    out,
    ...(report ? { report } : {}),
    ...(run.error ? { error: run.error } : {}),
    stopped: stop.aborted,
    resumeCommand: resume,
  };
}

/**
 * Ctrl-C stops sending and waits for the rows in flight (`stop`); a second one stops waiting
 * (`hard`): the rows in flight stay resumable. Replaces the CLI's one-shot handler (shell/interrupt.ts).
 */
function stopOnInterrupt(beforeSaying: () => void): { stop: AbortSignal; hard: AbortSignal } {
  const stop = new AbortController();
  const hard = new AbortController();
  process.removeListener("SIGINT", onInterrupt);
  process.on("SIGINT", () => {
    if (!stop.signal.aborted) {
      // The reason is the journal's `stopped` line, and the report's words.
      stop.abort("interrupted (Ctrl-C): no more rows were sent");
      beforeSaying();
      process.stderr.write(`\nStopping: no more rows are sent; waiting for the rows in flight (Ctrl-C again to stop waiting; they stay resumable)\n`);
    } else hard.abort("interrupted twice (Ctrl-C): the rows in flight were not waited for");
  });
  return { stop: stop.signal, hard: hard.signal };
}

/** The report, from the journal as the batch left it; a report that cannot be written costs the batch nothing. */
async function writeReport(journal: string, file: string, note: (message: string) => void): Promise<void> {
  try {
    const { writeBatchReport } = await import("./report.js");
    await writeBatchReport(journal, file);
    note(`Report: ${file}`);
  } catch (err) {
    process.stderr.write(`Warning: the report could not be written to ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})\n`);
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
