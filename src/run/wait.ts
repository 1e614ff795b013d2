/**
 * Waiting on a run the service handed back before it ended, by its batch id or run id: the
 * public `waitForRun`, its options and their checks. The polling itself is in poll.ts.
 */
import { withCallSettings, type ReduckClient } from "../core/client.js";
import { isClient } from "../core/call.js";
import { settingsOf, settingsProblem, type CallSettingsOptions } from "../core/wire/call-settings.js";
import type { BatchRunResponse, PendingRun, RunResponse, RunStatusUpdate } from "./outcomes.js";
import { endedResult } from "./read-answer.js";
import { fail, runResult, waitForBatch, waitForRunId, type PollContext } from "./poll.js";
import type { RunResult } from "./run-types.js";
import type { ScriptAddressFor, ScriptResultOf } from "./typed.js";

/**
 * Options of `waitForRun`.
 *
 * @example
 * ```ts
 * const options: WaitOptions = { signal: AbortSignal.timeout(600_000), deadlineMs: 300_000 };
 * ```
 */
export interface WaitOptions extends CallSettingsOptions {
  signal?: AbortSignal;
  /** Told the status and counts after each poll. */
  onStatus?: (update: RunStatusUpdate) => void;
  /** Stop waiting after this many milliseconds (counted from the call); the run goes on at the service. */
  deadlineMs?: number;
  /** Extra headers for each poll. */
  headers?: Record<string, string>;
}

/**
 * What `waitForRun` takes: the client, the run to wait on (`runId` or `batchId`, or a pending run
 * as `runScript({ wait: false })` returned it, spread in) and how to wait.
 *
 * @example
 * ```ts
 * const options: WaitForRunOptions = { client, batchId: "8f6c0e1e-0000-4000-8000-000000000001", deadlineMs: 300_000 };
 * ```
 */
export interface WaitForRunOptions extends WaitOptions {
  client: ReduckClient;
  /** A run of one script, by its id. */
  runId?: string;
  /** A batch of several scripts (or one the service answered as a batch), by its id. */
  batchId?: string;
}

/** One run to wait on: by run id, by batch id, or a pending run as runScript handed it back. */
type WaitTarget = { runId: string; batchId?: undefined } | { batchId: string; runId?: undefined } | PendingRun;

/** The batch's outcomes, typed step by step when the addresses are named. */
type WaitedBatch<K extends readonly string[]> = BatchRunResponse<[K] extends [never] ? unknown[] : { -readonly [I in keyof K]: ScriptResultOf<K[I]> }>;

/**
 * Waits for a run the service is still working on, and returns its outcome: the same shapes as
 * `runScript` (a `RunResponse` for a `runId`, a `BatchRunResponse` for a `batchId`). Never throws.
 * A poll that fails with a network error or a 5xx is tried again with backoff; `signal` stops
 * the wait at once (the run goes on at the service, and can be waited on again).
 *
 * Takes one options object, as every call does. The older form, the target and the options as two
 * arguments (`waitForRun({ client, runId }, { signal })`), still works and means the same.
 *
 * @example
 * ```ts
 * const { data, error } = await waitForRun({
 *   client,
 *   batchId: "8f6c0e1e-0000-4000-8000-000000000001",
 *   onStatus: (u) => console.error(`${u.status} ${u.completed + u.failed}/${u.total}`),
 *   deadlineMs: 10 * 60_000,
 * });
 * if (error) console.error(error.error);
 * else for (const run of data.runs) console.log(run.status, run.result ?? run.error);
 * ```
 *
 * A pending run, as `runScript({ wait: false })` handed it back:
 * ```ts
 * const first = await runScript({ client, script, wait: false });
 * if (first.data && isPendingRun(first.data)) {
 *   const done = await waitForRun({ client, ...first.data, signal });
 *   if (done.data && "runs" in done.data) console.log(done.data.runs);
 * }
 * ```
 *
 * Name the script (a registered address, see ReduckScripts) to type the result; for a batch,
 * one address per step:
 * ```ts
 * const { data } = await waitForRun<"reduck/mail.google.com/send_email">({ client, runId });
 * if (data) console.log(data.result.sent);
 * ```
 */
