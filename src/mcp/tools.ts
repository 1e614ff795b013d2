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
import type { z as Zod } from "zod";
import type { ReduckClient } from "../client.js";
import type { ReduckError } from "../core/errors.js";
import { getMe, getScript, getScriptVersion, listAllScripts, listRuns, listScripts } from "../generated/operations.js";
import { runScript, type ScriptToRun, type RunBrowser } from "../run/run.js";
import { isPendingRun, isRunFailure, type BatchRunResponse, type PendingRun, type RunError, type RunResponse } from "../run/outcomes.js";
import { waitForRun } from "../run/wait.js";
import { DEFAULT_HOLD_MS, startProgress, type CallExtra } from "./waiting.js";
import type { FileSource } from "../run/files.js";
import { readAddress } from "../core/address.js";
import { closest } from "../core/suggest.js";
import { checkNamedFile } from "./folder.js";
import { recordRunStatus, toolRunStatus, TOOL_RUN_STATUSES } from "./run-status.js";
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
const failWith = (error: ReduckError & { runId?: string }): ToolResult =>
  fail(error.runId ? `${error.error} (run ${error.runId})` : error.error);

/**
 * `unknown argument "browsr" (did you mean "browser"? the arguments here are ...)`. Written so
 * that the SDK's " at scripts[1]", appended for a nested object, still reads right.
 */
function unknownArgumentsMessage(keys: string[], accepted: string[]): string {
  const guesses = keys.flatMap((key) => {
    const meant = closest(key, accepted);
    return meant ? [`did you mean "${meant}"?`] : [];
  });
  const known = accepted.length ? `the arguments here are ${accepted.join(", ")}` : "this takes no arguments";
  const quoted = keys.map((key) => JSON.stringify(key)).join(", ");
  return `unknown argument${keys.length > 1 ? "s" : ""} ${quoted} (${[...guesses, known].join(" ")})`;
}

/**
 * The tools' input and output schemas, built from a zod handed in at start-up: importing zod
 * (and the MCP SDK) at the top would slow every CLI command's start-up, not just `reduck mcp`'s.
 */
