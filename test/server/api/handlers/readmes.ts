// Host READMEs: one text per (owner, host). Readable by anyone while the owner has a public,
// non-archived script on that host; otherwise only by the owner and project members.
import { ApiError } from "../errors.js";
import type { OwnerRef } from "../../store/records.js";
import type { SandboxStore } from "../../store/store.js";
import { readmeView } from "../views.js";
import { address, ownerOf, userIdOf } from "./shared.js";
import type { Implementations } from "./types.js";

function readmeIsPublic(store: SandboxStore, owner: OwnerRef, host: string): boolean {
  return store.scriptsOwnedBy(owner).some((s) => s.host === host && s.visibility === "public" && !s.archivedAt);
}

function requireReadmeWriter(store: SandboxStore, userId: string | null, owner: OwnerRef, handle: string, host: string): void {
  if (!store.canCreateUnder(userId, owner)) {
    throw new ApiError(
      403,
      `You may not change the README of ${address(handle, host)}: ${
        store.isOfficial(owner) ? "the official catalogue is write-locked" : "only the owner and project members who may edit its scripts can"
      }`,
    );
  }
}

export const readmeHandlers: Pick<Implementations, "getHostReadme" | "setHostReadme" | "deleteHostReadme"> = {
  getHostReadme: ({ store, caller, path }) => {
    const owner = ownerOf(store, path.handle);
    const readme = store.readme(owner, path.host);
    if (!readme || !(store.isInsider(userIdOf(caller), owner) || readmeIsPublic(store, owner, path.host))) {
      throw new ApiError(404, `No README for ${address(path.handle, path.host)}`);
    }
    return { status: 200, body: readmeView(readme) };
  },

  setHostReadme: ({ store, caller, path, body }) => {
    const owner = ownerOf(store, path.handle);
    requireReadmeWriter(store, userIdOf(caller), owner, path.handle, path.host);
    return { status: 200, body: readmeView(store.setReadme(owner, path.host, body.content)) };
  },

  // Idempotent: deleting a README that is not there is still a success.
  deleteHostReadme: ({ store, caller, path }) => {
    const owner = ownerOf(store, path.handle);
    requireReadmeWriter(store, userIdOf(caller), owner, path.handle, path.host);
    store.deleteReadme(owner, path.host);
    return { status: 204, body: undefined };
  },
};
