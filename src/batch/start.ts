/**
 * A batch's start: its options checked, its script read (unless given), its journal read and
 * opened. Whatever stops it before the first row is an error to report, never a throw.
 */
import { isClient } from "../core/call.js";
import { settingsProblem } from "../core/wire/call-settings.js";
import type { ReduckError, ReduckErrorCode } from "../core/errors.js";
import { Journal, JournalLockedError, readJournal, type JournalContents } from "./journal.js";
import { readBatchScript, type BatchScript } from "./prepare.js";
import { LIBRARY_WORDS, resumeRefusal, type BatchIdentity } from "./resume.js";
import type { RunManyOptions } from "./run-many-types.js";
import { MAX_GROUP } from "./send.js";
import { shardName, shardProblem } from "./shard.js";

/** What a batch starts with, or why it cannot start. */
export type BatchStart =
  | { concurrency: number; groupSize: number; script: BatchScript; contents: JournalContents; journal: Journal | undefined }
  | { error: ReduckError };

const failed = (error: string, code: ReduckErrorCode = "invalid_options"): BatchStart => ({ error: { kind: "invalid_request", code, error } });

/** `rows`: how many rows the input holds, when known before sending (the journal records it). */
export async function startBatch(options: RunManyOptions, warn: (message: string) => void, rows?: number): Promise<BatchStart> {
  const problem = optionsProblem(options);
  if (problem) return failed(problem);
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1) return failed("concurrency must be a whole number of at least 1");
  const groupSize = options.groupSize ?? Math.max(1, Math.min(MAX_GROUP, Math.floor(concurrency / 2)));
  if (!Number.isInteger(groupSize) || groupSize < 1 || groupSize > MAX_GROUP)
    return failed(`groupSize must be from 1 to ${MAX_GROUP} (the service's cap per request)`);

  let script = options.contract;
  if (!script) {
    const read = await readBatchScript(options.client, options.script, options.version);
    if (read.error) return { error: read.error };
    script = read.data;
  }

  let contents: JournalContents = { states: new Map(), runIds: new Set(), warnings: [], goodLength: 0 };
  let journal: Journal | undefined;
  if (options.journal) {
    try {
      contents = await readJournal(options.journal);
    } catch (err) {
      return failed(`cannot read ${options.journal} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, "journal_unusable");
    }
    if (contents.states.size && !options.resume) {
      return failed(
        `${options.journal} already holds the results of a batch: continue it with \`resume: true\` (rows already run are not sent again), or give another \`journal\``,
        "journal_needs_resume",
      );
    }
    const shard = options.shard ? shardName(options.shard) : undefined;
    const identity: BatchIdentity = { script: script.address, versionId: script.versionId, shared: options.shared ?? {}, ...(shard ? { shard } : {}) };
    const refusal = resumeRefusal(contents, identity, options.journal, LIBRARY_WORDS);
    if (refusal) return failed(refusal, "journal_mismatch");
    contents.warnings.forEach(warn);
    try {
      const opened = await Journal.open(options.journal, contents.goodLength);
      journal = opened.journal;
      if (opened.warning) warn(opened.warning);
      // A new journal starts with what every row runs with, for a later resume to compare.
      if (!contents.header && !contents.states.size) await journal.append([{ status: "batch", ...identity }]);
      // Each process's start, with the rows it is to run: a report can then say how many were never sent.
      await journal.append([{ status: "started", at: new Date().toISOString(), ...(rows !== undefined ? { rows } : {}), ...(shard ? { shard } : {}) }]);
    } catch (err) {
      await journal?.close();
      return failed((err as Error).message, err instanceof JournalLockedError ? "journal_locked" : "journal_unusable");
    }
  }
  return { concurrency, groupSize, script, contents, journal };
}

/** What is wrong with options a JavaScript caller passed, in words that say how to fix it. */
function optionsProblem(options: unknown): string | undefined {
  const o = options as Partial<RunManyOptions> | undefined;
  if (!o || typeof o !== "object") return "runMany takes an options object: runMany({ client, script, rows })";
  if (!isClient(o.client)) return "pass the client from createReduckClient() as `client`";
  if (typeof o.script !== "string" && !(o.script && typeof o.script === "object" && typeof o.script.host === "string" && typeof o.script.slug === "string")) {
    return 'script must be an address such as "reduck/mail.google.com/send_email", or { handle?, host, slug }';
  }
  const rows = o.rows as unknown as Record<symbol, unknown> | undefined;
  if (!rows || typeof rows !== "object" || (typeof rows[Symbol.iterator] !== "function" && typeof rows[Symbol.asyncIterator] !== "function")) {
    return "rows must be an iterable or async iterable of objects, e.g. an array or readRows(path)";
  }
  for (const name of ["onProgress", "onWarning", "check"] as const)
    if (o[name] !== undefined && typeof o[name] !== "function") return `${name} must be a function`;
  for (const name of ["signal", "stop"] as const) if (o[name] !== undefined && !(o[name] instanceof AbortSignal)) return `${name} must be an AbortSignal`;
  if (o.journal !== undefined && (typeof o.journal !== "string" || !o.journal)) return "journal must be a file path";
  if (o.shard !== undefined) {
    const problem = shardProblem(o.shard);
    if (problem) return `shard: ${problem}`;
  }
  if (o.resumeCommand !== undefined && typeof o.resumeCommand !== "string") return "resumeCommand must be text";
  if (o.total !== undefined && (typeof o.total !== "number" || !Number.isInteger(o.total) || o.total < 0))
    return "total must be a whole number of rows, 0 or more (how many rows `rows` holds)";
  return settingsProblem(o, "runMany")?.message;
}
