/**
 * How a group of rows travels to the service, and how a run already at the service is waited
 * for or found again. The only module of the batch runner that knows the wire: the rest
 * (reading rows, the journal, resuming, scheduling) sees groups and outcomes.
 *
 * A group of one row is one `script` run; several rows go together as `scripts` (at most 20,
 * the service's cap), never `sequential`: the rows are independent.
 */
import type { ReduckClient } from "../client.js";
import type { ReduckError } from "../core/errors.js";
import { listRuns } from "../generated/operations.js";
import { runScript, type BatchRunOptions, type RunBrowser, type ScriptToRun, type SingleRunOptions } from "../run/run.js";
import type { RunError } from "../run/outcomes.js";
import { waitForRun } from "../run/wait.js";
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
function fromError(error: ReduckError & { runId?: string; errorType?: string }, response: Response | undefined, count: number): GroupAnswer {
  if (error.kind === "aborted") return { kind: "aborted" };
  if (error.kind === "credential" || error.status === 401 || error.status === 403) return { kind: "fatal", error };
  if (error.status === 429 || error.status === 503)
    return { kind: "throttled", retryAfterMs: retryAfter(response), why: `the service answered ${error.status}` };
  if (error.kind === "network" && error.cause === "ECONNREFUSED") return { kind: "throttled", why: "the connection was refused" };
  if (error.runId || (error.status !== undefined && error.status >= 400 && error.status < 500) || error.kind === "invalid_request") {
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
  if (rows.length === 1) {
    const answer = await runScript({ ...common, script: toScript(script, rows[0]!) } as unknown as SingleRunOptions);
    if (answer.error) return fromError(answer.error, answer.response, 1);
    const data = answer.data as { result?: unknown; runId?: string };
    return { kind: "ended", ends: [{ status: "completed", runId: data.runId ?? null, result: data.result ?? null }] };
  }
  const answer = await runScript({ ...common, scripts: rows.map((row) => toScript(script, row)) } as unknown as BatchRunOptions);
  if (answer.error) return fromError(answer.error, answer.response, rows.length);
  type Envelope = { status: string; runId?: string | null; result?: unknown; error?: string; errorType?: string; externalMessage?: string };
  // The normalised batch (`runs`); a bare array of envelopes is the wire's own 200 for `scripts`.
  const data = answer.data as unknown as { runs?: Envelope[] } | Envelope[];
  const runs = Array.isArray(data) ? data : data.runs;
  // One outcome per row, always: never re-paired by position when the counts differ.
  if (!Array.isArray(runs) || runs.length !== rows.length)
    return { kind: "uncertain", why: `asked for ${rows.length} runs, the service answered for ${Array.isArray(runs) ? runs.length : "none"}` };
  return {
    kind: "ended",
    ends: runs.map((r) =>
      r.status === "completed"
        ? { status: "completed", runId: r.runId ?? null, result: r.result ?? null }
        : {
            status: "failed",
            runId: r.runId ?? null,
            error: r.externalMessage ? `${r.error ?? r.status} (${r.externalMessage})` : (r.error ?? r.status),
            ...(r.errorType ? { errorType: r.errorType } : {}),
          },
    ),
  };
}

/** What a failed wait means for its row. */
function endOfWait(error: RunError, runId: string | null, what: string): RunEnd | "aborted" {
  if (error.kind === "aborted") return "aborted";
  // The run ended and failed: its own outcome.
  if (error.runId)
    return {
      status: "failed",
      runId: error.runId,
      error: error.externalMessage ? `${error.error} (${error.externalMessage})` : error.error,
      ...(error.errorType ? { errorType: error.errorType } : {}),
    };
  if (error.status === 404) return { status: "failed", runId, error: `${what} is not on this account any more (deleted?)` };
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
    const { data, error } = await waitForRun({ client, runId: target.runId, signal });
    if (error) return endOfWait(error, target.runId, `run ${target.runId}`);
    return { status: "completed", runId: data.runId ?? target.runId, result: data.result ?? null };
  }
  const { data, error } = await waitForRun({ client, batchId: target.batchId, signal });
  if (error) return endOfWait(error, null, `batch ${target.batchId}`);
  const step = data.runs[target.index];
  if (!step)
    return { status: "unknown", runId: null, error: `batch ${target.batchId} has no run ${target.index}: resume to look for it among the script's runs` };
  return step.status === "completed"
    ? { status: "completed", runId: step.runId, result: step.result ?? null }
    : {
        status: "failed",
        runId: step.runId,
        error: step.externalMessage ? `${step.error ?? step.status} (${step.externalMessage})` : (step.error ?? step.status),
        ...(step.errorType ? { errorType: step.errorType } : {}),
      };
}

/** A run at the service, as a lookup sees it. */
export interface FoundRun {
  id: string;
  startedAt: number;
  args: unknown;
}

/**
 * The script's runs that started at or after `since` (ms), newest first, from `listRuns`
 * filtered by the script's id; `undefined` when the list could not be read.
 *
 * @example
 * const runs = await runsSince(client, script.scriptId, Date.parse(sendingAt));
 */
export async function runsSince(client: ReduckClient, scriptId: string, since: number, signal?: AbortSignal): Promise<FoundRun[] | undefined> {
  const found: FoundRun[] = [];
  for (let page = 0; ; page++) {
    const list = await listRuns({ client, query: { script_id: scriptId, page, pageSize: 100 }, signal });
    if (list.error) return undefined;
    for (const run of list.data) {
      const startedAt = Date.parse(run.started_at);
      if (startedAt < since) return found;
      found.push({ id: run.id, startedAt, args: run.args });
    }
    if (!list.hasNextPage) return found;
  }
}
