/**
 * The row loop behind runMany (run-many.ts), every row run once.
 *
 * Each row's request is preceded by a `sending` line in the journal (on disk before the request
 * goes out), and followed by its outcome. Resuming reads the journal: a completed row is never
 * sent again; a row the service gave an id for is waited on; a row that was being sent when the
 * process died is looked for among the script's runs and adopted when found, else marked
 * `unknown` (sent again only when asked). A 429 or 503 pauses and slows the whole batch; it
 * never fails a row.
 */
import { withCallSettings } from "../core/client.js";
import { sleep } from "../core/wire/abort.js";
import { settingsOf, settingsProblem } from "../core/wire/call-settings.js";
import { isClient } from "../core/call.js";
import type { ReduckError, ReduckErrorCode } from "../core/errors.js";
import type { JournalLine, RowOutcome } from "./journal.js";
import { RowPreparer, type PreparedRow } from "./prepare.js";
import { planRow, RunAdopter } from "./resume.js";
import type { RowValues } from "./rows.js";
import type { BatchCounts, RunManyOptions } from "./run-many-types.js";
import { sendGroup, waitForRunEnd, type RunEnd } from "./send.js";
import { startBatch } from "./start.js";

/**
 * The row loop of one batch: reads the rows, sends them `concurrency` at a time in groups,
 * journals each step, waits on or adopts what an earlier run left, slows down on 429 and 503,
 * and yields each row's outcome as it ends. Counts go into `counts` as they change; a reason the
 * batch stopped early goes into `state.error`.
 */