export function toolSchemas(z: typeof Zod) {
  /**
   * Every input object refuses keys it does not know, as its JSON Schema says
   * (`additionalProperties: false`): a dropped `"browsr": "managed"` once ran a script in the
   * user's own browser. The refusal names the key and the closest known one.
   */
  const closed = <S extends Zod.ZodRawShape>(shape: S) =>
    z
      .object(shape, {
        errorMap: (issue, ctx) =>
          issue.code === "unrecognized_keys" ? { message: unknownArgumentsMessage(issue.keys, Object.keys(shape)) } : { message: ctx.defaultError },
      })
      .strict();

  // Schemas are built afresh where they recur: the JSON Schema conversion writes a repeated
  // instance as a "$ref", which not every MCP client resolves.
  const namedFile = () =>
    closed({
      relativePath: z
        .string()
        .describe("Path of the file inside the reduck folder on the desktop, e.g. \"invoice.pdf\" or \"2026/invoice.pdf\". No absolute paths, no \"..\"."),
    });

  /** How a script is named in what a tool takes: its address, or host, slug and handle. */
  const naming = () => ({
    address: z
      .string()
      .optional()
      .describe("The script's address as list_scripts shows it: \"reduck/mail.google.com/send_email\", \"@alice/x.com/post\", or \"host/slug\" for your own. Or give host, slug and handle instead."),
    host: z.string().optional().describe("The site the script targets, e.g. \"mail.google.com\" (with slug, instead of address)."),
    slug: z.string().optional().describe("The script's name on that host, e.g. \"send_email\" (with host, instead of address)."),
    handle: z.string().optional().describe("Owner, with host and slug: \"reduck\" for the official catalogue, \"@username\" for a person, a project handle. Omit for your own."),
  });

  const scriptRef = () =>
    closed({
      ...naming(),
      args: z.record(z.unknown()).optional().describe("The script's arguments by name (see read_script for its inputs)."),
      files: z
        .record(namedFile())
        .optional()
        .describe("File inputs by name (inputs with format \"file\" in read_script), each a file in the reduck folder: { attachment: { relativePath: \"banner.png\" } }."),
      version_id: z.string().optional().describe("Run this version instead of the current one."),
    });

  const browser = z
    .union([z.enum(["extension", "cloud", "managed"]), closed({ deviceId: z.string() })])
    .optional()
    .describe("\"extension\" (default): your own paired browser, which reads named files itself. \"cloud\" (or \"managed\", the same): a hosted browser; the file is then read here and uploaded, and arrives named after its input unless the script takes a name argument. { deviceId }: one paired browser.");

  const runScriptInput = closed({
    script: scriptRef().optional().describe("One script to run. Give this or scripts."),
    scripts: z.array(scriptRef()).min(1).max(20).optional().describe("Several scripts (up to 20), each in its own browser, results in order."),
    sequential: z.boolean().optional().describe("With scripts: run them in order in one browser, stopping at the first failure."),
    browser,
  });

  const readRunResultsInput = closed({
    runId: z.string().min(1).optional().describe("One run: the runId run_script gave (even one run of a batch)."),
    batchId: z.string().min(1).optional().describe("Every script of a batch: the batchId run_script gave."),
  });

  const listScriptsInput = closed({
    handle: z.string().optional().describe("Only this owner's scripts: \"reduck\" for the official catalogue, \"@username\", a project."),
    host: z.string().optional().describe("Only scripts for this site."),
    q: z.string().optional().describe("Search words."),
    page: z.number().int().min(0).optional().describe("Page, from 0."),
    pageSize: z.number().int().min(1).max(100).optional().describe("Scripts per page (default 20)."),
  });

  const readScriptInput = closed({
    ...naming(),
    version_id: z.string().optional().describe("Read this version instead of the current one."),
  });

  const listRunsInput = closed({
    page: z.number().int().min(0).optional().describe("Page, from 0."),
    pageSize: z.number().int().min(1).max(100).optional().describe("Runs per page (default 20)."),
    status: z.enum(TOOL_RUN_STATUSES).optional().describe("Only runs with this status (the words run_script uses)."),
  });

  const noInput = closed({});

  // Output objects accept more than they list: the service may add fields, and an agent
  // loses nothing by seeing them.
  const open = <S extends Zod.ZodRawShape>(shape: S) => z.object(shape).passthrough();

  const stepOutcome = open({
    status: z.enum(["completed", "failed", "skipped"]),
    runId: z.string().nullable().describe("The step's run; null when it never ran."),
    result: z.unknown().optional(),
    error: z.string().optional(),
    errorType: z.string().optional(),
    externalMessage: z.string().optional(),
  });

  const runScriptOutput = open({
    status: z
      .enum(["completed", "failed", "queued", "running"])
      .describe("For several scripts, \"failed\" when any step failed or was skipped. \"queued\" or \"running\": not finished yet; call read_run_results with the batchId or runId."),
    runId: z.string().optional().describe("One script: its run (see list_runs)."),
    result: z.unknown().optional().describe("One script: what it returned, shaped by its output schema."),
    error: z.string().optional().describe("One script that failed: why."),
    errorType: z.string().optional().describe("One script that failed: the service's class of failure, when it gave one."),
    externalMessage: z.string().optional().describe("One script that failed: the service's message for people, when it gave one."),
    batchId: z.string().optional().describe("Several scripts (or a run still going): the batch."),
    totalSteps: z.number().int().optional(),
    runs: z.array(stepOutcome).optional().describe("Several scripts: each step's outcome, in order."),
    runIds: z.array(z.string().nullable()).optional().describe("A run still going: each script's run, as far as known."),
    next: z.string().optional().describe("A run still going: what to call to get its outcome."),
  });

  const listScriptsOutput = open({
    scripts: z.array(
      open({
        address: z.string().describe("Give this to read_script and run_script."),
        name: z.string(),
        description: z.string(),
        visibility: z.string(),
        sideEffects: z.string().optional().describe("none, write or undetermined."),
      }),
    ),
    page: z.number().int(),
    hasNextPage: z.boolean(),
    totalCount: z.number().optional(),
  });

  const readScriptOutput = open({
    address: z.string(),
    name: z.string().optional(),
    description: z.string().optional(),
    visibility: z.string().optional(),
    archived: z.boolean().optional(),
    versionId: z.string().optional(),
    loggedIn: z.boolean().optional(),
    sideEffects: z.string().optional(),
    input: z.record(z.unknown()).describe("JSON Schema of script.args (files included, as format \"file\")."),
    output: z.unknown().optional().describe("JSON Schema of what the script returns."),
    fileInputs: z.array(open({ name: z.string(), required: z.boolean() })),
    howToPassFiles: z.string().optional(),
  });

  const listRunsOutput = open({
    runs: z.array(
      open({
        runId: z.string(),
        status: z.enum(TOOL_RUN_STATUSES),
        address: z.string().nullable().describe("The script run; null when it has been deleted since."),
        name: z.string(),
        startedAt: z.string(),
        finishedAt: z.string().nullable().optional(),
        error: z.string().optional(),
      }),
    ),
    hasNextPage: z.boolean(),
    totalCount: z.number().optional(),
  });

  const whoamiOutput = open({
    name: z.string(),
    email: z.string(),
    handle: z.string().nullable(),
    projects: z.array(open({ handle: z.string(), name: z.string(), role: z.string() })),
    usage: z.unknown().optional().describe("This period's usage and quotas; null when no period is active."),
    filesFolder: z.string().describe("The folder files are named in (relativePath)."),
  });

  return {
    scriptRef,
    runScriptInput,
    readRunResultsInput,
    listScriptsInput,
    readScriptInput,
    listRunsInput,
    noInput,
    runScriptOutput,
    listScriptsOutput,
    readScriptOutput,
    listRunsOutput,
    whoamiOutput,
  };
}

