/**
 * The batch journal: one JSON line per event of a row, appended and flushed to disk (fsync)
 * before the next request for that row goes out, so a crash at any moment leaves a record of
 * what may have reached the service. It is also the results file.
 *
 * Lines: `{row, key, status: "sending", at}` before a request; `{row, key, status: "accepted",
 * runId?, batchId?}` when the service says it holds the run; an outcome `{row, key, status:
 * "completed"|"failed"|"invalid"|"unknown", runId, result | error, errorType?, at}`; and `{row, key,
 * status: "unsent"}` when the service refused the request before running it (429, 503). The first
 * line of a new journal records the batch itself, `{status: "batch", script, versionId, shared}`,
 * so a resume can tell when it is given other arguments for every row than the batch ran with.
 * Each process that runs the batch then writes `{status: "started", at, rows?, shard?}` (`rows`:
 * how many rows its input holds, when that is known before sending), and `{status: "stopped",
 * at, why, resume?}` when it stops before every row has ended (Ctrl-C, a fatal error): its report
 * then tells a stopped batch from a finished one. Journals without these lines still read.
 *
 * A lock file beside it (`<journal>.lock`, holding the writer's pid) keeps a second process out.
 */
import { open, readFile, rm, stat, truncate, writeFile, type FileHandle } from "node:fs/promises";
import os from "node:os";
import { isIdOf } from "../core/id-shapes.js";

export type OutcomeStatus = "completed" | "failed" | "invalid" | "unknown";

/** One row's outcome: a journal line, and what `runMany` yields. */
export interface RowOutcome<R = unknown> {
  /** The row's number in its input (1 = the first row after a CSV header, the first JSONL object). */
  row: number;
  /** Hash of the script address, its version and the row's values: how `--resume` recognises a row. */
  key: string;
  status: OutcomeStatus;
  runId: string | null;
  /** What the script returned; typed when the script is registered in ReduckScripts. */
  result?: R;
  error?: string;
  errorType?: string;
  /** When the row ended (ISO 8601): with its `sending` line's `at`, how long it took. */
  at?: string;
}

/** The journal's first line: what every row of the batch ran with. */
export interface BatchHeader {
  status: "batch";
  /** `handle/host/slug`. */
  script: string;
  versionId: string;
  /** The arguments given for every row (`name=value`, `file:INPUT` paths), as given. */
  shared: Record<string, unknown>;
  /** The shard (`1/4`) when the batch runs one share of its input's rows; absent: every row. */
  shard?: string;
}

/** A process starting (or resuming) the batch: how many rows its input holds, when known before sending. */
export interface StartedLine {
  status: "started";
  at: string;
  rows?: number;
  shard?: string;
}

/** The batch stopped before every row ended: why, and how to carry on. */
export interface StoppedLine {
  status: "stopped";
  at: string;
  why: string;
  /** The command (or call) that carries on. */
  resume?: string;
}

export type JournalLine =
  | BatchHeader
  | StartedLine
  | StoppedLine
  | RowOutcome
  | { row: number; key: string; status: "sending"; at: string }
  | { row: number; key: string; status: "accepted"; runId?: string; batchId?: string /** The row's place in its batch. */; index?: number }
  | { row: number; key: string; status: "unsent" };

/** What the journal says about one key, from its last lines. */
export interface KeyState {
  /** The last outcome, if any (a later `sending` clears it: a row sent again is in flight again). */
  outcome?: RowOutcome;
  /** Sent and not yet ended: when the last `sending` line was written. */
  sendingAt?: string;
  runId?: string;
  batchId?: string;
  /** The row's place in `batchId`'s runs. */
  batchIndex?: number;
}

export interface JournalContents {
  states: Map<string, KeyState>;
  /** What the batch ran with, when the journal says (journals written before it was recorded do not). */
  header?: BatchHeader;
  /** Every run id the journal names, so a lookup never adopts a run that is another row's. */
  runIds: Set<string>;
  warnings: string[];
  /** Length of the whole lines: a torn last line is cut off before anything is appended. */
  goodLength: number;
}

/**
 * Reads a journal: the state of every key. A torn last line (a crash in the middle of a write)
 * is ignored with a warning, as is any other line that is not a journal line; neither is fatal.
 *
 * @example
 * const { states, warnings } = await readJournal("people.results.jsonl");
 */