/** @deprecated The older two-argument form: pass one object, `waitForRun({ client, batchId, ...options })`. */
export function waitForRun<const K extends readonly ScriptAddressFor[] = never>(
  target: { client: ReduckClient; batchId: string },
  options: WaitOptions,
): Promise<RunResult<WaitedBatch<K>>>;
/** @deprecated The older two-argument form: pass one object, `waitForRun({ client, runId, ...options })`. */
export function waitForRun<K extends ScriptAddressFor = never>(
  target: { client: ReduckClient; runId: string },
  options: WaitOptions,
): Promise<RunResult<RunResponse<ScriptResultOf<K>>>>;
export function waitForRun<const K extends readonly ScriptAddressFor[] = never>(
  options: WaitForRunOptions & { batchId: string; runId?: undefined },
): Promise<RunResult<WaitedBatch<K>>>;
// After the batch form: an address that is not registered is reported against this one.
export function waitForRun<K extends ScriptAddressFor = never>(
  options: WaitForRunOptions & { runId: string; batchId?: undefined },
): Promise<RunResult<RunResponse<ScriptResultOf<K>>>>;
/**
 * A pending run as `runScript({ wait: false })` returned it, spread in: `waitForRun({ client, ...pending })`.
 * (Last, so that a mistake in the options is reported against the whole options type.)
 */
export function waitForRun(options: WaitForRunOptions & WaitTarget): Promise<RunResult<RunResponse | BatchRunResponse>>;
export async function waitForRun(target: WaitForRunOptions, older?: WaitOptions): Promise<RunResult<RunResponse | BatchRunResponse>> {
  const problem = waitProblem(target, older);
  if (problem) return fail({ kind: "invalid_request", code: "invalid_options", error: problem });
  const options = older === undefined ? target : { ...target, ...older };
  const ctx = pollContext(options.client, options);
  try {
    const single = options.batchId === undefined;
    const waited = single ? await waitForRunId(ctx, options.runId!, undefined) : await waitForBatch(ctx, options.batchId!, undefined, undefined);
    if (waited.error) return fail(waited.error, waited.lastResponse);
    return runResult<RunResponse | BatchRunResponse>(endedResult(waited.ended, { single }), waited.lastResponse);
  } catch (err) {
    return fail({ kind: "invalid_request", code: "invalid_options", error: `the wait could not go on: ${err instanceof Error ? err.message : String(err)}` });
  }
}

export function pollContext(client: ReduckClient, options: WaitOptions, startedAt = Date.now()): PollContext {
  return {
    // Each poll with the call's own timeout and retries, when it gave them.
    client: withCallSettings(client, settingsOf(options)),
    signal: options.signal,
    onStatus: guarded(options.onStatus),
    headers: options.headers,
    startedAt,
    deadlineAt: options.deadlineMs === undefined ? undefined : Date.now() + options.deadlineMs,
  };
}

/**
 * The caller's callback, kept from breaking the wait: a callback that throws must not turn a
 * run already sent into an error that says it could not be made.
 */
export function guarded<A>(callback: ((arg: A) => void) | undefined): ((arg: A) => void) | undefined {
  if (!callback) return undefined;
  return (arg) => {
    try {
      callback(arg);
    } catch {
      // Its own failure; the run goes on, and so does the wait.
    }
  };
}

function waitProblem(target: unknown, older: unknown): string | undefined {
  const t = target as { client?: unknown; runId?: unknown; batchId?: unknown } | null;
  if (typeof t !== "object" || t === null)
    return 'waitForRun takes one options object: waitForRun({ client, batchId: "..." }) or waitForRun({ client, runId: "..." })';
  if (!isClient(t.client)) return "pass the client from createReduckClient() as `client`";
  if ((t.runId === undefined) === (t.batchId === undefined)) return "give exactly one of batchId (several scripts) or runId (one script)";
  for (const key of ["runId", "batchId"] as const) {
    if (t[key] !== undefined && (typeof t[key] !== "string" || t[key] === "")) return `${key} must be a non-empty string (the id the run's first answer gave)`;
  }
  if (older !== undefined && (older === null || typeof older !== "object"))
    return "waitForRun takes one options object: waitForRun({ client, runId, signal, onStatus, deadlineMs })";
  const options = { ...t, ...(older as WaitOptions | undefined) } as WaitOptions;
  const { signal, onStatus, deadlineMs, headers } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) return "signal must be an AbortSignal (from an AbortController)";
  if (onStatus !== undefined && typeof onStatus !== "function") return "onStatus must be a function";
  if (deadlineMs !== undefined && (typeof deadlineMs !== "number" || !(deadlineMs >= 0))) return "deadlineMs must be a number of milliseconds, 0 or more";
  if (headers !== undefined && (typeof headers !== "object" || headers === null)) return "headers must be an object of header names and values";
  return settingsProblem(options, "waitForRun")?.message;
}
