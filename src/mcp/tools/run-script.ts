/**
 * run_script and read_run_results: run one script or several on the browser asked for, wait
 * for the outcome as long as a call may hold, and hand back the run's handle when it is still
 * going.
 *
 * Names follow the hosted tool's where it has one (`host`, `slug`, `handle`, `version_id`,
 * `relativePath`, `runId`, `batchId`, `fullOutput`, `waitForSeconds`, `deviceId`) and are
 * camelCase otherwise; a script is named by its `address` everywhere one is shown, and may be
 * given by `address` everywhere one is taken.
 */
import type { FileHandle } from "node:fs/promises";
import { getMe, getScript } from "../../generated/operations.js";
import { isPendingRun, isRunFailure, type PendingRun, type RunError, type RunStatusUpdate } from "../../run/outcomes.js";
import { runScript, type RunBrowser, type ScriptToRun } from "../../run/run.js";
import { waitForRun } from "../../run/wait.js";
import { fail, failWith, type ToolContext, type ToolResult } from "../shared/answers.js";
import { unknownScript, unknownVersionHint, type ScriptPath } from "../shared/naming.js";
import { handleAnswer, outcomeAnswer, runErrorAnswer, type Shown } from "../shared/run-answers.js";
import { bindFiles } from "../shared/run-files.js";
import type { Input } from "../shared/tool-schemas.js";
import { DEFAULT_HOLD_MS, startProgress, type CallExtra } from "../shared/waiting.js";

/**
 * Where the run goes, from `browser` and its `deviceId` shorthand, or why that cannot be: the
 * two disagree, or `"local"`, a kind of paired browser the public run API does not pick by kind.
 */
function runTarget(input: Input<"runScriptInput">): RunBrowser | { problem: string } {
  const { browser, deviceId } = input;
  if (deviceId !== undefined) {
    if (browser === undefined || (typeof browser === "object" && browser.deviceId === deviceId)) return { deviceId };
    return {
      problem: `give browser or deviceId, not both: deviceId ${JSON.stringify(deviceId)} is shorthand for browser: { deviceId: ${JSON.stringify(deviceId)} }`,
    };
  }
  if (browser === "local") {
    return {
      problem:
        'browser "local" (a browser paired by the official CLI\'s `reduck local`) is not picked by kind by this server: call list_devices and give its id as deviceId, or use "extension" (your paired Chrome) or "cloud"',
    };
  }
  return browser ?? "extension";
}

export async function runScriptTool(ctx: ToolContext, input: Input<"runScriptInput">, extra: CallExtra = {}): Promise<ToolResult> {
  if ((input.script === undefined) === (input.scripts === undefined))
    return fail("Give exactly one of script (one run: script: { address, args }) or scripts (several: scripts: [{ address, args }, ...]).");
  const target = runTarget(input);
  if (typeof target === "object" && "problem" in target) return fail(target.problem);
  const onOwnBrowser = target !== "managed" && target !== "cloud";
  const steps = input.script ? [input.script] : input.scripts!;
  const opened: FileHandle[] = [];
  try {
    const bound: ScriptToRun[] = [];
    for (const [i, step] of steps.entries()) {
      const result = await bindFiles(ctx, step, onOwnBrowser, opened);
      if (!result.ok) return fail(input.scripts ? `scripts[${i}]: ${result.message}` : result.message);
      bound.push(result.script);
    }
    const headers = { "X-Reduck-Source": "mcp" };
    const hold = input.waitForSeconds !== undefined ? input.waitForSeconds * 1000 : (ctx.holdMs ?? DEFAULT_HOLD_MS);
    const shown = { full: Boolean(input.fullOutput), holdMs: hold };
    const progress = startProgress(extra, hold);
    try {
      // The service holds the request at most as long as this call may wait; then it is polled.
      const waitForSeconds = Math.min(110, Math.max(1, Math.floor(hold / 1000)));
      const common = {
        client: ctx.client,
        browser: target,
        region: input.region,
        country: input.country,
        headers,
        wait: false as const,
        waitForSeconds,
        onStatus: progress.onStatus,
        signal: extra.signal,
      };
      const first = input.script
        ? await runScript({ ...common, script: bound[0]! })
        : await runScript({ ...common, scripts: bound, sequential: input.sequential });
      if (first.error && !isRunFailure(first.error) && input.script) {
        const refused = await refusedRun(ctx, bound[0]!, first.error);
        if (refused) return refused;
      }
      if (first.outcomes) return outcomeAnswer(first.outcomes, first, Boolean(input.script), shown);
      if (first.error) return runErrorAnswer(first.error);
      if (!isPendingRun(first.data)) return fail("The service's answer named no outcome and no run to wait on.");
      return await waitOrHandle(ctx, first.data, hold - progress.elapsed(), Boolean(input.script), shown, progress.onStatus, extra.signal);
    } finally {
      progress.stop();
    }
  } finally {
    // Handles opened for managed-browser uploads: the run has read them, or never will.
    await Promise.all(opened.map((handle) => handle.close().catch(() => undefined)));
  }
}

/**
 * A run of one script the service refused before it ran: a script it does not know (the scripts
 * most likely meant), a version that is not the script's (its versions); undefined otherwise.
 */
async function refusedRun(ctx: ToolContext, script: ScriptToRun, error: RunError): Promise<ToolResult | undefined> {
  const named = script.handle !== undefined;
  const handle = script.handle ?? (await getMe({ client: ctx.client })).data?.handle;
  if (!handle) return undefined;
  const path: ScriptPath = { handle, host: script.host, slug: script.slug };
  if (error.status === 404) return unknownScript(ctx, path, error, !named);
  const aboutVersion = error.variables?.version_id || /version/i.test(error.error);
  if (script.version_id && error.status === 400 && aboutVersion) return failWith(error, await unknownVersionHint(ctx, path, script.version_id));
  if (error.code !== "run_refused") return undefined;
  // The service refused the script as a step, with no status to tell why: the script is read to tell.
  const read = await getScript({ client: ctx.client, path });
  if (read.error?.status === 404) return unknownScript(ctx, path, error, !named);
  if (script.version_id && aboutVersion) return failWith(error, await unknownVersionHint(ctx, path, script.version_id));
  return undefined;
}

/**
 * read_run_results: waits (up to the hold) for a run or batch run_script handed back, and gives
 * its outcome, or the handle again when it is still going.
 */
export async function readRunResultsTool(ctx: ToolContext, input: Input<"readRunResultsInput">, extra: CallExtra = {}): Promise<ToolResult> {
  if ((input.runId === undefined) === (input.batchId === undefined))
    return fail("Give exactly one of runId (one run) or batchId (every script of a batch), as run_script gave them.");
  const hold = ctx.holdMs ?? DEFAULT_HOLD_MS;
  const progress = startProgress(extra, hold);
  try {
    const pending: PendingRun = input.batchId ? { status: "running", batchId: input.batchId } : { status: "running", runId: input.runId };
    return await waitOrHandle(ctx, pending, hold, false, { full: Boolean(input.fullOutput), holdMs: hold }, progress.onStatus, extra.signal);
  } finally {
    progress.stop();
  }
}

/** Waits on a pending run for up to `leftMs`, then answers with its outcome or its handle. */
async function waitOrHandle(
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