export async function readJournal(file: string): Promise<JournalContents> {
  const states = new Map<string, KeyState>();
  const runIds = new Set<string>();
  const warnings: string[] = [];
  let header: BatchHeader | undefined;
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { states, runIds, warnings, goodLength: 0 };
    throw err;
  }
  const lines = text.split("\n");
  const torn = lines.pop() ?? "";
  let goodLength = Buffer.byteLength(text) - Buffer.byteLength(torn);
  if (torn.trim()) warnings.push(`${file}: ignored its last line, cut off by an interrupted write (${torn.length} characters)`);
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) continue;
    let entry: JournalLine;
    try {
      entry = JSON.parse(line);
    } catch {
      warnings.push(`${file}: ignored line ${i + 1}, which is not JSON`);
      continue;
    }
    if (entry && entry.status === "batch") {
      const line = entry as Partial<BatchHeader>;
      if (typeof line.script === "string" && typeof line.versionId === "string" && line.shared && typeof line.shared === "object") {
        header ??= entry as BatchHeader;
      } else warnings.push(`${file}: ignored line ${i + 1}, a batch line without its script, version and shared arguments`);
      continue;
    }
    // What each process did with the batch: for its report, nothing a resume needs.
    if (entry && (entry.status === "started" || entry.status === "stopped")) continue;
    if (!entry || typeof entry.key !== "string" || typeof entry.status !== "string") {
      warnings.push(`${file}: ignored line ${i + 1}, which is not a journal line`);
      continue;
    }
    // Ids become URLs when the batch is resumed: one of another shape (a hand edit, another
    // program's line) is dropped, and the row is looked for among the script's runs instead.
    for (const [field, kind] of [
      ["runId", "run id"],
      ["batchId", "batch id"],
    ] as const) {
      const value = (entry as { runId?: unknown; batchId?: unknown })[field];
      if (value === undefined || value === null || isIdOf(kind, value)) continue;
      warnings.push(`${file}: ignored the ${kind} on line ${i + 1}, ${JSON.stringify(value).slice(0, 80)}, which is not one (a UUID)`);
      (entry as { runId?: unknown; batchId?: unknown })[field] = field === "runId" && entry.status !== "accepted" ? null : undefined;
    }
    const state = states.get(entry.key) ?? {};
    states.set(entry.key, state);
    switch (entry.status) {
      case "sending":
        states.set(entry.key, { sendingAt: entry.at });
        break;
      case "accepted":
        if (entry.runId) state.runId = entry.runId;
        if (entry.batchId) state.batchId = entry.batchId;
        if (typeof entry.index === "number") state.batchIndex = entry.index;
        break;
      case "unsent":
        states.set(entry.key, {});
        break;
      case "completed":
      case "failed":
      case "invalid":
      case "unknown":
        states.set(entry.key, { outcome: entry });
        break;
      default:
        warnings.push(`${file}: ignored line ${i + 1}, whose status ${JSON.stringify((entry as { status: string }).status)} is not a journal status`);
    }
    const id = (entry as { runId?: unknown }).runId;
    if (typeof id === "string") runIds.add(id);
  }
  if (goodLength < 0) goodLength = 0;
  return { states, runIds, warnings, goodLength, ...(header ? { header } : {}) };
}

/** A second process on the same journal. */
export class JournalLockedError extends Error {
  override name = "JournalLockedError";
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The journal, open for appending and locked against a second writer. Lines are written in the
 * order given; `append` resolves once they are on disk.
 */
export class Journal {
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(
    readonly file: string,
    private readonly handle: FileHandle,
    private readonly lockFile: string,
  ) {}

  /**
   * Takes the lock (`<file>.lock`, created exclusively), cuts off a torn last line, and opens the
   * file for appending. A lock left by a process that no longer runs (killed) is taken over, and
   * the returned `warning` says so; a lock held by a live process is a `JournalLockedError`.
   *
   * @example
   * const { journal } = await Journal.open("people.results.jsonl", contents.goodLength);
   * await journal.append([{ row: 1, key, status: "sending", at: new Date().toISOString() }]);
   */
  static async open(file: string, goodLength: number): Promise<{ journal: Journal; warning?: string }> {
    const lockFile = `${file}.lock`;
    let warning: string | undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        await writeFile(lockFile, `${process.pid} ${os.hostname()}\n`, { flag: "wx" });
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) {
          if ((err as NodeJS.ErrnoException).code === "EEXIST")
            throw new JournalLockedError(`${file} is locked by another process (${lockFile}); run one batch per results file`);
          throw err;
        }
        const [pidText, host] = (await readFile(lockFile, "utf8").catch(() => "")).trim().split(" ");
        const pid = Number(pidText);
        if (Number.isInteger(pid) && pid > 0 && (host !== os.hostname() || alive(pid))) {
          throw new JournalLockedError(
            `another reduck batch (pid ${pid}${host !== os.hostname() ? ` on ${host}` : ""}) is writing ${file}: wait for it to end. If no such process runs any more, delete ${lockFile}`,
          );
        }
        warning = `${lockFile} was left by a process that no longer runs (pid ${pidText || "unknown"}): taken over`;
        await rm(lockFile, { force: true });
      }
    }
    try {
      const size = await stat(file).then(
        (s) => s.size,
        () => 0,
      );
      if (size > goodLength) await truncate(file, goodLength);
      const handle = await open(file, "a");
      return { journal: new Journal(file, handle, lockFile), warning };
    } catch (err) {
      await rm(lockFile, { force: true });
      throw err;
    }
  }

  /**
   * Appends lines and flushes them to disk (fsync) before resolving. Lines appended while a
   * flush is under way go out together in the next write and fsync (a group commit): an fsync
   * costs milliseconds on a disk, and rows end many at a time.
   */
  append(lines: JournalLine[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`${this.file} is closed`));
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ text: lines.map((l) => `${JSON.stringify(l)}\n`).join(""), resolve, reject });
      if (!this.flushing) this.queue = this.flush();
    });
  }

  private waiting: Array<{ text: string; resolve: () => void; reject: (err: unknown) => void }> = [];
  private flushing = false;

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.waiting.length) {
        const batch = this.waiting.splice(0);
        try {
          await this.handle.write(batch.map((w) => w.text).join(""));
          await this.handle.sync();
          for (const w of batch) w.resolve();
        } catch (err) {
          // A failed write fails its own callers; later writes still try.
          for (const w of batch) w.reject(err);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /** Waits for pending writes, closes the file and removes the lock. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue;
    await this.handle.close().catch(() => undefined);
    await rm(this.lockFile, { force: true });
  }
}
