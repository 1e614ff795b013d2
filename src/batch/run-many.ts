/**
 * runMany: one script over many rows, `concurrency` rows in flight, every row run once, its
 * outcomes handed out once (iterated) or summed up (awaited). The options are checked when the
 * batch starts (start.ts), the counts start in counts.ts, the rows are run by row-loop.ts.
 */
import type { ReduckError } from "../core/errors.js";
import type { ScriptAddressFor, ScriptResultOf } from "../run/typed.js";
import { startingCounts } from "./counts.js";
import type { RowOutcome } from "./journal.js";
import { drive } from "./row-loop.js";
import type { RunManyOptions, RunManyRun, RunManySummary } from "./run-many-types.js";

export type { BatchCounts, RunManyOptions, RunManyRun, RunManySummary, RowFor } from "./run-many-types.js";

/**
 * Runs one script over many rows. Iterate it (`for await`) for each row's outcome as it ends, or
 * await it for the counts once every row has ended. Never throws: a batch that cannot start, or
 * stops early, says why in `error`.
 *
 * One batch per call: iterated once or awaited, or iterated and then awaited (the await waits
 * for the loop's batch to end); a second loop, or a loop after an await, is a TypeError.
 *
 * @example
 * ```ts
 * import { createReduckClient, readRows, runMany } from "reduck-client";
 * const client = createReduckClient({ apiKey: process.env.REDUCK_API_KEY });
 * const run = runMany({
 *   client,
 *   script: "reduck/mail.google.com/send_email",
 *   rows: readRows("people.csv"),
 *   concurrency: 8,
 *   journal: "people.results.jsonl",
 *   resume: true,
 *   onProgress: (c) => console.error(`${c.completed + c.failed}/${c.total}`),
 * });
 * for await (const outcome of run) console.log(outcome.row, outcome.status, outcome.runId);
 * if (run.error) console.error(run.error.error);
 *
 * // Or only the counts, every row run to its end:
 * const { counts, error } = await runMany({ client, script: "reduck/mail.google.com/send_email", rows: [{ to: "a@example.com", subject: "Hi" }] });
 * ```
 */
export function runMany<const K extends ScriptAddressFor = ScriptAddressFor>(options: RunManyOptions<K>): RunManyRun<ScriptResultOf<K>>;
export function runMany(options: RunManyOptions): RunManyRun {
  const counts = startingCounts(options);
  const state: { error?: ReduckError } = {};
  let taken: "loop" | "await" | undefined;
  let ended!: () => void;
  const end = new Promise<void>((resolve) => (ended = resolve));
  let summary: Promise<RunManySummary> | undefined;

  /** The batch, started once: its outcomes, and `end` resolved once it is over (run out or stopped by its loop). */
  const start = (by: "loop" | "await"): AsyncIterableIterator<RowOutcome> => {
    if (taken) {
      throw new TypeError(
        taken === "loop"
          ? "this runMany batch is already being iterated: its outcomes are handed out once (call runMany again for another batch)"
          : "this runMany batch was awaited, which runs it without handing out its outcomes: iterate it before awaiting it",
      );
    }
    taken = by;
    const outcomes = drive(options, counts, state);
    const settled = <T>(step: Promise<T>, last: (value: T) => boolean) =>
      step.then(
        (value) => {
          if (last(value)) ended();
          return value;
        },
        (err: unknown) => {
          ended();
          throw err;
        },
      );
    return {
      next: () => settled(outcomes.next(), (r) => Boolean(r.done)),
      // A loop that stops early stops the batch (nothing more is sent); the batch is then over.
      return: (value?: unknown) => settled(outcomes.return(value as undefined), () => true),
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  };

  return {
    counts,
    get error() {
      return state.error;
    },
    [Symbol.asyncIterator]: () => start("loop"),
    then(onFulfilled, onRejected) {
      summary ??= (async () => {
        if (!taken) for await (const _ of start("await"));
        await end;
        return { counts, ...(state.error ? { error: state.error } : {}) };
      })();
      return summary.then(onFulfilled, onRejected);
    },
  };
}
