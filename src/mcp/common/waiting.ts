/**
 * How the agent tool waits on a long run. MCP clients give up on a call after about 60 s, so a
 * call waits at most a hold (45 s) and then answers with the run's handle; meanwhile, when the
 * client asked for progress (a progress token), it is told how the run goes, a few times a
 * minute and at every poll, which also tells clients that reset their timeout on progress.
 */
import type { PendingRun, RunStatusUpdate } from "../../run/outcomes.js";
import { waitForRun } from "../../run/wait.js";
import { fail, type ToolContext, type ToolResult } from "./answers.js";
import { handleAnswer, outcomeAnswer, runErrorAnswer, type Shown } from "./run-answers.js";

export const DEFAULT_HOLD_MS = 45_000;

/** What a tool call brings besides its arguments (from the SDK's `extra`). */
export interface CallExtra {
  /** Aborts when the client cancels the call. */
  signal?: AbortSignal;
  /** Sends one `notifications/progress` for this call; absent when the client gave no progress token. */
  progress?: (params: { progress: number; total?: number; message?: string }) => Promise<void>;
}

/**
 * The SDK's `extra` as a CallExtra: progress only when the client asked for it (the SDK gives
 * `extra._meta.progressToken` only when the client's request carried one).
 */
export function callExtra(
  extra: { signal?: AbortSignal; _meta?: { progressToken?: string | number }; sendNotification?: (n: any) => Promise<void> } | undefined,
): CallExtra {
  const token = extra?._meta?.progressToken;
  const send = extra?.sendNotification;
  return {
    signal: extra?.signal,
    progress:
      token === undefined || !send
        ? undefined
        : (params) => send({ method: "notifications/progress", params: { progressToken: token, ...params } }).catch(() => undefined),
  };
}

/** "1m12s", "8s". */
function elapsedText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s` : `${s}s`;
}

/**
 * Progress for one call: each status update at once, and a heartbeat between (every 5 s, or a
 * quarter of a short hold). `progress` is the seconds waited, which only grows, as MCP asks.
 */
export function startProgress(extra: CallExtra, holdMs: number) {
  const startedAt = Date.now();
  let last: RunStatusUpdate | undefined;
  let sent = -1;
  const send = () => {
    if (!extra.progress) return;
    const progress = Math.max(sent + 0.001, Math.round((Date.now() - startedAt) / 100) / 10);
    sent = progress;
    const counts = last ? ` ${last.completed + last.failed}/${last.total}` : "";
    void extra.progress({ progress, message: `${last?.status ?? "running"}${counts} · ${elapsedText(Date.now() - startedAt)}` });
  };
  const timer = extra.progress ? setInterval(send, Math.max(100, Math.min(5_000, holdMs / 4))) : undefined;
  timer?.unref();
  return {
    onStatus(update: RunStatusUpdate) {
      last = update;
      send();
    },
    elapsed: () => Date.now() - startedAt,
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}

/** Waits on a pending run for up to `leftMs`, then answers with its outcome or its handle. */
export async function waitOrHandle(
  ctx: ToolContext,
  pending: PendingRun,
  leftMs: number,
  single: boolean,
  shown: Shown,
  onStatus: (u: RunStatusUpdate) => void,
  signal: AbortSignal | undefined,
): Promise<ToolResult> {
  let latest = pending;
  const track = (u: RunStatusUpdate) => {
    if (u.status === "queued" || u.status === "running") latest = { ...latest, status: u.status, ...(u.runIds.length ? { runIds: u.runIds } : {}) };
    onStatus(u);
  };
  const options = { client: ctx.client, deadlineMs: Math.max(0, leftMs), onStatus: track, signal };
  const waited = pending.batchId ? await waitForRun({ ...options, batchId: pending.batchId }) : await waitForRun({ ...options, runId: pending.runId! });
  if (waited.error?.kind === "timeout" && (waited.error.batchId || waited.error.runId)) return handleAnswer(latest, ctx.holdMs ?? DEFAULT_HOLD_MS);
  if (waited.outcomes) return outcomeAnswer(waited.outcomes, waited, single || !(waited.data && "runs" in waited.data), shown);
  if (waited.error) return runErrorAnswer(waited.error);
  return fail("The service's answer named no outcome.");
}
