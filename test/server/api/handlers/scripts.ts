// Script operations: listing, creation, reading and the lifecycle (publish, unpublish, archive, restore).
import { ApiError, invalid } from "../errors.js";
import { isHostname } from "../../contract/hostnames.js";
import type { ScriptRecord } from "../../store/records.js";
import { scriptSummary, scriptWithVersion } from "../views.js";
import { present } from "../../contract/present.js";
import { filterAndSort } from "./script-listing.js";
import { address, ownerOf, paginate, readableScript, refuseIfArchived, requireCaller, userIdOf, writableScript } from "./shared.js";
import type { Implementations } from "./types.js";

type ScriptOperations =
  | "listAllScripts"
  | "listScripts"
  | "createScript"
  | "getScript"
  | "patchScript"
  | "publishScript"
  | "unpublishScript"
  | "archiveScript"
  | "restoreScript";

export const scriptHandlers: Pick<Implementations, ScriptOperations> = {
  listAllScripts: ({ store, caller, query }) => {
    const userId = userIdOf(caller);
    // Signed in: own scripts, scripts of member projects, and the official catalogue (its public
    // scripts, or all of them for its members). Anonymous: the public catalogue only.
    const candidates = [...store.scripts.values()].filter((s) => {
      if (s.unlisted) return false;
      const official = store.isOfficial(s.owner);
      if (query.catalogueOnly === "true" && !official) return false;
      if (store.isInsider(userId, s.owner)) return true;
      return official && s.visibility === "public";
    });
    // Unlike the per-owner listing, archived scripts drop out unless asked for.
    const rows = filterAndSort(store, candidates, { ...query, archived: query.archived ?? "false" });
    const page = paginate(rows, query);
    return { status: 200, body: { ...page, data: page.data.map((s) => scriptSummary(store, userId, s)) } };
  },

  listScripts: ({ store, caller, path, query }) => {
    const userId = userIdOf(caller);
    const owner = ownerOf(store, path.handle);
    const insider = store.isInsider(userId, owner);
    const candidates = store.scriptsOwnedBy(owner).filter((s) => !s.unlisted && (insider || s.visibility === "public"));
    const page = paginate(filterAndSort(store, candidates, query), query);
    return { status: 200, body: { ...page, data: page.data.map((s) => scriptSummary(store, userId, s)) } };
  },

  createScript: ({ store, caller, path, body }) => {
    const { userId } = requireCaller(caller);
    const owner = ownerOf(store, path.handle);
    if (!store.canCreateUnder(userId, owner)) {
      throw new ApiError(
        403,
        owner.kind === "user"
          ? `You may not create scripts under ${path.handle}: it is another user's personal scope`
          : `You may not create scripts under ${path.handle}: you are not a member of that project with the right to create scripts`,
      );
    }
    const host = body.host.trim().toLowerCase();
    if (!isHostname(host)) throw invalid({ host: ["must be a host name such as example.com"] });
    if (body.draft && body.visibility === "public") {
      throw new ApiError(409, "A script whose first version is a draft cannot be public: it has no promoted version to show. Create it private, or drop draft");
    }
    const existing = store.findScript(owner, host, body.slug);
    if (existing) {
      throw new ApiError(
        409,
        `${address(path.handle, host, body.slug)} already exists${existing.archivedAt ? " (archived; archiving never frees a host and slug)" : ""}: pick another slug`,
      );
    }
    const script = store.addScript({
      handle: path.handle,
      host,
      slug: body.slug,
      name: body.name ?? body.slug,
      description: body.description,
      visibility: body.visibility ?? "private",
      humanRequired: body.human_required ?? false,
      content: body.content,
      language: body.language ?? "typescript",
      inputSchema: body.input_schema,
      outputSchema: body.output_schema,
      loggedIn: body.logged_in ?? false,
      sideEffects: body.side_effects,
      note: null,
      createdBy: userId,
      draft: body.draft ?? false,
    });
    const created = present(store.versionsOf(script.id)[0], `the first version of ${address(path.handle, host, body.slug)}, just created`);
    return {
      status: 201,
      body: { id: script.id, host: script.host, slug: script.slug, current_version_id: script.currentVersionId, created_version_id: created.id },
    };
  },

  getScript: ({ store, caller, path }) => {
    const script = readableScript(store, caller, path);
    return { status: 200, body: scriptWithVersion(store, userIdOf(caller), script) };
  },

  patchScript: ({ store, caller, path, body }) => {
    const script = writableScript(store, caller, path);
    if (body.name !== undefined) script.name = body.name;
    if (body.description !== undefined) script.description = body.description;
    if (body.human_required !== undefined) script.humanRequired = body.human_required;
    touch(script, store.now());
    return { status: 200, body: scriptWithVersion(store, userIdOf(caller), script) };
  },

  publishScript: ({ store, caller, path }) => {
    const script = writableScript(store, caller, path);
    refuseIfArchived(script, "it cannot be published", path.handle);
    if (!script.currentVersionId) {
      throw new ApiError(409, `${address(path.handle, path.host, path.slug)} has no promoted version, so there is nothing to publish: promote a version first`);
    }
    script.visibility = "public";
    touch(script, store.now());
    return { status: 200, body: scriptWithVersion(store, userIdOf(caller), script) };
  },

  // Works on archived scripts too: taking something private must always be possible.
  unpublishScript: ({ store, caller, path }) => {
    const script = writableScript(store, caller, path);
    script.visibility = "private";
    touch(script, store.now());
    return { status: 200, body: scriptWithVersion(store, userIdOf(caller), script) };
  },

  archiveScript: ({ store, caller, path }) => {
    const script = writableScript(store, caller, path);
    if (!script.archivedAt) {
      script.archivedAt = store.now();
      touch(script, script.archivedAt);
    }
    return { status: 200, body: scriptWithVersion(store, userIdOf(caller), script) };
  },

  restoreScript: ({ store, caller, path }) => {
    const script = writableScript(store, caller, path);
    if (script.archivedAt) {
      script.archivedAt = null;
      touch(script, store.now());
    }
    return { status: 200, body: scriptWithVersion(store, userIdOf(caller), script) };
  },
};

function touch(script: ScriptRecord, at: string): void {
  script.updatedAt = at;
}