type Schemas = ReturnType<typeof toolSchemas>;
type Input<K extends "runScriptInput" | "readRunResultsInput" | "listScriptsInput" | "readScriptInput" | "listRunsInput"> = Zod.infer<Schemas[K]>;
type ScriptRefInput = Zod.infer<ReturnType<Schemas["scriptRef"]>>;

interface ScriptName {
  /** Undefined: the caller's own scripts. */
  handle?: string;
  host: string;
  slug: string;
}

/** The script an agent named, by `address` or by `host` + `slug` (+ `handle`). */
function scriptName(ref: { address?: string; host?: string; slug?: string; handle?: string }): ScriptName | { problem: string } {
  const example = "e.g. address: \"reduck/mail.google.com/send_email\"";
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
  if ("problem" in name) return { ok: false, message: name.problem };
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
  if ((input.runId === undefined) === (input.batchId === undefined)) return fail("Give exactly one of runId (one run) or batchId (every script of a batch), as run_script gave them.");
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
  const waited = pending.batchId ? await waitForRun({ client: ctx.client, batchId: pending.batchId }, options) : await waitForRun({ client: ctx.client, runId: pending.runId! }, options);
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
  if ("problem" in name) return fail(name.problem);
  const handle = name.handle ?? (await ownHandle(ctx));
  if (typeof handle !== "string") return handle;
  const path = { handle, host: name.host, slug: name.slug };
  let version: { input_schema?: Record<string, any>; output_schema?: unknown; logged_in?: boolean; side_effects?: string; id?: string } | null;
  let meta: Record<string, unknown> = {};
  if (input.version_id) {
    const r = await getScriptVersion({ client: ctx.client, path: { ...path, versionId: input.version_id } });
    if (r.error) return failWith(r.error);
    version = r.data;
  } else {
    const r = await getScript({ client: ctx.client, path });
    if (r.error) return failWith(r.error);
    version = r.data.current_version as typeof version;
    meta = { name: r.data.name, description: r.data.description, visibility: r.data.visibility, archived: r.data.archived_at !== null };
  }
  const input_schema = (withoutExtensions(version?.input_schema ?? {}) ?? {}) as Record<string, any>;
  const fileInputs = Object.entries<any>(input_schema.properties ?? {})
    .filter(([, p]) => p?.type === "string" && p?.format === "file")
    .map(([name]) => ({ name, required: (input_schema.required ?? []).includes(name) }));
  return answer({
    address: addressOf(path),
    ...meta,
    versionId: version?.id,
    loggedIn: version?.logged_in,
    sideEffects: version?.side_effects,
    input: input_schema,
    output: withoutExtensions(version?.output_schema),
    fileInputs,
    howToPassFiles: fileInputs.length
      ? "Put the file in the reduck folder on the desktop and pass files: { <input>: { relativePath: \"<name>\" } }."
      : undefined,
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
