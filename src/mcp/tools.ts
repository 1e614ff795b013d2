/**
 * The agent tool's tools that run scripts and read the catalogue and the runs. Each answers with
 * JSON, both as text and as `structuredContent` matching its output schema; a failure is a tool
 * error whose one line says what to do (answers.ts).
 *
 * Names follow the hosted tool's where it has one (`host`, `slug`, `handle`, `version_id`,
 * `relativePath`, `runId`, `batchId`, `fullOutput`, `waitForSeconds`, `deviceId`) and are
 * camelCase otherwise; a script is named by its `address` everywhere one is shown, and may be
 * given by `address` everywhere one is taken.
 */
import type { FileHandle } from "node:fs/promises";
import { fileInputs as fileInputsOf } from "../core/arguments.js";
import { isIdOf } from "../core/id-shapes.js";
import { jsonSchemaOf } from "../core/json.js";
import { getMe, getScript, getScriptVersion, listAllScripts, listRuns, listScripts } from "../generated/operations.js";
import type { FileSource } from "../run/files.js";
import {
  isPendingRun,
  isRunFailure,
  type BatchRunResponse,
  type PendingRun,
  type RunError,
  type RunStatusUpdate,
  type RunStepOutcome,
} from "../run/outcomes.js";
import { runScript, type RunBrowser, type ScriptToRun } from "../run/run.js";
import { waitForRun } from "../run/wait.js";
import { answer, fail, failWith, type ToolContext, type ToolResult } from "./answers.js";
import { boundJson, cutText, oneLine, shownText } from "./bounded.js";
import { checkNamedFile } from "./folder.js";
import { DEFAULT_PAGE_SIZE, DOCUMENT_CHARS, FULL_RESULT_CHARS, MESSAGE_CHARS, RESULT_CHARS, SCHEMA_CHARS } from "./limits.js";
import {
  addressOf,
  nameProblem,
  notAnId,
  scriptCallFailed,
  scriptName,
  scriptPath,
  unknownHandle,
  unknownScript,
  unknownVersionHint,
  type ScriptPath,
} from "./naming.js";
import { pageOf } from "./paging.js";
import { recordRunStatus, toolRunStatus } from "./run-status.js";
import { withoutExtensions } from "./schema-clean.js";
import type { Input, ScriptRefInput } from "./tool-schemas.js";
import { DEFAULT_HOLD_MS, startProgress, type CallExtra } from "./waiting.js";

export { toolSchemas } from "./tool-schemas.js";
export type { ToolContext, ToolResult } from "./answers.js";

/** Turns the agent's named files into what the run sends, refusing unsafe names before any request. */
async function bindFiles(
  ctx: ToolContext,
  script: ScriptRefInput,
  onOwnBrowser: boolean,
  opened: FileHandle[],
): Promise<{ ok: true; script: ScriptToRun } | { ok: false; message: string }> {
  const name = scriptName(script);
  if ("problem" in name) return { ok: false, message: await nameProblem(ctx, script, name.problem) };
  if (script.version_id !== undefined && !isIdOf("version id", script.version_id)) {
    return { ok: false, message: notAnId(script.version_id, "version id", "list_script_versions lists a script's versions") };
  }
  const files: Record<string, FileSource> = {};
  for (const [input, binding] of Object.entries(script.files ?? {})) {
    const check = await checkNamedFile(ctx.folder, binding.relativePath);
    if (!check.ok) return { ok: false, message: `file input ${input}: ${check.message}` };
    if (onOwnBrowser) {
      if (!check.file) return { ok: false, message: missingOnOwnBrowser(ctx, input, binding.relativePath) };
      // The caller's browser reads it from the folder and it keeps its own name.
      await check.file.handle.close();
      files[input] = { relativePath: binding.relativePath };
    } else {
      // A managed browser can't read this machine: send the bytes instead, read from the
      // handle that was checked (opening the path again could be raced to a file outside).
      if (!check.file) return { ok: false, message: `bound 0 bytes — could not read ${binding.relativePath} in ${ctx.folder}` };
      opened.push(check.file.handle);
      files[input] = { handle: check.file.handle, name: binding.relativePath };
    }
  }
  const { files: _named, address: _address, host: _host, slug: _slug, handle: _handle, ...rest } = script;
  return { ok: true, script: { ...name, ...rest, ...(Object.keys(files).length ? { files } : {}) } };
}