export async function* drive(given: RunManyOptions, counts: BatchCounts, state: { error?: ReduckError }): AsyncGenerator<RowOutcome> {
  // The call's own timeout and retries, for every request of the batch (startBatch refuses them when malformed).
  const usable = isClient(given?.client) && !settingsProblem(given, "runMany");
  const options = usable ? { ...given, client: withCallSettings(given.client, settingsOf(given)) } : given;
  const warn = (message: string) => options.onWarning?.(message);
  const fail = (error: string, code: ReduckErrorCode) => {
    state.error ??= { kind: "invalid_request", code, error };
  };
  // The stop signals come before the journal opens: nothing below may throw with a file held open.
  const stopNow = new AbortController();
  // (startBatch refuses a signal or stop that is not an AbortSignal.)
  const hard = options?.signal instanceof AbortSignal ? AbortSignal.any([options.signal, stopNow.signal]) : stopNow.signal;
  const soft = options?.stop instanceof AbortSignal ? AbortSignal.any([options.stop, hard]) : hard;
  const started = await startBatch(options, warn, counts.totalKnown ? counts.total : undefined);
  if ("error" in started) return void (state.error = started.error);
  const { concurrency, groupSize, script, journal } = started;
  const contents = started.contents;

  const preparer = new RowPreparer(script, options);
  const source = (
    Symbol.asyncIterator in options.rows
      ? (options.rows as AsyncIterable<RowValues>)[Symbol.asyncIterator]()
      : (options.rows as Iterable<RowValues>)[Symbol.iterator]()
  ) as AsyncIterator<RowValues> | Iterator<RowValues>;
  let sourceDone = false;
  let rowsRead = 0;
  const again: PreparedRow[] = [];
  const adopter = new RunAdopter(options.client, script.scriptId, contents, hard);
  const pending: RowOutcome[] = [];
  const running = new Set<Promise<void>>();
  // Whoever waits for something to change (the scheduler, the consumer) is woken by any change.
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const w of [...waiters]) w();
    waiters.clear();
  };
  const changed = () => new Promise<void>((resolve) => waiters.add(resolve));
  let allowed = concurrency;
  let throttles = 0;
  let pauseUntil = 0;
  const progress = () => options.onProgress?.({ ...counts, ...(pauseUntil > Date.now() ? { pausedUntil: pauseUntil } : {}) });

  const write = async (lines: JournalLine[]) => {
    if (!journal || !lines.length) return;
    try {
      await journal.append(lines);
    } catch (err) {
      // Without the journal a row could run twice: nothing more is sent.
      fail(`cannot write ${options.journal} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): stopped sending`, "journal_unusable");
      stopNow.abort();
      throw err;
    }
  };

  /** Journals outcomes (a group's in one write and one fsync), then hands them out. */
  const emit = async (...ended: RowOutcome[]) => {
    const at = new Date().toISOString();
    const outcomes = ended.map((outcome) => ({ ...outcome, at }));
    await write(outcomes).catch(() => undefined);
    for (const outcome of outcomes) {
      counts[outcome.status]++;
      // A run that is a row's own is never adopted by another row's lookup.
      if (outcome.runId) adopter.claim(outcome.runId);
    }
    pending.push(...outcomes);
    progress();
    notify();
  };

  const outcomeOf = (row: PreparedRow, end: RunEnd): RowOutcome => ({
    row: row.row,
    key: row.key,
    status: end.status,
    runId: end.runId,
    ...(end.status === "completed" ? { result: end.result ?? null } : { error: end.error ?? end.status }),
    ...(end.errorType ? { errorType: end.errorType } : {}),
  });

  const track = (job: Promise<void>, rows: number) => {
    counts.inFlight += rows;
    progress();
    const p = job
      .catch(() => undefined)
      .finally(() => {
        counts.inFlight -= rows;
        running.delete(p);
        progress();
        notify();
      });
    running.add(p);
  };

  const waitJob = async (row: PreparedRow, target: string | { batchId: string; index: number }) => {
    const end = await waitForRunEnd(options.client, typeof target === "string" ? { runId: target } : target, hard);
    if (end === "aborted") counts.leftRunning++;
    else await emit(outcomeOf(row, end));
  };

  const adoptJob = async (row: PreparedRow, sendingAt: number, fresh: boolean, why: string) => {
    const found = await adopter.lookup(row.args, sendingAt, fresh);
    if (hard.aborted) return void counts.leftRunning++;
    if (typeof found === "string" && found !== "unreadable") {
      await write([{ row: row.row, key: row.key, status: "accepted", runId: found }]);
      return waitJob(row, found);
    }
    if (!fresh && found === undefined && options.retryUnknown) {
      again.push(row);
      return;
    }
    await emit({
      row: row.row,
      key: row.key,
      status: "unknown",
      runId: null,
      error:
        found === "unreadable"
          ? `${why}, and the script's runs could not be read to find out whether it ran: resume later to look again`
          : `${why}, and no run with its arguments was found at the service: it may never have arrived (a resume that retries unknown rows sends it again)`,
    });
  };

  const sendJob = async (group: PreparedRow[]) => {
    const at = new Date();
    await write(group.map((r) => ({ row: r.row, key: r.key, status: "sending", at: at.toISOString() })));
    let accepted: Promise<void> = Promise.resolve();
    let lastAccepted = "";
    const answer = await sendGroup({
      client: options.client,
      script,
      rows: group,
      browser: options.browser,
      headers: options.headers,
      waitForSeconds: options.waitForSeconds,
      signal: hard,
      onAccepted: ({ batchId, runIds }) => {
        // Told after every poll: journal only what is new.
        const known = JSON.stringify([batchId, runIds]);
        if (known === lastAccepted) return;
        lastAccepted = known;
        const lines = group.map((r, i) => ({
          row: r.row,
          key: r.key,
          status: "accepted" as const,
          ...(runIds[i] ? { runId: runIds[i]! } : {}),
          ...(batchId ? { batchId, index: i } : {}),
        }));
        accepted = accepted.then(() => write(lines)).catch(() => undefined);
      },
    });
    await accepted;
    switch (answer.kind) {
      case "ended":
        throttles = 0;
        allowed = Math.min(concurrency, allowed + 1);
        await emit(...group.map((row, i) => outcomeOf(row, answer.ends[i]!)));
        return;
      case "throttled": {
        await write(group.map((r) => ({ row: r.row, key: r.key, status: "unsent" })));
        throttles++;
        allowed = Math.max(1, Math.floor(allowed / 2));
        const pause = answer.retryAfterMs ?? Math.min(30_000, 500 * 2 ** (throttles - 1));
        pauseUntil = Math.max(pauseUntil, Date.now() + pause);
        again.unshift(...group);
        warn(`${answer.why}: slowing down (${allowed} row${allowed === 1 ? "" : "s"} in flight), next request in ${(pause / 1000).toFixed(1)} s`);
        return;
      }
      case "uncertain":
        // The request may have started runs: find them rather than send again.
        await sleep(500, hard).catch(() => undefined);
        await Promise.all(group.map((row) => adoptJob(row, at.getTime(), true, `no answer to rely on (${answer.why})`)));
        return;
      case "fatal":
        await write(group.map((r) => ({ row: r.row, key: r.key, status: "unsent" }))).catch(() => undefined);
        state.error ??= answer.error;
        stopNow.abort();
        return;
      case "aborted":
        // Sent, and the batch stopped waiting before the service answered.
        counts.leftRunning += group.length;
        return;
    }
  };

  /** The next row to send; rows that need no request (done earlier, invalid, to wait on) are dealt with on the way. */
  const nextToSend = async (): Promise<PreparedRow | undefined> => {
    if (again.length) return again.shift();
    while (!sourceDone && !soft.aborted) {
      let next: IteratorResult<RowValues>;
      try {
        next = await source.next();
      } catch (err) {
        fail(`the rows could not be read: ${(err as Error).message}`, "rows_unreadable");
        sourceDone = true;
        stopNow.abort();
        return undefined;
      }
      if (next.done) {
        sourceDone = true;
        return undefined;
      }
      const check = await preparer.prepare(next.value);
      // Another shard's row: another machine sends it.
      if (!check) continue;
      // A total known ahead stays; rows beyond it (a count that fell short) still count.
      rowsRead++;
      if (rowsRead > counts.total) counts.total = rowsRead;
      const plan = planRow(contents.states.get(check.key), check.ok, options);
      if (plan.kind === "earlier") {
        counts[plan.status]++;
        counts.earlier++;
        progress();
        continue;
      }
      if (!check.ok) {
        await emit({ row: check.row, key: check.key, status: "invalid", runId: null, error: check.problems.join("; ") });
        continue;
      }
      const row = check.prepared;
      if (plan.kind === "wait") track(waitJob(row, plan.target), 1);
      else if (plan.kind === "adopt") track(adoptJob(row, plan.sendingAt, false, "it was being sent when the batch stopped"), 1);
      else return row;
    }
    return undefined;
  };

  /** Why the batch stopped before every row ended, or undefined when every row did (a report tells the two apart). */
  const stoppedEarly = (): string | undefined => {
    if (state.error) return state.error.error;
    if (!soft.aborted || (sourceDone && !again.length && !counts.leftRunning)) return undefined;
    const reason = (signal: AbortSignal | undefined) => (signal?.aborted && typeof signal.reason === "string" ? signal.reason : undefined);
    if (options.signal?.aborted) return reason(options.signal) ?? "stopped at once: the rows in flight were not waited for";
    if (options.stop?.aborted) return reason(options.stop) ?? "stopped: no more rows were sent";
    return "the loop over its outcomes ended early";
  };

  const schedule = (async () => {
    try {
      for (;;) {
        if (soft.aborted) break;
        const pause = pauseUntil - Date.now();
        if (pause > 0) {
          progress();
          await sleep(pause, soft).catch(() => undefined);
          continue;
        }
        const room = allowed - counts.inFlight;
        if (room <= 0) {
          await changed();
          continue;
        }
        const group: PreparedRow[] = [];
        while (group.length < Math.min(groupSize, room)) {
          const row = await nextToSend();
          if (!row) break;
          group.push(row);
        }
        if (group.length) {
          track(sendJob(group), group.length);
          continue;
        }
        if (running.size === 0 && sourceDone && !again.length) break;
        if (running.size) await Promise.race([changed(), ...running]);
      }
      await Promise.all(running);
    } finally {
      notify();
    }
  })();
  let finished = false;
  void schedule.then(() => {
    finished = true;
    notify();
  });

  try {
    for (;;) {
      while (pending.length) yield pending.shift()!;
      if (finished) break;
      await changed();
    }
    while (pending.length) yield pending.shift()!;
  } finally {
    // A consumer that stops early stops the batch: nothing more is sent.
    if (!finished) stopNow.abort();
    await schedule.catch(() => undefined);
    const why = stoppedEarly();
    if (why && journal) {
      const resume = options.resumeCommand ?? `runMany with \`resume: true\` and \`journal: ${JSON.stringify(options.journal)}\``;
      await journal.append([{ status: "stopped", at: new Date().toISOString(), why, resume }]).catch(() => undefined);
    }
    await journal?.close();
    const closing = (source as AsyncIterator<RowValues>).return;
    if (!sourceDone && closing) await Promise.resolve(closing.call(source)).catch(() => undefined);
  }
}
