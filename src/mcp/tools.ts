/**
 * The agent tool's tools. Each answers with JSON, both as text and as `structuredContent`
 * matching its output schema; a failure is a tool error whose text is the service's message,
 * so an agent can read it and act.
 *
 * Names follow the hosted tool's where it has one (`host`, `slug`, `handle`, `version_id`,
 * `relativePath`, `runId`, `batchId`) and are camelCase otherwise; a script is named by its
 * `address` everywhere one is shown, and may be given by `address` everywhere one is taken.
 */
import type { FileHandle } from "node:fs/promises";
import type { ReduckClient } from "../client.js";
import type { ReduckError } from "../core/errors.js";
import { getMe, getScript, getScriptVersion, listAllScripts, listRuns, listScripts } from "../generated/operations.js";
import { runScript, type ScriptToRun, type RunBrowser } from "../run/run.js";
import { isPendingRun, isRunFailure, type BatchRunResponse, type PendingRun, type RunError, type RunResponse } from "../run/outcomes.js";
import { waitForRun } from "../run/wait.js";
import { DEFAULT_HOLD_MS, startProgress, type CallExtra } from "./waiting.js";
import type { FileSource } from "../run/files.js";
import { readAddress } from "../core/address.js";
import { bareSlugHint, unknownHandleHint, unknownScriptHint } from "../core/nearby-scripts.js";
import { fileInputs as fileInputsOf } from "../core/arguments.js";
import { jsonSchemaOf } from "../core/json.js";
import { checkNamedFile } from "./folder.js";
import { recordRunStatus, toolRunStatus } from "./run-status.js";
import { withoutExtensions } from "./schema-clean.js";

export interface ToolContext {
  client: ReduckClient;
  /** Absolute path of the service folder (`<desktop>/reduck`). */
  folder: string;
  /**
   * How long run_script and read_run_results wait before answering with the run's handle:
   * MCP clients give up on a call after about 60 s. 45 s unless set (tests set it short).
   */
  holdMs?: number;
}

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const answer = (value: Record<string, unknown>, isError = false): ToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
  structuredContent: value,
  ...(isError ? { isError } : {}),
});
const fail = (message: string): ToolResult => ({ content: [{ type: "text", text: message }], isError: true });
const failWith = (error: ReduckError & { runId?: string }): ToolResult => fail(error.runId ? `${error.error} (run ${error.runId})` : error.error);

/** `message.`, ended once, then the hint. */
const withHint = (message: string, hint: string | undefined) => (hint ? `${/[.!?]$/.test(message) ? message : `${message}.`} ${hint}` : message);

/** A name that is no address: for a bare slug (`send_email`), with the addresses of the scripts of that slug. */
async function nameProblem(ctx: ToolContext, ref: { address?: string }, problem: string): Promise<string> {
  const slug = ref.address !== undefined && /^[a-z0-9_-]{1,64}$/.test(ref.address) ? ref.address : undefined;
  return withHint(problem, slug ? await bareSlugHint(ctx.client, slug) : undefined);
}

/** A script the service does not know: its error, with the scripts it most likely meant. */
async function unknownScript(ctx: ToolContext, name: ScriptName, error: ReduckError): Promise<ToolResult> {
  const handle = name.handle ?? (await ownHandle(ctx));
  if (typeof handle !== "string") return failWith(error);
  return fail(withHint(error.error, await unknownScriptHint(ctx.client, { handle, host: name.host, slug: name.slug, ownImplied: !name.handle })));
}

export { toolSchemas } from "./tool-schemas.js";
import type { Input, ScriptRefInput } from "./tool-schemas.js";

interface ScriptName {
  /** Undefined: the caller's own scripts. */
  handle?: string;
  host: string;
  slug: string;
}

/** The script an agent named, by `address` or by `host` + `slug` (+ `handle`). */
function scriptName(ref: { address?: string; host?: string; slug?: string; handle?: string }): ScriptName | { problem: string } {
  const example = 'e.g. address: "reduck/mail.google.com/send_email"';
  if (ref.address !== undefined) {
    if (ref.host !== undefined || ref.slug !== undefined || ref.handle !== undefined) {
      return { problem: `give the script's address, or host and slug (and handle), not both (${example})` };
    }
    return readAddress(ref.address);
  }
  if (ref.host === undefined || ref.slug === undefined) {
    return { problem: `name the script by its address, or by host and slug (${example})` };
  }
  return { handle: ref.handle, host: ref.host, slug: ref.slug };
}

