// Moving a script between the caller's personal scope and projects where they may create scripts.
import type { components } from "../../contract/openapi-types.js";
import type { Caller } from "../auth.js";
import { ApiError } from "../errors.js";
import type { OwnerRef, ScriptRecord } from "../../store/records.js";
import type { SandboxStore } from "../../store/store.js";
import { address, readableScript, refuseIfArchived, requireCaller } from "./shared.js";
import type { Implementations } from "./types.js";

type TransferTarget = components["schemas"]["TransferTarget"];

function sameOwner(a: OwnerRef, b: OwnerRef): boolean {
  return a.kind === b.kind && a.id === b.id;
}

/** Scopes the caller may create scripts in: their personal scope (once they have a username) and projects. */
function targetsOf(store: SandboxStore, userId: string): Array<{ owner: OwnerRef; target: TransferTarget }> {
  const out: Array<{ owner: OwnerRef; target: TransferTarget }> = [];
  const user = store.users.get(userId);
  if (user?.username) {
    const owner: OwnerRef = { kind: "user", id: user.id };
    out.push({ owner, target: { kind: "user", handle: "@" + user.username, name: user.name, can_transfer_out: true } });
  }
  for (const { project } of store.projectsOf(userId)) {
    const owner: OwnerRef = { kind: "project", id: project.id };
    if (!store.canCreateUnder(userId, owner)) continue;
    out.push({
      owner,
      target: { kind: "project", handle: project.handle, name: project.name, can_transfer_out: store.canTransferOutOf(userId, owner) },
    });
  }
  return out;
}

/** The script, if the caller may move it out of its scope: 404 when invisible, 403 when not theirs to move. */
function movableScript(store: SandboxStore, caller: Caller | null, path: { handle: string; host: string; slug: string }): ScriptRecord {
  const { userId } = requireCaller(caller);
  const script = readableScript(store, caller, path);
  if (!store.canTransferOutOf(userId, script.owner)) {
    const why = store.isOfficial(script.owner)
      ? "official catalogue scripts are write-locked"
      : script.owner.kind === "project" && store.canCreateUnder(userId, script.owner)
        ? "only the project's owners and admins may move scripts out of it"
        : "only its owner may move it";
    throw new ApiError(403, `You may not transfer ${address(path.handle, path.host, path.slug)}: ${why}`);
  }
  return script;
}

export const transferHandlers: Pick<Implementations, "listScriptTransferTargets" | "transferScript"> = {
  listScriptTransferTargets: ({ store, caller, path }) => {
    const { userId } = requireCaller(caller);
    const script = movableScript(store, caller, path);
    refuseIfArchived(script, "there is nowhere it can move", path.handle);
    const targets = targetsOf(store, userId)
      .filter((t) => !sameOwner(t.owner, script.owner))
      .map((t) => t.target);
    return { status: 200, body: { targets } };
  },

  transferScript: ({ store, caller, path, body }) => {
    const { userId } = requireCaller(caller);
    const script = movableScript(store, caller, path);
    refuseIfArchived(script, "it cannot be transferred", path.handle);
    const destination = targetsOf(store, userId).find((t) => t.target.handle === body.target);
    if (!destination) {
      const owner = store.resolveHandle(body.target);
      const why = !owner
        ? `there is no handle ${body.target}`
        : owner.kind === "user"
          ? `${body.target} is another user's personal scope`
          : `you may not create scripts in the project ${body.target}`;
      throw new ApiError(403, `You may not transfer to ${body.target}: ${why}`);
    }
    const clash = store.findScript(destination.owner, script.host, script.slug);
    if (clash) {
      throw new ApiError(
        409,
        clash === script
          ? `${address(path.handle, path.host, path.slug)} is already in ${body.target}`
          : `${address(body.target, script.host, script.slug)} already exists${clash.archivedAt ? " (archived)" : ""}: the destination must not have a script on this host and slug`,
      );
    }
    script.owner = destination.owner;
    script.updatedAt = store.now();
    return { status: 200, body: { handle: store.handleOf(script.owner), host: script.host, slug: script.slug } };
  },
};
