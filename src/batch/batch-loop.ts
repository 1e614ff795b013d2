/**
 * What one batch's row loop holds while it runs (row-loop.ts): its options, counts and stop
 * signals, the journal, the rows between steps, and the outcomes not yet handed out. The jobs
 * that send, wait on and adopt rows (send-rows.ts, existing-runs.ts) and the scheduler
 * (row-scheduler.ts) share it; it journals each step and hands out each outcome.
 */
import type { ReduckError, ReduckErrorCode } from "../core/errors.js";
import type { Journal, JournalContents, JournalLine, RowOutcome } from "./journal.js";
import { RowPreparer, type BatchScript, type PreparedRow } from "./prepare.js";
import { RunAdopter } from "./resume.js";
import { RowSource } from "./row-source.js";
import type { BatchCounts, RunManyOptions } from "./run-many-types.js";
import { SlowDown } from "./slow-down.js";
import { WakeUp } from "./wake-up.js";

/** The stops of a batch: `stopNow` ends it at once (`hard`); `soft` sends no more rows and waits for those in flight. */
export interface BatchSignals {
  stopNow: AbortController;
  hard: AbortSignal;
  soft: AbortSignal;
}

/** What startBatch found: how to send, what to send, and what an earlier run left. */
export interface BatchSetup {
  concurrency: number;
  groupSize: number;
  script: BatchScript;
  contents: JournalContents;
  journal: Journal | undefined;
}

export class BatchLoop {
  readonly stopNow: AbortController;
  readonly hard: AbortSignal;
  readonly soft: AbortSignal;
  readonly concurrency: number;
  readonly groupSize: number;
  readonly script: BatchScript;
  readonly contents: JournalContents;
  readonly journal: Journal | undefined;
  readonly preparer: RowPreparer;
  readonly source: RowSource;
  readonly adopter: RunAdopter;
  /** Rows to send before any new one: refused for now (429, 503), or to send again (unknown, with retryUnknown). */
  readonly again: PreparedRow[] = [];
  /** Outcomes journaled and not yet handed out. */
  readonly pending: RowOutcome[] = [];
  /** The jobs in flight: sends, waits and lookups. */
  readonly running = new Set<Promise<void>>();
  readonly wake = new WakeUp();
  readonly pace: SlowDown;

  constructor(
    readonly options: RunManyOptions,
    readonly counts: BatchCounts,
    readonly state: { error?: ReduckError },
    signals: BatchSignals,
    setup: BatchSetup,
  ) {
    ({ stopNow: this.stopNow, hard: this.hard, soft: this.soft } = signals);
    ({ concurrency: this.concurrency, groupSize: this.groupSize, script: this.script, contents: this.contents, journal: this.journal } = setup);
    this.preparer = new RowPreparer(this.script, options);
    this.source = new RowSource(options.rows);
    this.adopter = new RunAdopter(options.client, this.script.scriptId, this.contents, this.hard);
    this.pace = new SlowDown(this.concurrency);
  }

  warn(message: string): void {
    this.options.onWarning?.(message);
  }

  /** Records why the batch stopped early (the first reason stays). */
  fail(error: string, code: ReduckErrorCode): void {
    this.state.error ??= { kind: "invalid_request", code, error };
  }

  progress(): void {
    const pausedUntil = this.pace.pausedUntil();
    this.options.onProgress?.({ ...this.counts, ...(pausedUntil !== undefined ? { pausedUntil } : {}) });
  }

  async write(lines: JournalLine[]): Promise<void> {
    if (!this.journal || !lines.length) return;
    try {
      await this.journal.append(lines);
    } catch (err) {
      // Without the journal a row could run twice: nothing more is sent.
      this.fail(`cannot write ${this.options.journal} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): stopped sending`, "journal_unusable");
      this.stopNow.abort();
      throw err;
    }
  }

  /** Journals outcomes (a group's in one write and one fsync), then hands them out. */
  async emit(...ended: RowOutcome[]): Promise<void> {
    const at = new Date().toISOString();
    const outcomes = ended.map((outcome) => ({ ...outcome, at }));
    await this.write(outcomes).catch(() => undefined);
    for (const outcome of outcomes) {
      this.counts[outcome.status]++;
      // A run that is a row's own is never adopted by another row's lookup.
      if (outcome.runId) this.adopter.claim(outcome.runId);
    }
    this.pending.push(...outcomes);
    this.progress();
    this.wake.notify();
  }

  /** Counts a job's rows in flight until it ends, whatever its end. */
  track(job: Promise<void>, rows: number): void {
    this.counts.inFlight += rows;
    this.progress();
    const p = job
      .catch(() => undefined)
      .finally(() => {
        this.counts.inFlight -= rows;
        this.running.delete(p);
        this.progress();
        this.wake.notify();
      });
    this.running.add(p);
  }
}
