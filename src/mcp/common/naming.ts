/**
 * How the tools name scripts, owners and versions, and what they answer when a name is wrong:
 * the scripts, handles or versions it most likely meant, looked up the way the CLI does
 * (src/core/nearby-scripts.ts), so an agent can retry with the right one.
 */
import type { ReduckError } from "../../core/errors.js";
import { readAddress, slugProblem } from "../../core/words/address.js";
import { pathIdProblem } from "../../core/path-ids.js";
import { either } from "../../core/words/nearby-handles.js";
import { bareSlugHint, unknownHandleHint, unknownScriptHint } from "../../core/words/nearby-scripts.js";
import { closestMatches } from "../../core/words/suggest.js";
import { getMe, getScript, listScriptVersions } from "../../generated/operations.js";
import { withHint } from "../../core/words/sentence.js";
import { fail, failWith, type ToolContext, type ToolResult } from "./answers.js";

export interface ScriptName {
  /** Undefined: the caller's own scripts. */
  handle?: string;
  host: string;
  slug: string;
}

/** A script's path at the service: its owner always named. */
export interface ScriptPath {
  handle: string;
  host: string;
  slug: string;
}

export const addressOf = (s: { handle: string; host: string; slug: string }) => `${s.handle}/${s.host}/${s.slug}`;

/** What a tool takes to name a script: `address`, or `host` + `slug` (+ `handle`). */
export interface ScriptRef {
  address?: string;
  host?: string;
  slug?: string;
  handle?: string;
}

const EXAMPLE = 'e.g. address: "reduck/mail.google.com/send_email"';

/**
 * A host and slug given apart, checked by the address rule (src/core/words/address.ts), or what is
 * wrong with them. A `/` inside either would make them read as another address.
 */
export function hostAndSlug(host: string, slug: string): { host: string; slug: string } | { problem: string } {
  if (host.includes("/")) return { problem: `${JSON.stringify(host)} is not a host name: give the site alone, e.g. host: "mail.google.com"` };
  // The slug first, on its own: read as the text host/slug, a slug with a dot would be taken for a host.
  const badSlug = slugProblem(slug);
  if (badSlug) return { problem: badSlug };
  const checked = readAddress(`${host}/${slug}`);
  return "problem" in checked ? checked : { host, slug };
}

/** The script an agent named, or what is wrong with the naming (checked before any request). */
export function scriptName(ref: ScriptRef): ScriptName | { problem: string } {
  if (ref.address !== undefined) {
    if (ref.host !== undefined || ref.slug !== undefined || ref.handle !== undefined) {
      return { problem: `give the script's address, or host and slug (and handle), not both (${EXAMPLE})` };
    }
    return readAddress(ref.address);
  }
  if (ref.host === undefined || ref.slug === undefined) {
    return { problem: `name the script by its address, or by host and slug (${EXAMPLE})` };
  }
  const checked = hostAndSlug(ref.host, ref.slug);
  if ("problem" in checked) return checked;
  return { handle: ref.handle, ...checked };
}

/** A name that is no address: for a bare slug (`send_email`), with the addresses of the scripts of that slug. */
export async function nameProblem(ctx: ToolContext, ref: ScriptRef, problem: string): Promise<string> {
  const slug = ref.address !== undefined && /^[a-z0-9_-]{1,64}$/.test(ref.address) ? ref.address : undefined;
  return withHint(problem, slug ? await bareSlugHint(ctx.client, slug) : undefined);
}

/** The caller's own handle (`@username`), or the tool error that says why there is none. */
export async function ownHandle(ctx: ToolContext): Promise<string | ToolResult> {
  const me = await getMe({ client: ctx.client });
  if (me.error) return failWith(me.error);
  if (!me.data.handle) return fail("Your account has no username yet, so your own scripts have no address: give the handle of a project (handle: ...).");
  return me.data.handle;
}

/**
 * The path of the script `ref` names, its owner filled in (the caller's own when it names none),
 * or the tool error that says what is wrong. Nothing is sent for a malformed name.
 */
export async function scriptPath(ctx: ToolContext, ref: ScriptRef): Promise<{ path: ScriptPath; ownImplied: boolean } | ToolResult> {
  const name = scriptName(ref);
  if ("problem" in name) return fail(await nameProblem(ctx, ref, name.problem));
  if (name.handle !== undefined) return { path: { handle: name.handle, host: name.host, slug: name.slug }, ownImplied: false };
  const handle = await ownHandle(ctx);
  if (typeof handle !== "string") return handle;
  return { path: { handle, host: name.host, slug: name.slug }, ownImplied: true };
}

