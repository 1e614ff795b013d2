/**
 * The agent tool's tools. Each returns JSON text; a failure is a tool error whose text is the
 * service's message, so an agent can read it and act.
 */
import type { FileHandle } from "node:fs/promises";
import type { z as Zod } from "zod";
import type { ReduckClient } from "../client.js";
import type { ReduckError } from "../core/errors.js";
import { getMe, getScript, getScriptVersion, listAllScripts, listRuns, listScripts } from "../generated/operations.js";
import { runScript, type ScriptToRun, type RunBrowser } from "../run/run.js";
import type { FileSource } from "../run/files.js";
import { checkNamedFile } from "./folder.js";

export interface ToolContext {
  client: ReduckClient;
  /** Absolute path of the service folder (`<desktop>/reduck`). */
  folder: string;
}

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string }>;
  isError?: boolean;
}

const ok = (value: unknown): ToolResult => ({ content: [{ type: "text", text: JSON.stringify(value, null, 2) }] });
const fail = (message: string): ToolResult => ({ content: [{ type: "text", text: message }], isError: true });
const failWith = (error: ReduckError & { runId?: string }): ToolResult =>
  fail(error.runId ? `${error.error} (run ${error.runId})` : error.error);

/**
 * The tools' input schemas, built from a zod handed in at start-up: importing zod (and the
 * MCP SDK) at the top would slow every CLI command's start-up, not just `reduck mcp`'s.
 */
export function toolSchemas(z: typeof Zod) {
  const namedFile = z
    .object({
      relativePath: z
        .string()
        .describe("Path of the file inside the reduck folder on the desktop, e.g. \"invoice.pdf\" or \"2026/invoice.pdf\". No absolute paths, no \"..\"."),
    })
    .strict();

  const scriptRef = z
    .object({
      host: z.string().describe("The site the script targets, e.g. \"mail.google.com\"."),
      slug: z.string().describe("The script's name on that host, e.g. \"send_email\"."),
      handle: z.string().optional().describe("Owner: \"reduck\" for the official catalogue, \"@username\" for a person, a project handle. Omit for your own."),
      args: z.record(z.unknown()).optional().describe("The script's arguments by name (see read_script for its inputs)."),
      files: z
        .record(namedFile)
        .optional()
        .describe("File inputs by name (inputs with format \"file\" in read_script), each a file in the reduck folder: { attachment: { relativePath: \"banner.png\" } }."),
      version_id: z.string().optional().describe("Run this version instead of the current one."),
    })
    .strict();

  const browser = z
    .union([z.enum(["extension", "managed"]), z.object({ deviceId: z.string() }).strict()])
    .optional()
    .describe("\"extension\" (default): your own paired browser, which reads named files itself. \"managed\": a managed browser; the file is then read here and uploaded, and arrives named after its input unless the script takes a name argument. { deviceId }: one paired browser.");

  const runScriptInput = {
    script: scriptRef.optional().describe("One script to run. Give this or scripts."),
    scripts: z.array(scriptRef).min(1).max(20).optional().describe("Several scripts (up to 20), each in its own browser, results in order."),
    sequential: z.boolean().optional().describe("With scripts: run them in order in one browser, stopping at the first failure."),
    browser,
  };

  const listScriptsInput = {
    handle: z.string().optional().describe("Only this owner's scripts: \"reduck\" for the official catalogue, \"@username\", a project."),
    host: z.string().optional().describe("Only scripts for this site."),
    q: z.string().optional().describe("Search words."),
    page: z.number().int().min(0).optional().describe("Page, from 0."),
    pageSize: z.number().int().min(1).max(100).optional().describe("Scripts per page (default 20)."),
  };

  const readScriptInput = {
    host: z.string(),
    slug: z.string(),
    handle: z.string().optional().describe("Owner; omit for your own."),
    version_id: z.string().optional(),
  };

  const listRunsInput = {
    page: z.number().int().min(0).optional(),
    pageSize: z.number().int().min(1).max(100).optional(),
    status: z.enum(["cancelled", "error", "queued", "running", "success"]).optional(),
  };

  return { scriptRef, runScriptInput, listScriptsInput, readScriptInput, listRunsInput };
}

type Schemas = ReturnType<typeof toolSchemas>;
type Input<K extends "runScriptInput" | "listScriptsInput" | "readScriptInput" | "listRunsInput"> = Zod.infer<Zod.ZodObject<Schemas[K]>>;
type ScriptRefInput = Zod.infer<Schemas["scriptRef"]>;

