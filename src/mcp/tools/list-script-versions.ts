/**
 * A script's versions from an agent: list them, add a draft, change it, try it (run_script with
 * `script.version_id`), promote it (also how to roll back), delete a draft. A version is named
 * by `version_id` or by its number (`version`); a version the script does not have is answered
 * with the versions it does have.
 */
import type { components } from "../../generated/schema.js";
import {
  createDraftScriptVersion,
  deleteDraftScriptVersion,
  getScript,
  getScriptVersion,
  listScriptVersions,
  patchDraftScriptVersion,
  promoteScriptVersion,
} from "../../generated/operations.js";
import { answer, fail, failWith, type ToolContext, type ToolResult } from "../shared/answers.js";
import { boundJson, shownText } from "../shared/bounded.js";
import { DEFAULT_PAGE_SIZE, MESSAGE_CHARS } from "../shared/limits.js";
import { addressOf, notAVersionId, scriptCallFailed, scriptPath, unknownVersionHint, versionId, type ScriptPath } from "../shared/naming.js";
import type { Input } from "../shared/tool-schemas.js";
import { pageOf } from "../shared/paging.js";

type VersionSummary = components["schemas"]["ScriptVersionSummary"];
type VersionWithDiff = components["schemas"]["ScriptVersion"] & { diff?: unknown };

function versionSummary(v: VersionSummary, currentId: string | null) {
  return {
    versionId: v.id,
    version: v.version_number,
    current: v.id === currentId,
    draft: v.draft,
    note: v.note == null ? null : shownText(v.note, 1_000),
    language: v.language,
    sideEffects: v.side_effects,
    loggedIn: v.logged_in,
    createdAt: v.created_at,
    parentVersionId: v.parent_version_id,
  };
}

/** The id of the script's current version, or null (none, or the script could not be read). */
async function currentVersionId(ctx: ToolContext, path: ScriptPath): Promise<string | null> {
  const read = await getScript({ client: ctx.client, path });
  return read.error ? null : read.data.current_version_id;
}

export async function listScriptVersionsTool(ctx: ToolContext, input: Input<"listScriptVersionsInput">): Promise<ToolResult> {
  const named = await scriptPath(ctx, input);
  if ("content" in named) return named;
  const { path, ownImplied } = named;
  const query = {
    page: input.page,
    pageSize: input.pageSize ?? DEFAULT_PAGE_SIZE,
    ...(input.draft !== undefined ? { draft: input.draft ? ("true" as const) : ("false" as const) } : {}),
  };
  const [listed, currentId] = await Promise.all([listScriptVersions({ client: ctx.client, path, query }), currentVersionId(ctx, path)]);
  if (listed.error) return scriptCallFailed(ctx, path, listed.error, { ownImplied });
  const paging = pageOf("list_script_versions", "versions", input, listed);
  if ("content" in paging) return paging;
  return answer({ address: addressOf(path), versions: listed.data.map((v) => versionSummary(v, currentId)), ...paging });
}

/** A version as the version tools answer it, with what to call next. */
function versionAnswer(path: ScriptPath, v: VersionWithDiff, currentId: string | null, next: string, extra: Record<string, unknown> = {}): ToolResult {
  return answer({
    address: addressOf(path),
    versionId: v.id,
    version: v.version_number,
    draft: v.draft,
    current: v.id === currentId,
    note: v.note == null ? null : shownText(v.note, 1_000),
    ...(v.diff !== undefined ? { changed: boundJson(v.diff, MESSAGE_CHARS).value } : {}),
    ...extra,
    next,
  });
}

/** What to call to try a draft, then to ship it. */
const tryThenPromote = (address: string, id: string) =>
  `Try it with run_script { script: { address: "${address}", version_id: "${id}", args: {...} } }; when it works, promote_script_version { address: "${address}", version_id: "${id}" } makes it the version runs use.`;

/** The body fields a draft takes, in the service's names. */
function draftBody(input: Input<"patchDraftScriptVersionInput">) {
  return {
    ...(input.content !== undefined ? { content: input.content } : {}),
    ...(input.language !== undefined ? { language: input.language } : {}),
    ...(input.inputSchema !== undefined ? { input_schema: input.inputSchema } : {}),
    ...(input.outputSchema !== undefined ? { output_schema: input.outputSchema } : {}),
    ...(input.loggedIn !== undefined ? { logged_in: input.loggedIn } : {}),
    ...(input.sideEffects !== undefined ? { side_effects: input.sideEffects } : {}),
    ...(input.note !== undefined ? { note: input.note } : {}),
  };
}

