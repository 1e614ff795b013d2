// Lookups and permission checks every script operation shares, so each refusal reads the same
// everywhere: invisible things are 404 (existence is not leaked), visible-but-locked things are 403.
import { NOT_AUTHENTICATED, type Caller } from "../auth.js";
import { ApiError } from "../errors.js";
import type { OwnerRef, ScriptRecord, VersionRecord } from "../../store/records.js";
import type { SandboxStore } from "../../store/store.js";

export const DEFAULT_PAGE_SIZE = 20;

export interface Page<T> {
  data: T[];
  hasNextPage: boolean;
  totalCount: number;
}

/** One page of an already filtered and sorted list (`page` counts from 0). */
export function paginate<T>(items: T[], query: { page?: number; pageSize?: number }): Page<T> {
  const page = query.page ?? 0;
  const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
  const start = page * pageSize;
  return { data: items.slice(start, start + pageSize), hasNextPage: start + pageSize < items.length, totalCount: items.length };
}

export function userIdOf(caller: Caller | null): string | null {
  return caller?.userId ?? null;
}

/** For operations openapi.json lets anonymous callers reach only in part: the rest needs a caller. */
export function requireCaller(caller: Caller | null): Caller {
  if (!caller) throw new ApiError(401, NOT_AUTHENTICATED);
  return caller;
}

export function address(handle: string, host: string, slug?: string): string {
  return slug === undefined ? `${handle}/${host}` : `${handle}/${host}/${slug}`;
}

/** The owner a handle names, or 404. */
export function ownerOf(store: SandboxStore, handle: string): OwnerRef {
  const owner = store.resolveHandle(handle);
  if (!owner) throw new ApiError(404, `No such handle: ${handle}`);
  return owner;
}

interface ScriptPath {
  handle: string;
  host: string;
  slug: string;
}

/** A script the caller may read, or 404 (whether it does not exist or is private to others). */
export function readableScript(store: SandboxStore, caller: Caller | null, path: ScriptPath): ScriptRecord {
  const script = store.findScriptByAddress(path.handle, path.host, path.slug);
  if (!script || !store.canReadScript(userIdOf(caller), script)) {
    throw new ApiError(404, `No such script: ${address(path.handle, path.host, path.slug)}`);
  }
  return script;
}

/** A script the caller may change: 404 if they cannot even see it, 403 if they can see but not change it. */
export function writableScript(store: SandboxStore, caller: Caller | null, path: ScriptPath): ScriptRecord {
  const script = readableScript(store, caller, path);
  if (!store.canWriteScript(userIdOf(caller), script)) {
    const why = store.isOfficial(script.owner)
      ? "official catalogue scripts are write-locked; copy it under your own handle to change it"
      : `only the owner${script.owner.kind === "project" ? " and the project's members who may edit scripts" : ""} may change it`;
    throw new ApiError(403, `You may not change ${address(path.handle, path.host, path.slug)}: ${why}`);
  }
  return script;
}

/** 409 for changes an archived script refuses. */
export function refuseIfArchived(script: ScriptRecord, what: string, handle: string): void {
  if (script.archivedAt) {
    throw new ApiError(409, `${address(handle, script.host, script.slug)} is archived, so ${what}: restore it first`);
  }
}

/**
 * A version of this script the caller may see, or 404. Drafts are work in progress: only callers who
 * may edit the script see them.
 */
export function visibleVersion(store: SandboxStore, caller: Caller | null, script: ScriptRecord, versionId: string): VersionRecord {
  const version = store.versions.get(versionId);
  if (!version || version.scriptId !== script.id || (version.draft && !store.canWriteScript(userIdOf(caller), script))) {
    throw new ApiError(404, `No such version of ${script.host}/${script.slug}: ${versionId}`);
  }
  return version;
}