const addressOf = (s: { handle: string; host: string; slug: string }) => `${s.handle}/${s.host}/${s.slug}`;

/** Turns the agent's named files into what the run sends, refusing unsafe names before any request. */
async function bindFiles(
  ctx: ToolContext,
  script: ScriptRefInput,
  onOwnBrowser: boolean,
  opened: FileHandle[],
): Promise<{ ok: true; script: ScriptToRun } | { ok: false; message: string }> {
  const name = scriptName(script);
  if ("problem" in name) return { ok: false, message: await nameProblem(ctx, script, name.problem) };
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

export async function runScriptTool(ctx: ToolContext, input: Input<"runScriptInput">, extra: CallExtra = {}): Promise<ToolResult> {
  if ((input.script === undefined) === (input.scripts === undefined)) return fail("Give exactly one of script (one run) or scripts (several).");
  const target: RunBrowser = input.browser ?? "extension";
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
    const hold = ctx.holdMs ?? DEFAULT_HOLD_MS;
    const progress = startProgress(extra, hold);
    try {
      // The service holds the request at most as long as this call may wait; then it is polled.
      const waitForSeconds = Math.min(110, Math.max(1, Math.floor(hold / 1000)));
      const common = { client: ctx.client, browser: target, headers, wait: false as const, waitForSeconds, onStatus: progress.onStatus, signal: extra.signal };
      const first = input.script
        ? await runScript({ ...common, script: bound[0]! })
        : await runScript({ ...common, scripts: bound, sequential: input.sequential });
      if (first.error && !isRunFailure(first.error) && first.error.status === 404 && input.script) {
        const name = scriptName(input.script);
        if (!("problem" in name)) return await unknownScript(ctx, name, first.error);
      }
      if (first.error) return runErrorAnswer(first.error);
      if (!isPendingRun(first.data)) return outcomeAnswer(first.data, Boolean(input.script));
      return await waitOrHandle(ctx, first.data, hold - progress.elapsed(), Boolean(input.script), progress.onStatus, extra.signal);
    } finally {
      progress.stop();
    }
  } finally {
    // Handles opened for managed-browser uploads: the run has read them, or never will.
    await Promise.all(opened.map((handle) => handle.close().catch(() => undefined)));
  }
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
    return await waitOrHandle(ctx, pending, hold, false, progress.onStatus, extra.signal);
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
  onStatus: (u: import("../run/outcomes.js").RunStatusUpdate) => void,
  signal: AbortSignal | undefined,
): Promise<ToolResult> {
  let latest = pending;
  const track = (u: import("../run/outcomes.js").RunStatusUpdate) => {
    if (u.status === "queued" || u.status === "running") latest = { ...latest, status: u.status, ...(u.runIds.length ? { runIds: u.runIds } : {}) };
    onStatus(u);
  };
  const options = { deadlineMs: Math.max(0, leftMs), onStatus: track, signal };
  const waited = pending.batchId
    ? await waitForRun({ client: ctx.client, batchId: pending.batchId }, options)
    : await waitForRun({ client: ctx.client, runId: pending.runId! }, options);
  if (waited.error?.kind === "timeout" && (waited.error.batchId || waited.error.runId)) return handleAnswer(latest, ctx.holdMs ?? DEFAULT_HOLD_MS);
  if (waited.error) return runErrorAnswer(waited.error);
  return outcomeAnswer(waited.data, single || !("runs" in waited.data));
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

/** A finished run's outcome in the hosted tool's shape; one script's batch of one as that script. */
function outcomeAnswer(data: RunResponse | BatchRunResponse, single: boolean): ToolResult {
  if ("runs" in data) {
    const only = data.runs[0];
    if (single && data.runs.length === 1 && only) {
      const { status, ...rest } = only;
      if (status === "completed") return answer({ status, runId: only.runId, result: only.result });
      return answer({ status: "failed", ...rest, ...(data.batchId ? { batchId: data.batchId } : {}) }, true);
    }
    return answer({ ...data });
  }
  return answer({ status: "completed", runId: data.runId, result: data.result });
}

/** A run that was recorded and failed answers in the same shape as one that completed. */
function runErrorAnswer(error: RunError): ToolResult {
  if (isRunFailure(error)) {
    return answer(
      {
        status: "failed",
        runId: error.runId,
        error: error.error,
        ...(error.errorType ? { errorType: error.errorType } : {}),
        ...(error.externalMessage ? { externalMessage: error.externalMessage } : {}),
        ...(error.batchId ? { batchId: error.batchId } : {}),
      },
      true,
    );
  }
  return failWith(error);
}

export async function listScriptsTool(ctx: ToolContext, input: Input<"listScriptsInput">): Promise<ToolResult> {
  const query = { host: input.host, q: input.q, page: input.page, pageSize: input.pageSize };
  const result = input.handle
    ? await listScripts({ client: ctx.client, path: { handle: input.handle }, query })
    : await listAllScripts({ client: ctx.client, query });
  // An owner the service does not know: the handles it most likely meant, as the CLI says them.
  if (result.error?.status === 404 && input.handle) return fail(withHint(result.error.error, await unknownHandleHint(ctx.client, input.handle)));
  if (result.error) return failWith(result.error);
  return answer({
    scripts: result.data.map((s) => ({
      address: addressOf({ handle: s.author.handle, host: s.host, slug: s.slug }),
      name: s.name,
      description: s.description,
      visibility: s.visibility,
      ...(s.current_version ? { sideEffects: s.current_version.side_effects } : {}),
    })),
    page: input.page ?? 0,
    hasNextPage: result.hasNextPage,
    totalCount: result.totalCount,
  });
}

export async function readScriptTool(ctx: ToolContext, input: Input<"readScriptInput">): Promise<ToolResult> {
  const name = scriptName(input);
  if ("problem" in name) return fail(await nameProblem(ctx, input, name.problem));
  const handle = name.handle ?? (await ownHandle(ctx));
  if (typeof handle !== "string") return handle;
  const path = { handle, host: name.host, slug: name.slug };
  let version: { input_schema?: unknown; output_schema?: unknown; logged_in?: boolean; side_effects?: string; id?: string } | null;
  let meta: Record<string, unknown> = {};
  if (input.version_id) {
    const r = await getScriptVersion({ client: ctx.client, path: { ...path, versionId: input.version_id } });
    if (r.error) return failWith(r.error);
    version = r.data;
  } else {
    const r = await getScript({ client: ctx.client, path });
    if (r.error?.status === 404) return unknownScript(ctx, name, r.error);
    if (r.error) return failWith(r.error);
    version = r.data.current_version as typeof version;
    meta = { name: r.data.name, description: r.data.description, visibility: r.data.visibility, archived: r.data.archived_at !== null };
  }
  const input_schema = jsonSchemaOf(withoutExtensions(version?.input_schema ?? {})) ?? {};
  const required = Array.isArray(input_schema.required) ? input_schema.required : [];
  const fileInputs = fileInputsOf(input_schema).map((name) => ({ name, required: required.includes(name) }));
  return answer({
    address: addressOf(path),
    ...meta,
    versionId: version?.id,
    loggedIn: version?.logged_in,
    sideEffects: version?.side_effects,
    input: input_schema,
    output: withoutExtensions(version?.output_schema),
    fileInputs,
    howToPassFiles: fileInputs.length ? 'Put the file in the reduck folder on the desktop and pass files: { <input>: { relativePath: "<name>" } }.' : undefined,
  });
}

export async function listRunsTool(ctx: ToolContext, input: Input<"listRunsInput">): Promise<ToolResult> {
  const query = { page: input.page, pageSize: input.pageSize, status: input.status && recordRunStatus(input.status) };
  const r = await listRuns({ client: ctx.client, query });
  if (r.error) return failWith(r.error);
  return answer({
    runs: r.data.map((run) => ({
      runId: run.id,
      status: toolRunStatus(run.status),
      address: run.script ? addressOf(run.script) : null,
      name: run.name,
      startedAt: run.started_at,
      finishedAt: run.finished_at,
      ...(run.result && "error" in run.result ? { error: run.result.error } : {}),
    })),
    hasNextPage: r.hasNextPage,
    totalCount: r.totalCount,
  });
}

export async function whoamiTool(ctx: ToolContext): Promise<ToolResult> {
  const r = await getMe({ client: ctx.client });
  if (r.error) return failWith(r.error);
  const { name, email, handle, projects, usage } = r.data;
  const period = usage && { browserMinutes: usage.browser_minutes, proxyMb: usage.proxy_mb, runs: usage.runs, periodEnd: usage.period_end };
  return answer({ name, email, handle, projects, usage: period, filesFolder: ctx.folder });
}

async function ownHandle(ctx: ToolContext): Promise<string | ToolResult> {
  const me = await getMe({ client: ctx.client });
  if (me.error) return failWith(me.error);
  if (!me.data.handle) return fail("Your account has no username yet: give the script's handle.");
  return me.data.handle;
}
