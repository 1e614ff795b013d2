/**
 * The tools that read: the catalogue (list_scripts, read_script), the account's runs
 * (list_runs) and the account itself (whoami). Each answers with JSON, both as text and as
 * `structuredContent` matching its output schema; a failure is a tool error whose one line says
 * what to do (answers.ts).
 */
import { fileInputs as fileInputsOf } from "../../core/arguments.js";
import { jsonSchemaOf } from "../../core/json.js";
import { getMe, getScript, getScriptVersion, listAllScripts, listRuns, listScripts } from "../../generated/operations.js";
import { answer, failWith, type ToolContext, type ToolResult } from "../shared/answers.js";
import { boundJson, cutText, oneLine, shownText } from "../shared/bounded.js";
import { DEFAULT_PAGE_SIZE, DOCUMENT_CHARS, MESSAGE_CHARS, SCHEMA_CHARS } from "../shared/limits.js";
import { addressOf, scriptCallFailed, scriptPath, unknownHandle, unknownScript, unknownVersionHint } from "../shared/naming.js";
import { pageOf } from "../shared/paging.js";
import { recordRunStatus, toolRunStatus } from "../shared/run-status.js";
import { withoutExtensions } from "../shared/schema-clean.js";
import type { Input } from "../shared/tool-schemas.js";

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
    // As the CLI says it: the service withholds the code of official catalogue scripts from non-members.
    ...(input.code && typeof version?.content !== "string"
      ? {
          codeWithheld:
            "The service withheld this version's code: the code of an official catalogue script is shown only to members of the project that owns it.",
        }
      : {}),
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
