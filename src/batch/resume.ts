/**
 * What a resumed batch does with a row the journal already knows, and how it finds the run of a
 * row that was being sent when the process died (its request may or may not have arrived).
 * Kept apart from the row loop's scheduling (row-scheduler.ts): these are the decisions that
 * make "every row runs once" hold across a crash.
 */
import type { ReduckClient } from "../core/client.js";
import type { BatchHeader, JournalContents, KeyState } from "./journal.js";
import { canonical } from "../core/json.js";
import { CLOCK_SLACK_MS, runsSince, type FoundRun } from "../run/find-run.js";

/** A row's plan: send it, count its earlier outcome, report it invalid, wait on its run, or look for it. */
export type RowPlan =
  | { kind: "send" }
  | { kind: "earlier"; status: "completed" | "failed" | "unknown" }
  | { kind: "invalid" }
  | { kind: "wait"; target: string | { batchId: string; index: number } }
  | { kind: "adopt"; sendingAt: number };

/**
 * The plan for a row, from what the journal says of its key (`earlier`) and whether the row is
 * valid now. Waiting never sends anything, so a run with an id is always waited on rather than
 * sent again; an earlier outcome stands unless the caller asked to retry that kind.
 *
 * @example
 * planRow(undefined, true, {}); // { kind: "send" }
 */
export function planRow(earlier: KeyState | undefined, valid: boolean, retry: { retryFailed?: boolean; retryUnknown?: boolean }): RowPlan {
  const prior = earlier?.outcome;
  // A run whose end could not be read is waited for again.
  if (prior?.status === "unknown" && prior.runId && valid) return { kind: "wait", target: prior.runId };
  if (prior && (prior.status === "completed" || (prior.status === "failed" && !retry.retryFailed) || (prior.status === "unknown" && !retry.retryUnknown))) {
    return { kind: "earlier", status: prior.status };
  }
  if (!valid) return { kind: "invalid" };
  if (earlier && !prior && earlier.runId) return { kind: "wait", target: earlier.runId };
  if (earlier && !prior && earlier.batchId && earlier.batchIndex !== undefined)
    return { kind: "wait", target: { batchId: earlier.batchId, index: earlier.batchIndex } };
  if (earlier && !prior && earlier.sendingAt) return { kind: "adopt", sendingAt: Date.parse(earlier.sendingAt) };
  return { kind: "send" };
}

/** What a batch runs with: its journal's first line, less the status. */
export type BatchIdentity = Omit<BatchHeader, "status">;

/** A value as the user wrote it: text as it is, anything else as JSON. */
const shown = (value: unknown) => JSON.stringify(value);

/**
 * How a refusal names the ways on: the library's options, or the CLI's flags (each caller words
 * its own).
 */
export interface ResumeWords {
  /** How to run one version of the script (given its id). */
  version: (versionId: string) => string;
  /** How to start a new journal on purpose. */
  newJournal: string;
}

/** The library's words: runMany's options. */
export const LIBRARY_WORDS: ResumeWords = {
  version: (id) => `\`version: "${id}"\``,
  newJournal: "another `journal`, without `resume`",
};

/**
 * What differs between the batch a journal records and the one about to resume it, one phrase
 * each (`body was "hello", now "changed"`): a row's key covers the script, its version and the
 * arguments given for every row, so with any of them changed no row would be recognised and
 * every row would run again. Empty when nothing differs.
 *
 * @example
 * batchChanges({ status: "batch", script: "a/b.c/d", versionId: "v1", shared: { body: "hello" } }, { script: "a/b.c/d", versionId: "v1", shared: { body: "changed" } });
 * // ['body was "hello", now "changed"']
 */
