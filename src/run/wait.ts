/**
 * Waiting on a run the service handed back before it ended, by its batch id or run id: the
 * public `waitForRun`, its options and their checks. The polling itself is in poll.ts.
 */
import { withCallSettings, type ReduckClient } from "../client.js";
import { isClient } from "../core/call.js";
import { settingsOf, settingsProblem, type CallSettingsOptions } from "../core/call-settings.js";
import type { BatchRunResponse, RunResponse, RunStatusUpdate } from "./outcomes.js";
import { fail, waitForBatch, waitForRunId, type PollContext } from "./poll.js";
import type { RunResult } from "./run-types.js";
import type { ScriptResultOf } from "./typed.js";

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
 * Waits for a run the service is still working on, and returns its outcome: the same shapes as
 * `runScript` (a `RunResponse` for a `runId`, a `BatchRunResponse` for a `batchId`). Never throws.
 * A poll that fails with a network error or a 5xx is tried again with backoff; `signal` stops
 * the wait at once (the run goes on at the service, and can be waited on again).
 *
 * @example
 * ```ts
 * const { data, error } = await waitForRun(
 *   { client, batchId: "8f6c0e1e-0000-4000-8000-000000000001" },
 *   { onStatus: (u) => console.error(`${u.status} ${u.completed + u.failed}/${u.total}`), deadlineMs: 10 * 60_000 },
 * );
 * if (error) console.error(error.error);
 * else for (const run of data.runs) console.log(run.status, run.result ?? run.error);
 * ```
 *
 * Name the script (a registered address, see ReduckScripts) to type the result; for a batch,
 * one address per step:
 * ```ts
 * const { data } = await waitForRun<"reduck/mail.google.com/send_email">({ client, runId });
 * if (data) console.log(data.result.sent);
 * ```
 */
export function waitForRun<K extends string = never>(
  target: { client: ReduckClient; runId: string },
  options?: WaitOptions,
): Promise<RunResult<RunResponse<ScriptResultOf<K>>>>;
export function waitForRun<const K extends readonly string[] = never>(
  target: { client: ReduckClient; batchId: string },
  options?: WaitOptions,
): Promise<RunResult<BatchRunResponse<[K] extends [never] ? unknown[] : { -readonly [I in keyof K]: ScriptResultOf<K[I]> }>>>;
export async function waitForRun(
  target: { client: ReduckClient; runId?: string; batchId?: string },
  options: WaitOptions = {},
): Promise<RunResult<RunResponse | BatchRunResponse>> {
  const problem = waitProblem(target, options);
  if (problem) return fail({ kind: "invalid_request", error: problem });
  const ctx = pollContext(target.client, options);
  try {
    return target.batchId !== undefined ? await waitForBatch(ctx, target.batchId, undefined, undefined) : await waitForRunId(ctx, target.runId!, undefined);
  } catch (err) {
    return fail({ kind: "invalid_request", error: `the wait could not go on: ${err instanceof Error ? err.message : String(err)}` });
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

function waitProblem(target: unknown, options: unknown): string | undefined {
  const t = target as { client?: unknown; runId?: unknown; batchId?: unknown } | null;
  if (typeof t !== "object" || t === null) return 'waitForRun takes { client, batchId } or { client, runId }: waitForRun({ client, batchId: "..." })';
  if (!isClient(t.client)) return "pass the client from createReduckClient() as `client`";
  if ((t.runId === undefined) === (t.batchId === undefined)) return "give exactly one of batchId (several scripts) or runId (one script)";
  for (const key of ["runId", "batchId"] as const) {
    if (t[key] !== undefined && (typeof t[key] !== "string" || t[key] === "")) return `${key} must be a non-empty string (the id the run's first answer gave)`;
  }
  if (options === null || typeof options !== "object") return "waitForRun's second argument is an options object: { signal, onStatus, deadlineMs }";
  const { signal, onStatus, deadlineMs, headers } = options as WaitOptions;
  if (signal !== undefined && !(signal instanceof AbortSignal)) return "signal must be an AbortSignal (from an AbortController)";
  if (onStatus !== undefined && typeof onStatus !== "function") return "onStatus must be a function";
  if (deadlineMs !== undefined && (typeof deadlineMs !== "number" || !(deadlineMs >= 0))) return "deadlineMs must be a number of milliseconds, 0 or more";
  if (headers !== undefined && (typeof headers !== "object" || headers === null)) return "headers must be an object of header names and values";
  return settingsProblem(options as CallSettingsOptions, "waitForRun");
}
