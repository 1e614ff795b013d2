/**
 * The tools that write the catalogue (create a script, change its name, description or
 * visibility, archive and restore it, its host's README) and list the paired browsers. Each
 * answer says what changed and what an agent would call next.
 */
import type { components } from "../../generated/schema.js";
import {
  archiveScript,
  createScript,
  deleteHostReadme,
  getHostReadme,
  getScript,
  listDevices,
  listScripts,
  patchScript,
  publishScript,
  restoreScript,
  setHostReadme,
  unpublishScript,
} from "../../generated/operations.js";
import { answer, fail, failWith, type ToolContext, type ToolResult } from "../shared/answers.js";
import { cutText, shownText } from "../shared/bounded.js";
import { DOCUMENT_CHARS, MESSAGE_CHARS } from "../shared/limits.js";
import { addressOf, hostAndSlug, ownHandle, scriptCallFailed, scriptPath, unknownHandle, type ScriptPath } from "../shared/naming.js";
import type { Input } from "../shared/tool-schemas.js";

type ScriptWithVersion = components["schemas"]["ScriptWithVersion"];

/** A script's state as the tools show it. */
function scriptState(path: ScriptPath, script: ScriptWithVersion, extra: Record<string, unknown> = {}) {
  return {
    address: addressOf(path),
    name: shownText(script.name, 200),
    description: shownText(script.description, MESSAGE_CHARS),
    visibility: script.visibility,
    archived: script.archived_at !== null,
    currentVersionId: script.current_version_id,
    ...extra,
  };
}

export async function createScriptTool(ctx: ToolContext, input: Input<"createScriptInput">): Promise<ToolResult> {
  const checked = hostAndSlug(input.host, input.slug);
  if ("problem" in checked) return fail(checked.problem);
  if (input.draft && input.visibility === "public") {
    return fail(
      'draft: true leaves the script with no promoted version, and a public script needs one: create it private, promote a version, then update_script_metadata with visibility: "public".',
    );
  }
  const handle = input.handle ?? (await ownHandle(ctx));
  if (typeof handle !== "string") return handle;
  const path = { handle, host: input.host, slug: input.slug };
  const created = await createScript({
    client: ctx.client,
    path: { handle },
    body: {
      host: input.host,
      slug: input.slug,
      description: input.description,
      content: input.content,
      input_schema: input.inputSchema,
      output_schema: input.outputSchema,
      side_effects: input.sideEffects,
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.language !== undefined ? { language: input.language } : {}),
      ...(input.loggedIn !== undefined ? { logged_in: input.loggedIn } : {}),
      ...(input.humanRequired !== undefined ? { human_required: input.humanRequired } : {}),
      ...(input.visibility !== undefined ? { visibility: input.visibility } : {}),
      ...(input.draft !== undefined ? { draft: input.draft } : {}),
    },
  });
  if (created.error?.status === 404 && input.handle) return unknownHandle(ctx, input.handle, created.error);
  if (created.error?.status === 409) {
    return failWith(
      created.error,
      `To change ${addressOf(path)}, add a draft version to it (create_draft_script_version with address: "${addressOf(path)}"); or pick another slug.`,
    );
  }
  if (created.error) return failWith(created.error);
  const address = addressOf(path);
  const { id, created_version_id, current_version_id } = created.data;
  return answer({
    address,
    scriptId: id,
    versionId: created_version_id,
    currentVersionId: current_version_id,
    next:
      current_version_id === null
        ? `Its first version is a draft: try it with run_script { script: { address: "${address}", version_id: "${created_version_id}", args: {...} } }, then promote_script_version { address: "${address}", version_id: "${created_version_id}" }.`
        : `Run it with run_script { script: { address: "${address}", args: {...} } }; if it fails, read_run_trace with the runId shows where.`,
  });
}