export function batchChanges(recorded: BatchHeader, now: BatchIdentity, words: ResumeWords = LIBRARY_WORDS): string[] {
  const changes: string[] = [];
  if (recorded.script !== now.script) changes.push(`the script was ${recorded.script}, now ${now.script}`);
  else if (recorded.versionId !== now.versionId)
    changes.push(`the script's version was ${recorded.versionId}, now ${now.versionId} (${words.version(recorded.versionId)} runs the one it ran)`);
  // Another share of the rows would send rows another shard's journal holds.
  if ((recorded.shard ?? "") !== (now.shard ?? ""))
    changes.push(`it ran ${recorded.shard ? `shard ${recorded.shard}` : "every row"}, now ${now.shard ? `shard ${now.shard}` : "every row"}`);
  const names = [...new Set([...Object.keys(recorded.shared), ...Object.keys(now.shared)])];
  for (const name of names) {
    const [was, is] = [recorded.shared[name], now.shared[name]];
    if (canonical(was) === canonical(is)) continue;
    if (was === undefined) changes.push(`${name} was not given, now ${shown(is)}`);
    else if (is === undefined) changes.push(`${name} was ${shown(was)}, now not given`);
    else changes.push(`${name} was ${shown(was)}, now ${shown(is)}`);
  }
  return changes;
}

/**
 * The refusal of a resume with other arguments for every row, or undefined when it may go on.
 * It names each change and the two ways on: the batch's own arguments, or a new journal.
 *
 * @example
 * const refusal = resumeRefusal(contents, { script, versionId, shared }, "people.results.jsonl", LIBRARY_WORDS);
 * if (refusal) throw new Error(refusal);
 */
export function resumeRefusal(contents: JournalContents, now: BatchIdentity, journal: string, words: ResumeWords): string | undefined {
  if (!contents.header) return undefined;
  const changes = batchChanges(contents.header, now, words);
  if (!changes.length) return undefined;
  return (
    `${journal} records a batch run with other arguments for every row (${changes.join("; ")}): resuming would run every row again, so nothing was sent. ` +
    `To carry on, give the arguments it ran with; to run the rows with the new ones, start a new results file on purpose (${words.newJournal})`
  );
}

/**
 * Finds the run a row's request started, among the script's runs at the service: one with the
 * same arguments that started after the row's `sending` line and is no other row's. The runs of
 * rows the journal left `sending` are listed once; a row just sent with no answer is looked for
 * afresh.
 */
export class RunAdopter {
  private readonly claimed: Set<string>;
  private found?: Promise<FoundRun[] | undefined>;

  constructor(
    private readonly client: ReduckClient,
    private readonly scriptId: string,
    private readonly contents: JournalContents,
    private readonly signal: AbortSignal,
  ) {
    this.claimed = new Set(contents.runIds);
  }

  /** Marks a run as a row's own, so no other row's lookup adopts it. */
  claim(runId: string): void {
    this.claimed.add(runId);
  }

  /** The run id, undefined when there is none, "unreadable" when the runs could not be listed. */
  async lookup(args: unknown, sendingAt: number, fresh: boolean): Promise<string | undefined | "unreadable"> {
    const runs = fresh ? await runsSince(this.client, this.scriptId, sendingAt - CLOCK_SLACK_MS, this.signal) : await this.leftSending();
    if (!runs) return "unreadable";
    const want = canonical(args);
    // Oldest first: the earliest matching run is the one this row's request started.
    const match = [...runs].reverse().find((r) => r.startedAt >= sendingAt - CLOCK_SLACK_MS && !this.claimed.has(r.id) && canonical(r.args) === want);
    if (match) this.claimed.add(match.id);
    return match?.id;
  }

  /** The script's runs since the earliest row the journal left `sending`, listed once. */
  private leftSending(): Promise<FoundRun[] | undefined> {
    this.found ??= (() => {
      let earliest = Infinity;
      for (const s of this.contents.states.values()) if (s.sendingAt && !s.outcome && !s.runId) earliest = Math.min(earliest, Date.parse(s.sendingAt));
      return runsSince(this.client, this.scriptId, (Number.isFinite(earliest) ? earliest : Date.now()) - CLOCK_SLACK_MS, this.signal);
    })();
    return this.found;
  }
}
