/**
 * What `reduck batch` says when it ends, and its exit code: the counts (stdout, or one JSON
 * document), then on stderr what went wrong and the command that resumes the batch. Exit 0 when
 * every row completed (rows skipped with --skip-invalid aside), 1 when any failed or is unknown,
 * 2 for rows that cannot run (nothing sent), 130 when interrupted.
 */
import type { BatchCounts } from "../../batch/run-many.js";
import type { ReduckError } from "../../core/errors.js";
import { fromReduckError } from "../shell/errors.js";
import { ExitCode } from "../shell/exit-codes.js";
import { terminalText } from "../shell/terminal-text.js";
import { count } from "../../core/words/count.js";
import { problemList, type Preflight } from "./preflight.js";

/** A --dry-run's check of every row. */
export interface BatchChecked {
  dryRun: true;
  found: Preflight;
  input: string;
  out: string;
  skipInvalid: boolean;
}

/** A batch that ran, to its end or until stopped. */
export interface BatchEnded {
  dryRun: false;
  /** The rows the pre-flight counted. */
  total: number;
  counts: BatchCounts;
  out: string;
  report?: string;
  /** What stopped the batch, when something did. */
  error?: ReduckError;
  /** Ctrl-C stopped the sending. */
  stopped: boolean;
  /** The command line that continues the batch. */
  resumeCommand: string;
}

/** What to print, in order: `json` (with --json) or `before` on stderr and `summary` on stdout; then `after` on stderr; and the exit code. */
export interface BatchWords {
  json: Record<string, unknown>;
  before?: string;
  summary: string;
  after: string[];
  exitCode?: number;
}

/**
 * @example
 * batchWords({ dryRun: true, found, input: "people.csv", out: "people.results.jsonl", skipInvalid: false }).summary;
 * // "3 rows checked: 3 runs would go out\n"
 */
export function batchWords(done: BatchChecked | BatchEnded): BatchWords {
  return done.dryRun ? checkedWords(done) : endedWords(done);
}

function checkedWords({ found, input, out, skipInvalid }: BatchChecked): BatchWords {
  return {
    json: { total: found.total, wouldRun: found.toSend, invalid: found.invalid, alreadyDone: found.done },
    ...(found.problems.length ? { before: terminalText(`${problemList(found, input)}\n`) } : {}),
    summary:
      `${count(found.total)} row${found.total === 1 ? "" : "s"} checked: ${count(found.toSend)} run${found.toSend === 1 ? "" : "s"} would go out` +
      `${found.invalid ? `, ${count(found.invalid)} invalid` : ""}${found.done ? `, ${count(found.done)} already done (per ${out})` : ""}\n`,
    after: [],
    ...(found.problems.length && !skipInvalid ? { exitCode: ExitCode.USAGE } : {}),
  };
}

function endedWords(ended: BatchEnded): BatchWords {
  const { counts: c, out, report } = ended;
  const stillRunning = c.leftRunning;
  const notRun = Math.max(0, ended.total - c.completed - c.failed - c.invalid - c.unknown - stillRunning);
  const words: BatchWords = {
    json: {
      total: ended.total,
      completed: c.completed,
      failed: c.failed,
      invalid: c.invalid,
      unknown: c.unknown,
      out,
      ...(stillRunning ? { stillRunning } : {}),
      ...(notRun ? { notRun } : {}),
      ...(report ? { report } : {}),
    },
    summary:
      `${count(ended.total)} rows: ${count(c.completed)} completed, ${count(c.failed)} failed` +
      `${c.invalid ? `, ${count(c.invalid)} invalid` : ""}${c.unknown ? `, ${count(c.unknown)} unknown` : ""}` +
      `${notRun ? `, ${count(notRun)} not run` : ""}${stillRunning ? `, ${count(stillRunning)} still running at the service: --resume waits for them` : ""}. Results: ${out}\n`,
    after: [],
  };
  if (ended.error) {
    const e = fromReduckError(ended.error);
    words.after.push(terminalText(`Error: ${e.message}\n`), terminalText(`To continue: ${ended.resumeCommand}\n`));
    // Rows were checked before any was sent: what stopped the batch is not the user's input.
    words.exitCode = e.exitCode === ExitCode.USAGE ? ExitCode.FAILED : e.exitCode;
  } else if (ended.stopped) {
    words.after.push(terminalText(`Interrupted. To continue where it stopped: ${ended.resumeCommand}\n`));
    words.exitCode = ExitCode.INTERRUPTED;
  } else if (c.failed || c.unknown) {
    words.after.push(
      `${c.failed ? `${count(c.failed)} failed (see their "error" in ${out}; --resume --retry-failed sends them again)` : ""}${c.failed && c.unknown ? "; " : ""}` +
        `${c.unknown ? `${count(c.unknown)} unknown (sent, but no run found: --resume --retry-unknown sends them again)` : ""}\n`,
    );
    words.exitCode = ExitCode.FAILED;
  }
  return words;
}

/** A word of a shell command, quoted only when it must be. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command line that continues this batch: this one with --resume (and --out, when the
 * default was used), without --json, and without an --api-key (the command is printed, and
 * written into the results file for the report: the key is never; a resume finds the key where
 * this run did, or is given it again).
 *
 * @example
 * resumeCommand("reduck", ["batch", "--script", "a.com/x", "--input", "p.csv"], "/home/ada/p.results.jsonl", false);
 * // "reduck batch --script a.com/x --input p.csv --out /home/ada/p.results.jsonl --resume"
 */
export function resumeCommand(bin: string, argv: readonly string[], out: string, outGiven: boolean): string {
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--api-key") i++;
    else if (a !== "--resume" && a !== "--json" && !a.startsWith("--api-key=")) args.push(a);
  }
  if (!outGiven) args.push("--out", out);
  return [bin, ...args, "--resume"].map(shellWord).join(" ");
}