export async function updateScriptMetadataTool(ctx: ToolContext, input: Input<"updateScriptMetadataInput">): Promise<ToolResult> {
  const { name, description, visibility, humanRequired } = input;
  if (name === undefined && description === undefined && visibility === undefined && humanRequired === undefined) {
    return fail('Nothing to change: give name, description, visibility ("public" or "private") or humanRequired, beside the script\'s address.');
  }
  const named = await scriptPath(ctx, input);
  if ("content" in named) return named;
  const { path, ownImplied } = named;
  const changed: string[] = [];
  if (name !== undefined || description !== undefined || humanRequired !== undefined) {
    const body = {
      ...(name !== undefined ? { name } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(humanRequired !== undefined ? { human_required: humanRequired } : {}),
    };
    const patched = await patchScript({ client: ctx.client, path, body });
    if (patched.error) return scriptCallFailed(ctx, path, patched.error, { ownImplied });
    changed.push(...Object.keys(body).map((k) => (k === "human_required" ? "humanRequired" : k)));
  }
  if (visibility !== undefined) {
    const toggled = visibility === "public" ? await publishScript({ client: ctx.client, path }) : await unpublishScript({ client: ctx.client, path });
    if (toggled.error?.status === 409) {
      const done = changed.length ? ` (${changed.join(" and ")} did change)` : "";
      return failWith(toggled.error, `Restore it with unarchive_script, or promote a version with promote_script_version, then try again${done}.`);
    }
    if (toggled.error) return scriptCallFailed(ctx, path, toggled.error, { ownImplied });
    changed.push("visibility");
  }
  const read = await getScript({ client: ctx.client, path });
  if (read.error) return failWith(read.error);
  return answer(scriptState(path, read.data, { changed }));
}

/** archive_script and unarchive_script: one call each way, idempotent. */
export async function archiveTool(ctx: ToolContext, input: Input<"scriptTargetInput">, archive: boolean): Promise<ToolResult> {
  const named = await scriptPath(ctx, input);
  if ("content" in named) return named;
  const { path, ownImplied } = named;
  const done = archive ? await archiveScript({ client: ctx.client, path }) : await restoreScript({ client: ctx.client, path });
  if (done.error) return scriptCallFailed(ctx, path, done.error, { ownImplied });
  const address = addressOf(path);
  return answer(
    scriptState(path, done.data as ScriptWithVersion, {
      next: archive
        ? `${address} no longer shows in listings and cannot be run; unarchive_script { address: "${address}" } restores it.`
        : `${address} is listed and can be run again.`,
    }),
  );
}

export async function listDevicesTool(ctx: ToolContext): Promise<ToolResult> {
  const listed = await listDevices({ client: ctx.client });
  if (listed.error) return failWith(listed.error);
  const devices = listed.data.slice(0, 100).map((d) => ({
    deviceId: d.id,
    name: d.name === null ? null : shownText(d.name, 200),
    browser: d.browser === null ? null : shownText(d.browser, 100),
    os: d.os === null ? null : shownText(d.os, 100),
    fileAccess: d.file_access,
    reachable: d.reachable,
    concurrencyBudget: d.concurrency_budget,
    createdAt: d.created_at,
  }));
  const only = devices.length === 1 ? devices[0]!.deviceId : null;
  return answer({
    devices,
    extensionPicks: only,
    next: !devices.length
      ? 'No paired browser: pair one with the Reduck extension, or run on a hosted browser (run_script with browser: "cloud").'
      : only
        ? 'run_script runs on it by default (browser: "extension").'
        : 'Several paired browsers: give run_script the one to use as deviceId (or browser: { deviceId }); "extension" alone is refused.',
  });
}

/** The owner a README tool names: the given handle, or the caller's own. */
async function readmeOwner(ctx: ToolContext, input: { host: string; handle?: string }): Promise<{ handle: string; host: string } | ToolResult> {
  const checked = hostAndSlug(input.host, "readme");
  if ("problem" in checked) return fail(`${JSON.stringify(input.host)} is not a host name: give the site, e.g. host: "mail.google.com"`);
  const handle = input.handle ?? (await ownHandle(ctx));
  if (typeof handle !== "string") return handle;
  return { handle, host: input.host };
}

/** After a README call's 404: the tool error for an owner the service does not know (the handles likely meant), else undefined. */
async function unknownOwner(ctx: ToolContext, handle: string): Promise<ToolResult | undefined> {
  const owner = await listScripts({ client: ctx.client, path: { handle }, query: { pageSize: 1 } });
  return owner.error?.status === 404 ? unknownHandle(ctx, handle, owner.error) : undefined;
}

export async function readHostReadmeTool(ctx: ToolContext, input: Input<"readHostReadmeInput">): Promise<ToolResult> {
  const path = await readmeOwner(ctx, input);
  if ("content" in path) return path;
  const read = await getHostReadme({ client: ctx.client, path });
  if (read.error?.status === 404) {
    const other = await unknownOwner(ctx, path.handle);
    if (other) return other;
    return answer({
      ...path,
      content: null,
      next: `No README for ${path.handle}/${path.host} (or none you may read). set_host_readme { host: "${path.host}"${input.handle ? `, handle: "${path.handle}"` : ""}, content } writes one.`,
    });
  }
  if (read.error) return failWith(read.error);
  return answer({ ...path, content: cutText(read.data.content, DOCUMENT_CHARS), updatedAt: read.data.updated_at });
}

export async function setHostReadmeTool(ctx: ToolContext, input: Input<"setHostReadmeInput">): Promise<ToolResult> {
  const path = await readmeOwner(ctx, input);
  if ("content" in path) return path;
  const written = await setHostReadme({ client: ctx.client, path, body: { content: input.content } });
  if (written.error?.status === 404) return (await unknownOwner(ctx, path.handle)) ?? failWith(written.error);
  if (written.error) return failWith(written.error);
  return answer({
    ...path,
    content: cutText(written.data.content, DOCUMENT_CHARS),
    updatedAt: written.data.updated_at,
    next: "It replaced the README that was there; it is readable wherever the owner has a public script on this host.",
  });
}

export async function deleteHostReadmeTool(ctx: ToolContext, input: Input<"readHostReadmeInput">): Promise<ToolResult> {
  const path = await readmeOwner(ctx, input);
  if ("content" in path) return path;
  const deleted = await deleteHostReadme({ client: ctx.client, path });
  if (deleted.error?.status === 404) return (await unknownOwner(ctx, path.handle)) ?? failWith(deleted.error);
  if (deleted.error) return failWith(deleted.error);
  return answer({ address: `${path.handle}/${path.host}`, deleted: "its README (if it had one)" });
}
