// Script versions: drafts are created from a parent, edited, then promoted (which also rolls back to an
// older promoted version). Promoted versions are immutable.
import { sameCodeAndContract, versionDiff } from "../diff.js";
import { ApiError, invalid } from "../errors.js";
import type { ScriptRecord, VersionRecord } from "../../store/records.js";
import { versionSummary, versionView } from "../views.js";
import { address, paginate, readableScript, refuseIfArchived, requireCaller, userIdOf, visibleVersion, writableScript } from "./shared.js";
import type { Implementations } from "./types.js";

type VersionOperations =
  | "listScriptVersions"
  | "createDraftScriptVersion"
  | "getScriptVersion"
  | "patchDraftScriptVersion"
  | "deleteDraftScriptVersion"
  | "promoteScriptVersion";

function refuseIfNotDraft(version: VersionRecord, script: ScriptRecord): void {
  if (!version.draft) {
    throw new ApiError(
      409,
      `Version ${version.versionNumber} of ${script.host}/${script.slug} is no longer a draft: promoted versions cannot change. Create a new draft instead`,
    );
  }
}

export const versionHandlers: Pick<Implementations, VersionOperations> = {
  listScriptVersions: ({ store, caller, path, query }) => {
    const script = readableScript(store, caller, path);
    const userId = userIdOf(caller);
    const editor = store.canWriteScript(userId, script);
    const versions = store
      .versionsOf(script.id)
      .filter((v) => editor || !v.draft)
      .filter((v) => query.draft === undefined || v.draft === (query.draft === "true"));
    const page = paginate(versions, query);
    return { status: 200, body: { ...page, data: page.data.map((v) => versionSummary(store, userId, v, { withNote: true })) } };
  },

  createDraftScriptVersion: ({ store, caller, path, body }) => {
    const { userId } = requireCaller(caller);
    const script = writableScript(store, caller, path);
    refuseIfArchived(script, "it takes no new versions", path.handle);
    let parent: VersionRecord | undefined;
    if (body.parent_version_id !== undefined) {
      parent = store.versions.get(body.parent_version_id);
      if (!parent || parent.scriptId !== script.id) {
        throw invalid({ parent_version_id: [`is not a version of ${address(path.handle, path.host, path.slug)}`] });
      }
    } else {
      // A script created with a draft first version has no current one: build on the latest.
      parent = store.currentVersion(script) ?? store.versionsOf(script.id)[0];
    }
    const fields = {
      content: body.content ?? parent?.content ?? "",
      language: body.language ?? parent?.language ?? "typescript",
      inputSchema: body.input_schema ?? parent?.inputSchema ?? { type: "object" },
      outputSchema: body.output_schema ?? parent?.outputSchema ?? { type: "object" },
      loggedIn: body.logged_in ?? parent?.loggedIn ?? false,
      sideEffects: body.side_effects ?? parent?.sideEffects ?? "none",
    };
    if (!fields.content) throw invalid({ content: ["is required: the script has no version to copy the code from"] });
    const current = store.currentVersion(script);
    if (current && sameCodeAndContract(current, fields)) {
      throw new ApiError(409, `This draft would be identical to the current version (${current.versionNumber}) in code and contract: change something first`);
    }
    const version = store.addVersion(script.id, {
      ...fields,
      parentVersionId: parent?.id ?? null,
      note: body.note,
      createdBy: userId,
      draft: true,
    });
    return { status: 201, body: { ...versionView(store, userId, version), diff: versionDiff(parent, version) } };
  },

  getScriptVersion: ({ store, caller, path }) => {
    const script = readableScript(store, caller, path);
    const version = visibleVersion(store, caller, script, path.versionId);
    return { status: 200, body: versionView(store, userIdOf(caller), version) };
  },

  patchDraftScriptVersion: ({ store, caller, path, body }) => {
    const { userId } = requireCaller(caller);
    const script = writableScript(store, caller, path);
    const version = visibleVersion(store, caller, script, path.versionId);
    refuseIfNotDraft(version, script);
    refuseIfArchived(script, "its drafts cannot change", path.handle);
    if (body.content !== undefined) version.content = body.content;
    if (body.language !== undefined) version.language = body.language;
    if (body.input_schema !== undefined) version.inputSchema = body.input_schema;
    if (body.output_schema !== undefined) version.outputSchema = body.output_schema;
    if (body.logged_in !== undefined) version.loggedIn = body.logged_in;
    if (body.side_effects !== undefined) version.sideEffects = body.side_effects;
    if (body.note !== undefined) version.note = body.note;
    script.updatedAt = store.now();
    const parent = version.parentVersionId ? store.versions.get(version.parentVersionId) : undefined;
    return { status: 200, body: { ...versionView(store, userId, version), diff: versionDiff(parent, version) } };
  },

  deleteDraftScriptVersion: ({ store, caller, path }) => {
    const script = writableScript(store, caller, path);
    const version = visibleVersion(store, caller, script, path.versionId);
    refuseIfNotDraft(version, script);
    refuseIfArchived(script, "its drafts cannot be deleted", path.handle);
    store.versions.delete(version.id);
    script.updatedAt = store.now();
    return { status: 204, body: undefined };
  },

  promoteScriptVersion: ({ store, caller, path }) => {
    const script = writableScript(store, caller, path);
    const version = visibleVersion(store, caller, script, path.versionId);
    refuseIfArchived(script, "no version can be promoted", path.handle);
    store.promoteVersion(version);
    return { status: 200, body: versionView(store, userIdOf(caller), version) };
  },
};