/**
 * Checked here, before a run is spent: the paired browser reads the same folder, because it
 * normally runs on this machine. (A browser paired on another machine would see its own
 * desktop; the message says what was looked at.)
 */
function missingOnOwnBrowser(ctx: ToolContext, input: string, relativePath: string): string {
  // The documented text begins "bound 0 bytes — the browser could not read"; ours says why after it.
  return (
    `bound 0 bytes — the browser could not read ${JSON.stringify(relativePath)} for file input ${input}: there is no such file in ${ctx.folder}, so nothing was run. ` +
    "Your own browser reads named files from the reduck folder on its machine's desktop, normally this machine, where this server looked: " +
    "put the file there or correct the name."
  );
}

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
  if (script.version_id && error.status === 400 && (error.variables?.version_id || /version/i.test(error.error))) {
    return failWith(error, await unknownVersionHint(ctx, path, script.version_id));
  }
  return undefined;
}

/**
 * read_run_results: waits (up to the hold) for a run or batch run_script handed back, and gives
 * its outcome, or the handle again when it is still going.
 */
export async function readRunResultsTool(ctx: ToolContext, input: Input<"readRunResultsInput">, extra: CallExtra = {}): Promise<ToolResult> {
  if ((input.runId === undefined) === (input.batchId === undefined))
    return fail("Give exactly one of runId (one run) or batchId (every script of a batch), as run_script gave them.");
  const id = input.runId ?? input.batchId!;
  if (!isIdOf(input.runId ? "run id" : "batch id", id))
    return fail(notAnId(id, input.runId ? "run id" : "batch id", "run_script gives them; list_runs lists runs"));
  const hold = ctx.holdMs ?? DEFAULT_HOLD_MS;
  const progress = startProgress(extra, hold);
  try {
    const pending: PendingRun = input.batchId ? { status: "running", batchId: input.batchId } : { status: "running", runId: input.runId };
    return await waitOrHandle(ctx, pending, hold, false, { full: Boolean(input.fullOutput), holdMs: hold }, progress.onStatus, extra.signal);
  } finally {
    progress.stop();
  }
}

