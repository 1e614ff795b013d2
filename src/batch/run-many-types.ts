/** What runMany takes and gives (the function is in run-many.ts, which re-exports these). */
import type { ReduckClient } from "../core/client.js";
import type { CallSettingsOptions } from "../core/wire/call-settings.js";
import type { ReduckError } from "../core/errors.js";
import type { RunBrowser } from "../run/run.js";
import type { RowOutcome } from "./journal.js";
import type { BatchScript, PrepareOptions } from "./prepare.js";
import type { RowValues } from "./rows.js";
import type { RegisteredScript, ScriptArgs, ScriptFiles, StrictScripts } from "../run/typed.js";

/**
 * One row for the script `K`: its registered args, and `file:<input>` keys holding paths; any
 * values for a script that is not registered.
 *
 * @example
 * ```ts
 * const row: RowFor<"reduck/mail.google.com/send_email"> = { to: "me@example.com", subject: "Hi", "file:attachment": "./banner.png" };
 * ```
 */
export type RowFor<K> = [K] extends [RegisteredScript] ? ScriptArgs<K> & { [F in keyof ScriptFiles<K> as `file:${F & string}`]: string } : RowValues;

export interface BatchCounts {
  /**
   * Every row, from the first progress call when `totalKnown` (`rows` an array, or `total`
   * given); otherwise the rows read so far, growing as they are read.
   */
  total: number;
  /** `total` is the whole batch's, known before the rows were read: a percentage and an ETA mean something. */
  totalKnown: boolean;
  completed: number;
  failed: number;
  invalid: number;
  unknown: number;
  /** Rows whose requests are out. */
  inFlight: number;
  /**
   * Rows sent whose end was not waited for, because the batch was stopped at once (`signal`):
   * still running at the service, as far as anyone here knows; a resume waits for them.
   */
  leftRunning: number;
  /** Of the counts above, rows that ended in an earlier process (from the journal). */
  earlier: number;
  /** Set while the service has asked the batch to slow down. */
  pausedUntil?: number;
}

/**
 * `timeoutMs`, `maxRetries` and `onRetry` replace the client's for every request the batch makes
 * (reading the script, polls, looking up runs to adopt), as the client's would apply: a row's
 * `POST /run` still waits for its answer as long as its script takes.
 */
export interface RunManyOptions<K extends string = string> extends PrepareOptions, CallSettingsOptions {
  client: ReduckClient;
  /**
   * `[handle/]host/slug` (no handle: your own script), or its parts. A registered address
   * (ReduckScripts) types the rows written in code and the results; a strict registry
   * (ReduckScriptsConfig) takes only a registered address, as text.
   */
  script: K | (StrictScripts extends true ? never : { handle?: string; host: string; slug: string });
  /** A version id to run instead of the current version. */
  version?: string;
  /** The script already read (`readBatchScript`), to skip reading it again. */
  contract?: BatchScript;
  /** Objects of input values (`file:<input>` keys hold paths), e.g. `readRows(path)`; rows in an array are checked against a registered script's inputs. */
  // The array member comes first so that a wrong row written in code is reported as that row's mistake.
  rows: RowFor<K>[] | Iterable<RowFor<K>> | AsyncIterable<RowValues>;
  /**
   * How many rows `rows` holds, when you know before they are read (a file you counted; with
   * `shard`, the shard's rows): progress then has its total from the first call, and the journal
   * records it, so a report of a stopped batch says how many rows were never sent. An array's own
   * length (its shard's rows) is taken without it.
   */
  total?: number;
  /** Rows in flight at once (default 4). */
  concurrency?: number;
  /** Rows per `POST /run` (1-20; default: half the concurrency, so two groups overlap). */
  groupSize?: number;
  /** The journal (JSONL) to write, and to resume from. */
  journal?: string;
  /** Continue the batch `journal` records; without it, a journal that holds results is refused. */
  resume?: boolean;
  /** Send rows that failed again (a new line; the old one is kept). */
  retryFailed?: boolean;
  /** Send rows whose fate is unknown again (they may then run twice). */
  retryUnknown?: boolean;
  browser?: RunBrowser;
  headers?: Record<string, string>;
  /** How long the service holds each request before answering with a handle to poll (1-110 s; its default: 60). */
  waitForSeconds?: number;
  /** Stops sending new rows; the rows in flight are waited for. */
  stop?: AbortSignal;
  /** Stops at once: rows in flight are not waited for and stay resumable. */
  signal?: AbortSignal;
  onProgress?: (counts: BatchCounts) => void;
  /**
   * How to carry on when the batch stops early, written into the journal's `stopped` line for
   * its report (the CLI gives its `--resume` command line). Default: the words for runMany,
   * `resume: true` with the same journal.
   */
  resumeCommand?: string;
  /** Things the caller should know that are not failures (a torn journal line, a stale lock). */
  onWarning?: (message: string) => void;
}

/** What awaiting a batch gives, once every row has ended. */
export interface RunManySummary {
  /** The final counts (the same object as the batch's `counts`). */
  counts: BatchCounts;
  /** Why the batch could not start or stopped early. */
  error?: ReduckError;
}

/**
 * A batch: iterate it for the outcomes in completion order, or await it for the counts once
 * every row has ended. It runs once: a loop, or an await, or a loop then an await (which waits
 * for the loop's batch to end; a loop that stops early stops the batch). A second loop, or a
 * loop after an await, throws a TypeError. Being awaitable, it is run by anything that awaits
 * it: returned from an async function, it is awaited there (return `{ run }` to hand it on).
 */
export interface RunManyRun<R = unknown> extends AsyncIterable<RowOutcome<R>>, PromiseLike<RunManySummary> {
  /** Why the batch could not start or stopped early (after iterating). */
  readonly error?: ReduckError;
  /** The counts so far (final after iterating). */
  readonly counts: BatchCounts;
}
