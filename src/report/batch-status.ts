/**
 * Whether a batch finished, was stopped, or is not finished yet, from its results files as a
 * BatchTally read them: what the report page and `reduck batch report --json` say first. A
 * batch's own lines say so (`started` with the rows its input holds, `stopped` with why and how
 * to carry on); a journal written before those lines tells only which rows are still in flight.
 */
import { count } from "../core/words/count.js";
import type { BatchTally } from "./batch-tally.js";

export interface BatchStatus {
  /** `stopped`: a process stopped it before every row ended; `unfinished`: rows are in flight or not yet sent, and no stop was recorded. */
  state: "finished" | "stopped" | "unfinished";
  /** Rows the input holds (every shard's, for several files), when every file records it. */
  inputRows?: number;
  /** Rows that ended (completed, failed, invalid or unknown). */
  ended: number;
  /** Rows sent and not ended: running at the service, or their answer not yet read. */
  inFlight: number;
  /** Rows never sent: not in the results file, or refused for now (429, 503). Known only with `inputRows`. */
  neverSent?: number;
  /** Each stop, with the command (or call) that carries on. */
  stops: Array<{ source?: string; at?: string; why: string; resume?: string }>;
  /** One line: `stopped after 4 of 40 rows, 36 never sent`. */
  summary: string;
}

const rows = (x: number) => `${count(x)} row${x === 1 ? "" : "s"}`;

/**
 * @example
 * batchStatus(tally).summary; // "stopped after 4 of 40 rows, 36 never sent"
 */
export function batchStatus(tally: BatchTally): BatchStatus {
  const c = tally.counts();
  const ended = c.completed + c.failed + c.invalid + c.unknown;
  const inFlight = c.sending + c.accepted;
  const files = tally.files;
  const known = files.length > 0 && files.every((f) => f.rows !== undefined);
  const inputRows = known ? files.reduce((sum, f) => sum + f.rows!, 0) : undefined;
  // Rows the file never named, and rows the service refused for now, were never sent.
  const neverSent = inputRows === undefined ? undefined : Math.max(0, inputRows - c.total) + c.unsent;
  const stops = files.flatMap((f) =>
    f.stopped
      ? [
          {
            ...(f.source ? { source: f.source } : {}),
            ...(f.stopped.at ? { at: f.stopped.at } : {}),
            why: f.stopped.why,
            ...(f.stopped.resume ? { resume: f.stopped.resume } : {}),
          },
        ]
      : [],
  );
  const of = inputRows === undefined ? "" : ` of ${count(inputRows)}`;
  const flying = inFlight ? `, ${count(inFlight)} still in flight (--resume waits for them)` : "";
  const unsent = neverSent !== undefined ? neverSent : c.unsent;
  const never = unsent || neverSent !== undefined ? `, ${count(unsent)} never sent` : "";
  const base = { ended, inFlight, stops, ...(inputRows !== undefined ? { inputRows } : {}), ...(neverSent !== undefined ? { neverSent } : {}) };
  if (stops.length) {
    const which = files.length > 1 ? ` (${stops.length} of ${files.length} results files say so)` : "";
    return { state: "stopped", ...base, summary: `stopped after ${count(ended)}${of} rows${never}${flying}${which}` };
  }
  if (inFlight || unsent) {
    return { state: "unfinished", ...base, summary: `${count(ended)}${of} rows ended${never ? `, ${count(unsent)} not sent yet` : ""}${flying}` };
  }
  return { state: "finished", ...base, summary: `finished: ${ended === 1 ? "its row" : `all ${rows(ended)}`} ended` };
}