/** Turns the agent's named files into what the run sends, refusing unsafe names before any request. */
async function bindFiles(
  ctx: ToolContext,
  script: ScriptRefInput,
  onOwnBrowser: boolean,
  opened: FileHandle[],
): Promise<{ ok: true; script: ScriptToRun } | { ok: false; message: string }> {
  const files: Record<string, FileSource> = {};
  for (const [input, binding] of Object.entries(script.files ?? {})) {
    const check = await checkNamedFile(ctx.folder, binding.relativePath);
    if (!check.ok) return { ok: false, message: `file input ${input}: ${check.message}` };
    if (onOwnBrowser) {
      // The caller's browser reads it from the folder and it keeps its own name.
      await check.file?.handle.close();
      files[input] = { relativePath: binding.relativePath };
    } else {
      // A managed browser can't read this machine: send the bytes instead, read from the
      // handle that was checked (opening the path again could be raced to a file outside).
      if (!check.file) return { ok: false, message: `bound 0 bytes — could not read ${binding.relativePath} in ${ctx.folder}` };
      opened.push(check.file.handle);
      files[input] = { handle: check.file.handle, name: binding.relativePath };
    }
  }
  const { files: _named, ...rest } = script;
  return { ok: true, script: { ...rest, ...(Object.keys(files).length ? { files } : {}) } };
}

export async function runScriptTool(ctx: ToolContext, input: Input<"runScriptInput">): Promise<ToolResult> {
  if ((input.script === undefined) === (input.scripts === undefined)) return fail("Give exactly one of script (one run) or scripts (several).");
  const target: RunBrowser = input.browser ?? "extension";
  const onOwnBrowser = target !== "managed";
  const steps = input.script ? [input.script] : input.scripts!;
  const opened: FileHandle[] = [];
  try {
    const bound: ScriptToRun[] = [];
    for (const step of steps) {
      const result = await bindFiles(ctx, step, onOwnBrowser, opened);
      if (!result.ok) return fail(result.message);
      bound.push(result.script);
    }
    const headers = { "X-Reduck-Source": "mcp" };
    if (input.script) {
      const { data, error } = await runScript({ client: ctx.client, script: bound[0]!, browser: target, headers });
      if (error) return failWith(error);
      return ok({ status: "completed", runId: data.runId, result: data.result });
    }
    const { data, error } = await runScript({ client: ctx.client, scripts: bound, sequential: input.sequential, browser: target, headers });
    if (error) return failWith(error);
    return ok(data);
  } finally {
    await Promise.all(opened.map((handle) => handle.close().catch(() => undefined)));
  }
}


export async function listScriptsTool(ctx: ToolContext, input: Input<"listScriptsInput">): Promise<ToolResult> {
  const query = { host: input.host, q: input.q, page: input.page, pageSize: input.pageSize };
  const result = input.handle
    ? await listScripts({ client: ctx.client, path: { handle: input.handle }, query })
    : await listAllScripts({ client: ctx.client, query });
  if (result.error) return failWith(result.error);
  return ok({
    scripts: result.data.map((s) => ({ address: `${s.author.handle}/${s.host}/${s.slug}`, name: s.name, description: s.description, visibility: s.visibility })),
    page: input.page ?? 0,
    hasNextPage: result.hasNextPage,
    totalCount: result.totalCount,
  });
}


export async function readScriptTool(ctx: ToolContext, input: Input<"readScriptInput">): Promise<ToolResult> {
  const handle = input.handle ?? (await ownHandle(ctx));
  if (typeof handle !== "string") return handle;
  const path = { handle, host: input.host, slug: input.slug };
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
  const input_schema = version?.input_schema ?? {};
  const fileInputs = Object.entries<any>(input_schema.properties ?? {})
    .filter(([, p]) => p?.type === "string" && p?.format === "file")
    .map(([name]) => ({ name, required: (input_schema.required ?? []).includes(name) }));
  return ok({
    address: `${handle}/${input.host}/${input.slug}`,
    ...meta,
    versionId: version?.id,
    loggedIn: version?.logged_in,
    sideEffects: version?.side_effects,
    input: input_schema,
    output: version?.output_schema,
    fileInputs,
    howToPassFiles: fileInputs.length
      ? "Put the file in the reduck folder on the desktop and pass files: { <input>: { relativePath: \"<name>\" } }."
      : undefined,
  });
}


export async function listRunsTool(ctx: ToolContext, input: Input<"listRunsInput">): Promise<ToolResult> {
  const r = await listRuns({ client: ctx.client, query: input });
  if (r.error) return failWith(r.error);
  return ok({
    runs: r.data.map((run) => ({
      runId: run.id,
      status: run.status,
      script: run.script ? `${run.script.handle}/${run.script.host}/${run.script.slug}` : null,
      startedAt: run.started_at,
      ...(run.result && "error" in run.result ? { error: run.result.error } : {}),
    })),
    hasNextPage: r.hasNextPage,
    totalCount: r.totalCount,
  });
}

export async function whoamiTool(ctx: ToolContext): Promise<ToolResult> {
  const r = await getMe({ client: ctx.client });
  if (r.error) return failWith(r.error);
  return ok({ ...r.data, filesFolder: ctx.folder });
}

async function ownHandle(ctx: ToolContext): Promise<string | ToolResult> {
  const me = await getMe({ client: ctx.client });
  if (me.error) return failWith(me.error);
  if (!me.data.handle) return fail("Your account has no username yet: give the script's handle.");
  return me.data.handle;
}