/** How an outcome is shown: results whole (`fullOutput`) or shortened, and the hold a handle's `next` names. */
interface Shown {
  full: boolean;
  holdMs: number;
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

/** A run still going: its handle, and the one call that gets its outcome. */
function handleAnswer(pending: PendingRun, holdMs: number): ToolResult {
  const id = pending.batchId ? { batchId: pending.batchId } : { runId: pending.runId! };
  const { retryAfterMs: _wait, ...handle } = pending;
  return answer({
    ...handle,
    next: `Still ${pending.status} at the service (nothing is lost, do not run it again). Call read_run_results with ${JSON.stringify(id)} to get the outcome; it waits up to ${Math.round(holdMs / 1000)} s and may hand back this handle again.`,
  });
}

/** Results shortened to what one answer carries, and the sentence that says so when anything was cut. */
function shownResults<T extends { result?: unknown }>(runs: T[], full: boolean): { runs: T[]; shortened?: string } {
  const total = full ? FULL_RESULT_CHARS : RESULT_CHARS;
  const each = Math.max(2_000, Math.floor(total / Math.max(1, runs.length)));
  let cut = false;
  const out = runs.map((run) => {
    if (!("result" in run)) return run;
    const bounded = boundJson(run.result, each);
    cut ||= bounded.cut;
    return { ...run, result: bounded.value };
  });
  if (!cut) return { runs: out };
  return {
    runs: out,
    shortened: full
      ? `A result was longer than ${each.toLocaleString("en")} characters of JSON and was shortened even with fullOutput (long strings and lists cut where marked "…").`
      : `A result was longer than ${each.toLocaleString("en")} characters of JSON and was shortened (long strings and lists cut where marked "…"): call read_run_results with its runId and fullOutput: true for the whole result.`,
  };
}

/** The sentence that says where to look when a run failed: its browser, or its trace. */
const traceHint = (runId: string | null | undefined, errorType?: string) =>
  errorType === "browser_unavailable"
    ? 'list_devices shows your paired browsers and their ids; browser: "cloud" runs on a hosted one.'
    : runId
      ? `read_run_trace with { "runId": "${runId}" } shows the steps it took and a screenshot of the page where it stopped.`
      : undefined;

/** The service's text about a failure, bounded. */
const failureFields = (f: { error?: string; errorType?: string; externalMessage?: string }) => ({
  ...(f.error !== undefined ? { error: shownText(f.error, MESSAGE_CHARS) } : {}),
  ...(f.errorType ? { errorType: shownText(f.errorType, 200) } : {}),
  ...(f.externalMessage ? { externalMessage: shownText(f.externalMessage, MESSAGE_CHARS) } : {}),
});

/**
 * How the runs ended, from the library's outcomes (one per script, a single script's failure
 * included), in the hosted tool's shape; one script's batch of one as that script.
 */
function outcomeAnswer(outcomes: RunStepOutcome[], ended: { data?: unknown; error?: RunError }, single: boolean, shown: Shown): ToolResult {
  const batch = isBatch(ended.data) ? (({ runs: _, ...fields }) => fields)(ended.data) : undefined;
  const batchId = batch?.batchId ?? ended.error?.batchId;
  const only = outcomes[0];
  if (single && outcomes.length === 1 && only) {
    if (only.status === "completed") return completedAnswer(only.runId ?? undefined, only.result, shown);
    const next = traceHint(only.runId, only.errorType);
    return answer({ status: "failed", runId: only.runId, ...failureFields(only), ...(batchId ? { batchId } : {}), ...(next ? { next } : {}) }, true);
  }
  const { runs, shortened } = shownResults(
    outcomes.map((run) => ({ ...run, ...failureFields(run) })),
    shown.full,
  );
  const failed = runs.find((r) => r.status === "failed" && r.runId);
  const next = failed ? traceHint(failed.runId, failed.errorType) : undefined;
  return answer({ ...batch, runs, ...(shortened ? { shortened } : {}), ...(next ? { next } : {}) });
}

const isBatch = (data: unknown): data is BatchRunResponse => typeof data === "object" && data !== null && "runs" in data;

function completedAnswer(runId: string | undefined, result: unknown, shown: Shown): ToolResult {
  const { runs, shortened } = shownResults([{ result }], shown.full);
  return answer({ status: "completed", runId, result: runs[0]!.result, ...(shortened ? { shortened } : {}) });
}

/** A run that was recorded and failed answers in the same shape as one that completed. */
function runErrorAnswer(error: RunError): ToolResult {
  if (isRunFailure(error)) {
    const next = traceHint(error.runId, error.errorType);
    return answer(
      {
        status: "failed",
        runId: error.runId,
        ...failureFields(error),
        ...(error.batchId ? { batchId: error.batchId } : {}),
        ...(next ? { next } : {}),
      },
      true,
    );
  }
  return failWith(error);
}

export async function listScriptsTool(ctx: ToolContext, input: Input<"listScriptsInput">): Promise<ToolResult> {
  const query = { host: input.host, q: input.q, page: input.page, pageSize: input.pageSize ?? DEFAULT_PAGE_SIZE };
  const result = input.handle
    ? await listScripts({ client: ctx.client, path: { handle: input.handle }, query })
    : await listAllScripts({ client: ctx.client, query });
  // An owner the service does not know: the handles it most likely meant, as the CLI says them.
  if (result.error?.status === 404 && input.handle) return unknownHandle(ctx, input.handle, result.error);
  if (result.error) return failWith(result.error);
  const paging = pageOf("list_scripts", "scripts", input, result);
  if ("content" in paging) return paging;
  return answer({
    scripts: result.data.map((s) => ({
      address: addressOf({ handle: s.author.handle, host: s.host, slug: s.slug }),
      name: shownText(s.name, 200),
      description: shownText(s.description, 500),
      visibility: s.visibility,
      ...(s.current_version ? { sideEffects: s.current_version.side_effects } : {}),
    })),
    ...paging,
  });
}

export async function readScriptTool(ctx: ToolContext, input: Input<"readScriptInput">): Promise<ToolResult> {
  const named = await scriptPath(ctx, input);
  if ("content" in named) return named;
  const { path, ownImplied } = named;
  let version: {
    input_schema?: unknown;
    output_schema?: unknown;
    logged_in?: boolean;
    side_effects?: string;
    id?: string;
    content?: string;
  } | null;
  let meta: Record<string, unknown> = {};
  if (input.version_id) {
    if (!isIdOf("version id", input.version_id))
      return fail(notAnId(input.version_id, "version id", `list_script_versions with address: "${addressOf(path)}" lists them`));
    const r = await getScriptVersion({ client: ctx.client, path: { ...path, versionId: input.version_id } });
    if (r.error) return scriptCallFailed(ctx, path, r.error, { ownImplied, versionHint: () => unknownVersionHint(ctx, path, input.version_id!) });
    version = r.data;
  } else {
    const r = await getScript({ client: ctx.client, path });
    if (r.error?.status === 404) return unknownScript(ctx, path, r.error, ownImplied);
    if (r.error) return failWith(r.error);
    version = r.data.current_version as typeof version;
    meta = {
      name: shownText(r.data.name, 200),
      description: shownText(r.data.description, MESSAGE_CHARS),
      visibility: r.data.visibility,
      archived: r.data.archived_at !== null,
    };
    if (input.code && version?.id && version.content === undefined) {
      // The script's answer may carry its current version as a summary: the code is read from the version.
      const full = await getScriptVersion({ client: ctx.client, path: { ...path, versionId: version.id } });
      if (!full.error) version = full.data;
    }
  }
  const schema = (value: unknown) => boundJson(withoutExtensions(value ?? {}), SCHEMA_CHARS).value;
  const input_schema = jsonSchemaOf(schema(version?.input_schema)) ?? {};
  const required = Array.isArray(input_schema.required) ? input_schema.required : [];
  const fileInputs = fileInputsOf(input_schema).map((name) => ({ name, required: required.includes(name) }));
  return answer({
    address: addressOf(path),
    ...meta,
    versionId: version?.id ?? null,
    loggedIn: version?.logged_in,
    sideEffects: version?.side_effects,
    input: input_schema,
    output: version?.output_schema === undefined ? undefined : schema(version.output_schema),
    fileInputs,
    howToPassFiles: fileInputs.length ? 'Put the file in the reduck folder on the desktop and pass files: { <input>: { relativePath: "<name>" } }.' : undefined,
    ...(input.code && typeof version?.content === "string" ? { content: cutText(version.content, DOCUMENT_CHARS) } : {}),
  });
}

export async function listRunsTool(ctx: ToolContext, input: Input<"listRunsInput">): Promise<ToolResult> {
  const query = { page: input.page, pageSize: input.pageSize ?? DEFAULT_PAGE_SIZE, status: input.status && recordRunStatus(input.status) };
  const r = await listRuns({ client: ctx.client, query });
  if (r.error) return failWith(r.error);
  const paging = pageOf("list_runs", "runs", input, r);
  if ("content" in paging) return paging;
  return answer({
    runs: r.data.map((run) => ({
      runId: run.id,
      status: toolRunStatus(run.status),
      address: run.script ? addressOf(run.script) : null,
      versionId: run.script?.version_id ?? null,
      name: shownText(run.name, 200),
      startedAt: run.started_at,
      finishedAt: run.finished_at,
      ...(run.result && "error" in run.result ? { error: oneLine(run.result.error, 500) } : {}),
    })),
    ...paging,
  });
}

export async function whoamiTool(ctx: ToolContext): Promise<ToolResult> {
  const r = await getMe({ client: ctx.client });
  if (r.error) return failWith(r.error);
  const { name, email, handle, projects, usage } = r.data;
  const period = usage && { browserMinutes: usage.browser_minutes, proxyMb: usage.proxy_mb, runs: usage.runs, periodEnd: usage.period_end };
  return answer({
    name: shownText(name, 200),
    email: shownText(email, 320),
    handle,
    projects: projects.slice(0, 100).map((p) => ({ handle: shownText(p.handle, 100), name: shownText(p.name, 200), role: shownText(p.role, 50) })),
    usage: period && boundJson(period, 2_000).value,
    filesFolder: ctx.folder,
  });
}
