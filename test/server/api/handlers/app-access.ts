// Who may reach which app or app image. Every app operation first asks whether the account has the
// early-access feature (403 with the service's words if not). An app is never public: a scope you
// are not in answers like an unknown handle (404). An image is seen by its scope's members or,
// once public, by any account, and changed by those who may create things in its scope (403).
import type { Caller } from "../auth.js";
import { ApiError } from "../errors.js";
import type { OwnerRef } from "../../store/records.js";
import type { SandboxStore } from "../../store/store.js";
import { type AppImageRecord, type AppRecord, EARLY_ACCESS_WORDS, type ReleaseRecord } from "../../store/apps.js";
import { requireCaller } from "./shared.js";

/** The 403 an account without the hosted-apps feature gets, ending with the service's own words. */
export const NO_EARLY_ACCESS = `Hosted apps are in early access and this account does not have them. ${EARLY_ACCESS_WORDS}`;

/** The account of a caller who may use apps at all. */
export function appUser(store: SandboxStore, caller: Caller | null): string {
  const { userId } = requireCaller(caller);
  if (!store.hasAppsFeature(userId)) throw new ApiError(403, NO_EARLY_ACCESS);
  return userId;
}

/** A scope the caller is in (apps are never public: any other handle is 404, like an unknown one). */
export function memberScope(store: SandboxStore, userId: string, handle: string): OwnerRef {
  const owner = store.resolveHandle(handle);
  if (!owner || !store.isInsider(userId, owner)) {
    throw new ApiError(404, `No scope ${handle} that you are in (apps are never public, so an unknown handle and a scope of others answer alike)`);
  }
  return owner;
}

/** A scope the caller may install apps or create images in: 403 for a member who may only read. */
export function writableScope(store: SandboxStore, userId: string, handle: string): OwnerRef {
  const owner = memberScope(store, userId, handle);
  if (!store.canCreateUnder(userId, owner)) throw new ApiError(403, `You may not change apps or app images in ${handle}: your role there only reads`);
  return owner;
}

export function readableApp(store: SandboxStore, userId: string, path: { handle: string; appId: string }): AppRecord {
  const owner = memberScope(store, userId, path.handle);
  const app = store.apps.get(path.appId);
  if (!app || app.owner.kind !== owner.kind || app.owner.id !== owner.id) throw new ApiError(404, `No app ${path.appId} under ${path.handle}`);
  return app;
}

export function writableApp(store: SandboxStore, userId: string, path: { handle: string; appId: string }): AppRecord {
  const app = readableApp(store, userId, path);
  writableScope(store, userId, path.handle);
  return app;
}

export function mayReadImage(store: SandboxStore, userId: string | null, image: AppImageRecord): boolean {
  return store.isInsider(userId, image.owner) || (image.visibility === "public" && !image.archivedAt && userId !== null);
}

export function readableImage(store: SandboxStore, userId: string, path: { handle: string; slug: string }): AppImageRecord {
  const owner = store.resolveHandle(path.handle);
  const image = owner && store.findAppImage(owner, path.slug);
  if (!image || !mayReadImage(store, userId, image)) throw new ApiError(404, `No app image ${path.handle}/${path.slug} that you may see`);
  return image;
}

export function writableImage(store: SandboxStore, userId: string, path: { handle: string; slug: string }): AppImageRecord {
  const image = readableImage(store, userId, path);
  if (!store.canCreateUnder(userId, image.owner))
    throw new ApiError(403, `You may not change ${path.handle}/${path.slug}: only its scope's members who may create things there can`);
  return image;
}

export function releaseOf(image: AppImageRecord, number: number, address: string): ReleaseRecord {
  const release = image.releases.find((r) => r.number === number);
  if (!release) throw new ApiError(404, `${address} has no release ${number}`);
  return release;
}
