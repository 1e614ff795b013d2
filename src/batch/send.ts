/**
 * How a group of rows travels to the service, and how a run already at the service is waited
 * for or found again. The only module of the batch runner that knows the wire: the rest
 * (reading rows, the journal, resuming, scheduling) sees groups and outcomes.
 *
 * A group of one row is one `script` run; several rows go together as `scripts` (at most 20,
 * the service's cap), never `sequential`: the rows are independent.
 */
import type { ReduckClient } from "../core/client.js";
import type { ReduckError } from "../core/errors.js";
import { runScript, type BatchRunOptions, type RunBrowser, type ScriptToRun, type SingleRunOptions } from "../run/run.js";
import type { RunError, RunStepOutcome } from "../run/outcomes.js";
import { waitForRun } from "../run/wait.js";
import { errorSaidOnce } from "../report/said-once.js";
import type { BatchScript, PreparedRow } from "./prepare.js";

/** The service's cap on scripts per `POST /run`. */
export const MAX_GROUP = 20;

/** How one row ended at the service. */
export interface RunEnd {
  /** `unknown`: the run exists, but how it ended could not be read. */
  status: "completed" | "failed" | "unknown";
  runId: string | null;
  result?: unknown;
  error?: string;
  errorType?: string;
}

/** The ids the service gave for a group still running (journaled before waiting on them). */
export interface Accepted {
  batchId?: string;
  /** Per row, in order, as far as known. */
  runIds: (string | null)[];
}

export type GroupAnswer =
  /** One end per row, in the order given. */
  | { kind: "ended"; ends: RunEnd[] }
  /** Refused before anything ran (429, 503, a connection never made): send again after a pause. */
  | { kind: "throttled"; retryAfterMs?: number; why: string }
  /** No answer to rely on: the runs may or may not exist at the service. */
  | { kind: "uncertain"; why: string }
  /** The caller's signal ended it; the rows stay as the journal left them. */
  | { kind: "aborted" }
  /** Nothing more can be sent (the credential was refused). */
  | { kind: "fatal"; error: ReduckError };

export interface GroupRequest {
  client: ReduckClient;
  script: BatchScript;
  rows: PreparedRow[];
  browser?: RunBrowser;
  headers?: Record<string, string>;
  /** How long the service holds the request before answering with a handle to poll (1-110 s). */
  waitForSeconds?: number;
  signal?: AbortSignal;
  /** Told the run or batch ids as soon as the service gives them, before the runs end. */
  onAccepted?: (accepted: Accepted) => void;
}

function toScript(script: BatchScript, row: PreparedRow): ScriptToRun {
  return {
    handle: script.handle,
    host: script.host,
    slug: script.slug,
    args: row.args,
    ...(Object.keys(row.files).length ? { files: Object.fromEntries(Object.entries(row.files).map(([input, p]) => [input, { path: p }])) } : {}),
    ...(script.pinned ? { version_id: script.versionId } : {}),
  };
}