export async function createDraftScriptVersionTool(ctx: ToolContext, input: Input<"createDraftScriptVersionInput">): Promise<ToolResult> {
  // The parent's id goes in the body, not a URL: checked here by the same rule, before anything is sent.
  const badParent =
    input.parent_version_id !== undefined ? notAVersionId(input.parent_version_id, "list_script_versions lists a script's versions") : undefined;
  if (badParent) return fail(badParent);
  const named = await scriptPath(ctx, input);
  if ("content" in named) return named;
  const { path, ownImplied } = named;
  const body = { ...draftBody(input), note: input.note, ...(input.parent_version_id ? { parent_version_id: input.parent_version_id } : {}) };
  const created = await createDraftScriptVersion({ client: ctx.client, path, body });
  if (created.error?.status === 409) {
    return failWith(
      created.error,
      "A draft must differ from its parent in code or contract (content, inputSchema, outputSchema...); an archived script takes none (unarchive_script restores it).",
    );
  }
  if (created.error?.status === 400 && input.parent_version_id && created.error.variables?.parent_version_id) {
    return failWith(created.error, await unknownVersionHint(ctx, path, input.parent_version_id));
  }
  if (created.error) return scriptCallFailed(ctx, path, created.error, { ownImplied });
  const address = addressOf(path);
  return versionAnswer(path, created.data, await currentVersionId(ctx, path), tryThenPromote(address, created.data.id));
}

export async function patchDraftScriptVersionTool(ctx: ToolContext, input: Input<"patchDraftScriptVersionInput">): Promise<ToolResult> {
  const body = draftBody(input);
  if (!Object.keys(body).length) {
    return fail(
      "Nothing to change: give content, language, inputSchema, outputSchema, loggedIn, sideEffects or note, beside the script's address and the version.",
    );
  }
  const named = await scriptPath(ctx, input);
  if ("content" in named) return named;
  const { path, ownImplied } = named;
  const id = await versionId(ctx, path, input, ownImplied);
  if (typeof id !== "string") return id;
  const patched = await patchDraftScriptVersion({ client: ctx.client, path: { ...path, versionId: id }, body });
  if (patched.error?.status === 409) {
    return failWith(
      patched.error,
      `A promoted version never changes: create_draft_script_version { address: "${addressOf(path)}", note } starts a new draft from it.`,
    );
  }
  if (patched.error) return scriptCallFailed(ctx, path, patched.error, { ownImplied, versionHint: () => unknownVersionHint(ctx, path, id) });
  return versionAnswer(path, patched.data, await currentVersionId(ctx, path), tryThenPromote(addressOf(path), id));
}

export async function promoteScriptVersionTool(ctx: ToolContext, input: Input<"versionTarget">): Promise<ToolResult> {
  const named = await scriptPath(ctx, input);
  if ("content" in named) return named;
  const { path, ownImplied } = named;
  const id = await versionId(ctx, path, input, ownImplied);
  if (typeof id !== "string") return id;
  const address = addressOf(path);
  // The version first: an id the library will not put into its URL is refused before anything is sent.
  const version = await getScriptVersion({ client: ctx.client, path: { ...path, versionId: id } });
  if (version.error) return scriptCallFailed(ctx, path, version.error, { ownImplied, versionHint: () => unknownVersionHint(ctx, path, id) });
  const currentId = await currentVersionId(ctx, path);
  if (currentId === id) {
    // Promoted already (a second call, say): nothing to send, and the agent learns it.
    return versionAnswer(
      path,
      version.data,
      currentId,
      `Version ${version.data.version_number} was already the current version of ${address}: nothing changed.`,
      {
        alreadyCurrent: true,
      },
    );
  }
  const promoted = await promoteScriptVersion({ client: ctx.client, path: { ...path, versionId: id } });
  if (promoted.error?.status === 409) return failWith(promoted.error, `unarchive_script { address: "${address}" } restores it first.`);
  if (promoted.error) return scriptCallFailed(ctx, path, promoted.error, { ownImplied, versionHint: () => unknownVersionHint(ctx, path, id) });
  const was = version.data.draft ? "The draft" : "This earlier version";
  return versionAnswer(
    path,
    promoted.data,
    id,
    `${was} is now what runs of ${address} use. To go back, promote_script_version with the previous version_id${currentId ? ` ("${currentId}")` : ""}.`,
  );
}

export async function deleteDraftScriptVersionTool(ctx: ToolContext, input: Input<"versionTarget">): Promise<ToolResult> {
  const named = await scriptPath(ctx, input);
  if ("content" in named) return named;
  const { path, ownImplied } = named;
  const id = await versionId(ctx, path, input, ownImplied);
  if (typeof id !== "string") return id;
  const deleted = await deleteDraftScriptVersion({ client: ctx.client, path: { ...path, versionId: id } });
  if (deleted.error?.status === 409)
    return failWith(deleted.error, "Only a draft can be deleted; a promoted version stays (promote another to stop using it).");
  if (deleted.error) return scriptCallFailed(ctx, path, deleted.error, { ownImplied, versionHint: () => unknownVersionHint(ctx, path, id) });
  return answer({ address: addressOf(path), deleted: `draft ${id}` });
}
