/**
 * `reduck batch`'s check of every row before the first run: counts and the first problems only,
 * so memory stays flat over any number of rows; with --resume, the rows the results file already
 * holds, and a refusal when the batch's script, version or shared arguments are not its own.
 */
import path from "node:path";
import type { BatchScript, PrepareOptions } from "../../batch/prepare.js";
import type { ResumeWords } from "../../batch/resume.js";
import { usageError } from "../shell/errors.js";
import { count } from "../../core/words/count.js";
import { batchModules } from "./modules.js";

/** Pre-flight lists this many problems, then a count. */
const SHOWN_PROBLEMS = 20;

/** A refused resume names the command's flags (the library's own words name runMany's options). */
const CLI_RESUME_WORDS: ResumeWords = {
  version: (id) => `--version ${id}`,
  newJournal: "--out NEW.results.jsonl, without --resume",
};

export interface Preflight {
  total: number;
  invalid: number;
  /** Rows the results file holds as done (completed; failed or unknown unless sent again). */
  done: number;
  toSend: number;
  /** The first problems, `row N: ...`. */
  problems: string[];
}

/**
 * Checks every row of `input`; `journal` (with --resume) is the results file to continue.
 *
 * @example
 * const found = await preflight(script, "people.csv", options, undefined, {});
 */
export async function preflight(
  script: BatchScript,
  input: string,
  options: PrepareOptions,
  journal: string | undefined,
  retry: { retryFailed?: boolean; retryUnknown?: boolean },
): Promise<Preflight> {
  const { readJournal, readRows, resumeRefusal, RowPreparer, RowsError, shardName } = await batchModules();
  const contents = journal ? await readJournal(journal) : undefined;
  // Other arguments for every row (or another shard) than the journal's: refused here, before anything is sent.
  const identity = {
    script: script.address,
    versionId: script.versionId,
    shared: options.shared ?? {},
    ...(options.shard ? { shard: shardName(options.shard) } : {}),
  };
  const refusal = contents && resumeRefusal(contents, identity, journal!, CLI_RESUME_WORDS);
  if (refusal) throw usageError(refusal);
  const states = contents?.states;
  const preparer = new RowPreparer(script, options);
  const result: Preflight = { total: 0, invalid: 0, done: 0, toSend: 0, problems: [] };
  try {
    for await (const values of readRows(input)) {
      const check = await preparer.prepare(values);
      // Another shard's row: that machine checks it.
      if (!check) continue;
      result.total++;
      const prior = states?.get(check.key)?.outcome?.status;
      if (prior === "completed" || (prior === "failed" && !retry.retryFailed) || (prior === "unknown" && !retry.retryUnknown)) {
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

/** The rows that cannot run, as the error (or, with --dry-run, the note) that lists them. */
export function problemList(found: Preflight, input: string): string {
  const more = found.invalid - found.problems.length;
  return [
    `${count(found.invalid)} of ${count(found.total)} rows of ${path.basename(input)} cannot run (nothing was sent):`,
    ...found.problems.map((p) => `  ${p}`),
    ...(more > 0 ? [`  ... and ${count(more)} more`] : []),
    "Fix them, or add --skip-invalid to run the others and record these as invalid.",
  ].join("\n");
}