/** `Retry-After` in milliseconds: seconds, or an HTTP date. */
function retryAfter(response: Response | undefined): number | undefined {
  const value = response?.headers.get("retry-after");
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** What a failed request means for its rows. */
function fromError(error: ReduckError, response: Response | undefined, count: number): GroupAnswer {
  if (error.kind === "aborted") return { kind: "aborted" };
  if (error.kind === "credential" || error.status === 401 || error.status === 403) return { kind: "fatal", error };
  if (error.status === 429 || error.status === 503)
    return { kind: "throttled", retryAfterMs: retryAfter(response), why: `the service answered ${error.status}` };
  if (error.kind === "network" && error.cause === "ECONNREFUSED") return { kind: "throttled", why: "the connection was refused" };
  if (error.kind === "run_failed" || (error.status !== undefined && error.status >= 400 && error.status < 500) || error.kind === "invalid_request") {
    // The service took the request and refused or failed it: an outcome, not a doubt.
    const end: RunEnd = {
      status: "failed",
      runId: count === 1 ? (error.runId ?? null) : null,
      error: error.error,
      ...(error.errorType ? { errorType: error.errorType } : {}),
    };
    return { kind: "ended", ends: Array.from({ length: count }, () => ({ ...end })) };
  }
  return { kind: "uncertain", why: error.error };
}

/**
 * Sends one group of rows as one `POST /run` and waits for its outcomes. Never throws.
 *
 * @example
 * const answer = await sendGroup({ client, script, rows });
 * if (answer.kind === "ended") console.log(answer.ends);
 */
export async function sendGroup(request: GroupRequest): Promise<GroupAnswer> {
  const { client, script, rows, browser, headers, signal, onAccepted, waitForSeconds } = request;
  // Given to runScript as its onStatus (told of the first answer that is not final, with the ids
  // the service gave); a runScript that waits without telling ignores it.
  const onStatus = onAccepted
    ? (update: { batchId?: string; runId?: string; runIds?: (string | null)[] }) => {
        const runIds = update.runIds?.length ? update.runIds : update.runId ? [update.runId] : [];
        if (update.batchId || runIds.some(Boolean)) onAccepted({ batchId: update.batchId, runIds });
      }
    : undefined;
  const common = {
    client,
    ...(browser ? { browser } : {}),
    headers,
    signal,
    ...(waitForSeconds ? { waitForSeconds } : {}),
    ...(onStatus ? { onStatus } : {}),
  } as Record<string, unknown>;
  const answer =
    rows.length === 1
      ? await runScript({ ...common, script: toScript(script, rows[0]!) } as unknown as SingleRunOptions)
      : await runScript({ ...common, scripts: rows.map((row) => toScript(script, row)) } as unknown as BatchRunOptions);
  // The library's outcomes, one per row in order whenever the runs ended (a single row's failure too).
  if (answer.outcomes) {
    if (answer.outcomes.length !== rows.length)
      return { kind: "uncertain", why: `asked for ${rows.length} runs, the service answered for ${answer.outcomes.length}` };
    return { kind: "ended", ends: answer.outcomes.map((o) => endOf(o)) };
  }
  if (answer.error) return fromError(answer.error, answer.response, rows.length);
  return { kind: "uncertain", why: "the service's answer named no outcome" };
}

/** One script's outcome as its row's end; the service's words for people beside its error. */
function endOf(o: RunStepOutcome, fallbackRunId: string | null = null): RunEnd {
  const runId = o.runId ?? fallbackRunId;
  if (o.status === "completed") return { status: "completed", runId, result: o.result ?? null };
  return {
    status: "failed",
    runId,
    error: errorSaidOnce(o.error, o.externalMessage) ?? o.status,
    ...(o.errorType ? { errorType: o.errorType } : {}),
  };
}

/** What a failed wait means for its row. */
function endOfWait(error: RunError | undefined, runId: string | null, what: string): RunEnd | "aborted" {
  if (!error) return { status: "unknown", runId, error: `${what} ended with no outcome to read: resuming the batch waits for it again` };
  if (error.kind === "aborted") return "aborted";
  // The run ended and failed: its own outcome.
  if (error.kind === "run_failed")
    return {
      status: "failed",
      runId: error.runId,
      error: errorSaidOnce(error.error, error.externalMessage) ?? error.error,
      ...(error.errorType ? { errorType: error.errorType } : {}),
    };
  if (error.code === "run_not_found") return { status: "failed", runId, error: `${what} is not on this account any more (deleted?)` };
  // The polls kept failing: the run goes on at the service, and a later resume waits again.
  return { status: "unknown", runId, error: `could not read ${what} to see how it ended (${error.error}): resuming the batch waits for it again` };
}

/**
 * Waits for a run the service already has to end: by its run id, or by its batch and place in
 * it (`waitForRun` polls; polls that fail are retried). Never sends it again.
 *
 * @example
 * const end = await waitForRunEnd(client, { runId: "0d4e8619-..." });
 */
export async function waitForRunEnd(
  client: ReduckClient,
  target: { runId: string } | { batchId: string; index: number },
  signal?: AbortSignal,
): Promise<RunEnd | "aborted"> {
  if ("runId" in target) {
    const { outcomes, error } = await waitForRun({ client, runId: target.runId, signal });
    const outcome = outcomes?.[0];
    if (outcome) return endOf(outcome, target.runId);
    return endOfWait(error, target.runId, `run ${target.runId}`);
  }
  const { outcomes, error } = await waitForRun({ client, batchId: target.batchId, signal });
  if (!outcomes) return endOfWait(error, null, `batch ${target.batchId}`);
  const step = outcomes[target.index];
  if (!step)
    return { status: "unknown", runId: null, error: `batch ${target.batchId} has no run ${target.index}: resume to look for it among the script's runs` };
  return endOf(step);
}