/** A script the service does not know: its error, with the scripts it most likely meant. */
export async function unknownScript(ctx: ToolContext, path: ScriptPath, error: ReduckError, ownImplied = false): Promise<ToolResult> {
  return fail(withHint(error.error, await unknownScriptHint(ctx.client, { ...path, ownImplied })));
}

/** An owner the service does not know: its error, with the handles it most likely meant. */
export async function unknownHandle(ctx: ToolContext, handle: string, error: ReduckError): Promise<ToolResult> {
  return fail(withHint(error.error, await unknownHandleHint(ctx.client, handle)));
}

/**
 * A call about the script at `path` failed. A 404 may be about the script (then the scripts it
 * most likely meant), about a version (then the script's versions) or about something else
 * (the service's message as it is): the script is read to tell which.
 */
export async function scriptCallFailed(
  ctx: ToolContext,
  path: ScriptPath,
  error: ReduckError,
  { ownImplied = false, versionHint }: { ownImplied?: boolean; versionHint?: () => Promise<string | undefined> } = {},
): Promise<ToolResult> {
  if (error.status !== 404) return failWith(error);
  const read = await getScript({ client: ctx.client, path });
  if (read.error?.status === 404) return unknownScript(ctx, path, read.error, ownImplied);
  return failWith(error, versionHint ? await versionHint() : undefined);
}

/**
 * The refusal of a version id that goes into a request's body rather than its URL, by the
 * library's one rule for ids (core/path-ids.ts), or undefined when it fits. An id that goes
 * into a URL is refused by the library itself.
 */
export function notAVersionId(id: string, where: string): string | undefined {
  const problem = pathIdProblem("versionId", id);
  return problem ? `${problem.error} (${where}).` : undefined;
}

interface VersionSummary {
  id: string;
  version_number: number;
  draft: boolean;
}

/** The script's versions (newest first), as many as one tool call should read. */
async function versionsOf(ctx: ToolContext, path: ScriptPath): Promise<{ versions: VersionSummary[]; currentId: string | null } | ReduckError> {
  const [listed, read] = await Promise.all([
    listScriptVersions({ client: ctx.client, path, query: { pageSize: 100 } }),
    getScript({ client: ctx.client, path }),
  ]);
  if (listed.error) return listed.error;
  return { versions: listed.data, currentId: read.error ? null : read.data.current_version_id };
}

/** `1 (current), 2 (draft), 3 (draft)`: the versions an agent may name. */
function versionList(versions: VersionSummary[], currentId: string | null): string {
  const sorted = [...versions].sort((a, b) => a.version_number - b.version_number);
  const shown = sorted.slice(-10).map((v) => `${v.version_number}${v.id === currentId ? " (current)" : v.draft ? " (draft)" : ""} = ${v.id}`);
  return `${sorted.length > 10 ? "..., " : ""}${shown.join(", ")}`;
}

/** What a version tool takes to name a version: its id, or its number. */
export interface VersionRef {
  version_id?: string;
  version?: number;
}

/**
 * The id of the version `ref` names (by id as it is; by number, looked up), or the tool error
 * that lists the script's versions. Checked here: exactly one of the two, an id of the right shape.
 */
export async function versionId(ctx: ToolContext, path: ScriptPath, ref: VersionRef, ownImplied: boolean): Promise<string | ToolResult> {
  const where = `list_script_versions with address: "${addressOf(path)}" lists them`;
  if ((ref.version_id === undefined) === (ref.version === undefined)) {
    return fail(`Name the version by version_id (its id) or by version (its number), one of the two: ${where}.`);
  }
  // An id goes into the version's URL as it is: the library refuses one of another shape.
  if (ref.version_id !== undefined) return ref.version_id;
  const found = await versionsOf(ctx, path);
  if ("error" in found) return scriptCallFailed(ctx, path, found, { ownImplied });
  const match = found.versions.find((v) => v.version_number === ref.version);
  if (match) return match.id;
  return fail(`${addressOf(path)} has no version ${ref.version}. Its versions: ${versionList(found.versions, found.currentId) || "none"}.`);
}

/**
 * The sentence to add when the service does not know a version of the script: the versions it
 * has, and the one most likely meant when the id is a typo of one of them.
 */
export async function unknownVersionHint(ctx: ToolContext, path: ScriptPath, given: string): Promise<string | undefined> {
  const found = await versionsOf(ctx, path);
  if ("error" in found) return undefined;
  const close = closestMatches(
    given,
    found.versions.map((v) => v.id),
  );
  const list = `Versions of ${addressOf(path)}: ${versionList(found.versions, found.currentId) || "none"}.`;
  return close.length ? `Did you mean ${either(close)}? ${list}` : list;
}
