/**
 * What the `reduck flock` commands share: the folder's `flock.json` (which image and which
 * installed app this folder is), image addresses as people type them (`@you/my-app`), and the
 * app's address.
 *
 * Flock is in early access at the service. Its commands are hidden from `--help` unless
 * REDUCK_EXPERIMENTAL=1 (help.ts shows them then), and work when invoked either way; an account
 * without early access gets the service's own 403 and its words.
 */
import path from "node:path";
import { Flags } from "@oclif/core";
import { isAppId } from "../../apps/app-ids.js";
import { FlockFileError, readFlockFile, type AppImageAddress, type FlockFile } from "../../apps/flock-file.js";
import { FLOCK_FILE } from "../../apps/folder.js";
import { DEFAULT_BASE_URL, type ReduckClient } from "../../core/client.js";
import type { ReduckError } from "../../core/errors.js";
import { unknownImageHint, unknownScopeHint } from "../../core/words/nearby-apps.js";
import { getAppImage, listApps } from "../../generated/operations.js";
import { expandHome } from "../../system/paths.js";
import { CliError, fromReduckError, unknownNameError, usageError } from "../shell/errors.js";
import { ExitCode } from "../shell/exit-codes.js";
import { terminalLine } from "../shell/terminal-text.js";

/** True when experimental commands are shown in help. */
export function experimentalShown(): boolean {
  return process.env.REDUCK_EXPERIMENTAL === "1";
}

export const dirFlag = {
  dir: Flags.string({ description: `The app folder, where ${FLOCK_FILE} is (default: the current folder).`, helpValue: "DIR" }),
};

export const imageFlag = {
  image: Flags.string({ description: `The app image as HANDLE/SLUG (default: the one ${FLOCK_FILE} names).`, helpValue: "HANDLE/SLUG" }),
};

/** The folder a command works in: --dir, else the current folder. */
export function folderOf(dir: string | undefined): string {
  return path.resolve(expandHome(dir ?? "."));
}

/**
 * An image address as typed: `@you/my-app` or `acme/my-app`.
 *
 * @example
 * parseImage("@demo/survey"); // { handle: "@demo", slug: "survey" }
 */
export function parseImage(text: string): AppImageAddress {
  const match = /^(@?[A-Za-z0-9_.-]+)\/([a-z0-9_-]{1,64})$/.exec(text.trim());
  if (!match)
    throw usageError(`${JSON.stringify(text)} is not an app image: write HANDLE/SLUG, e.g. @you/my-app (the slug in lower-case letters, digits, '_' and '-')`);
  return { handle: match[1]!, slug: match[2]! };
}

/**
 * The folder's flock.json, read with its fields checked; one whose image or app has the wrong
 * shape is a usage error (exit 2) saying which field.
 */
export async function readFolderFlock(dir: string): ReturnType<typeof readFlockFile> {
  try {
    return await readFlockFile(dir);
  } catch (err) {
    if (err instanceof FlockFileError) throw usageError(err.message);
    throw err;
  }
}

/** The folder's flock.json; a usage error when it names no image (deploy first). */
export async function imageOf(dir: string, given: string | undefined): Promise<AppImageAddress> {
  if (given) return parseImage(given);
  const { image } = await readFolderFlock(dir);
  if (!image) throw usageError(`${path.join(dir, FLOCK_FILE)} names no app image: run \`reduck flock deploy\` there first, or pass --image HANDLE/SLUG`);
  return image;
}

/** The installed app flock.json names; a usage error when there is none (install first). */
export async function appOf(dir: string): Promise<NonNullable<FlockFile["app"]>> {
  const { app, image } = await readFolderFlock(dir);
  if (app) return app;
  const install = image ? `reduck flock install ${image.handle}/${image.slug}` : "reduck flock install HANDLE/SLUG";
  throw usageError(`${path.join(dir, FLOCK_FILE)} names no installed app: run \`${install}\` in that folder first`);
}

/**
 * Where an app is opened: REDUCK_FLOCK_URL when set; for the service itself its flock host; for
 * any other API URL (a staging or local server, the sandbox), that server.
 */
export function appAddress(apiUrl: string, appId: string): string {
  // Only an id of the service's shape goes into an address (never "../", a query, a NUL).
  if (!isAppId(appId)) throw new CliError("an app id that is not one (a UUID) cannot make an app's address", ExitCode.FAILED);
  const base = process.env.REDUCK_FLOCK_URL || (apiUrl.replace(/\/+$/, "") === DEFAULT_BASE_URL ? "https://flock.reduck.ai" : apiUrl);
  return `${base.replace(/\/+$/, "")}/app/${appId}`;
}

/**
 * The error for a call about the scope `handle` that failed: when the service does not know it
 * (or the caller is not in it: apps are never public, and the service answers both with a 404), a
 * usage error (exit 2) with the scope most likely meant; otherwise the error as it is.
 *
 * @example
 * if (listed.error) throw await scopeCallError(client, "acmee", listed.error, "listing acmee's apps");
 * // "listing acmee's apps: No such handle, or a scope you are not in. Did you mean acme?"
 */
export async function scopeCallError(client: ReduckClient, handle: string, error: ReduckError, doing?: string): Promise<CliError> {
  if (error.status !== 404) return fromReduckError(error, doing);
  return unknownNameError(error, doing, await unknownScopeHint(client, handle));
}

/**
 * The error for a call about the app image `image` that failed: when the image is not one the
 * caller can see, a usage error (exit 2) with the image most likely meant; otherwise the error as
 * it is. A 404 may be about something else (a release number, the scope installed into): the
 * image is read to tell, unless `known` says it was just found missing.
 *
 * @example
 * if (listed.error) throw await imageCallError(client, { handle: "reduck", slug: "guestbok" }, listed.error, "listing the releases of reduck/guestbok");
 * // "...: No app image reduck/guestbok that you may see. Did you mean reduck/guestbook?"
 */
export async function imageCallError(
  client: ReduckClient,
  image: AppImageAddress,
  error: ReduckError,
  doing: string,
  { known = false }: { known?: boolean } = {},
): Promise<CliError> {
  if (error.status !== 404) return fromReduckError(error, doing);
  if (!known) {
    const read = await getAppImage({ client, path: image });
    if (!read.error || read.error.status !== 404) return fromReduckError(error, doing);
  }
  return unknownNameError(error, doing, await unknownImageHint(client, image));
}

/**
 * For a 404 from installing `image` into `scope`: the image or the scope the service does not
 * know, as a usage error with what was most likely meant; otherwise the error as it is.
 */
export async function installCallError(client: ReduckClient, image: AppImageAddress, scope: string, error: ReduckError, doing: string): Promise<CliError> {
  if (error.status !== 404) return fromReduckError(error, doing);
  const read = await getAppImage({ client, path: image });
  if (read.error?.status === 404) return unknownNameError(error, doing, await unknownImageHint(client, image));
  const listed = await listApps({ client, path: { handle: scope }, query: { pageSize: 1 } });
  if (listed.error?.status === 404) return unknownNameError(error, doing, await unknownScopeHint(client, scope));
  return fromReduckError(error, doing);
}

/**
 * For a 404 about the app flock.json in `dir` names: flock.json is the user's file, so an app the
 * service does not know there (uninstalled, or installed by another account) is a usage error
 * (exit 2) saying so, with the apps of that scope from the same image and the install that makes
 * a new one; a scope the caller is not in gets the scope most likely meant. Otherwise the error as
 * it is.
 */
export async function folderAppCallError(client: ReduckClient, dir: string, error: ReduckError, doing: string): Promise<CliError> {
  if (error.status !== 404) return fromReduckError(error, doing);
  const { app, image } = await readFolderFlock(dir);
  if (!app) return fromReduckError(error, doing);
  const listed = await listApps({ client, path: { handle: app.handle }, query: { pageSize: 100 } });
  if (listed.error?.status === 404)
    return unknownNameError(error, doing, `${path.join(dir, FLOCK_FILE)} names ${app.handle}: ${await unknownScopeHint(client, app.handle)}`);
  const from = image ? `${image.handle}/${image.slug}` : undefined;
  // Ids here are only shown, as text on one line: one of an odd shape is still one of the scope's apps.
  const others = (listed.error ? [] : listed.data)
    .filter((a) => !from || (a.image && `${a.image.handle}/${a.image.slug}` === from))
    .map((a) => terminalLine(String(a.id)))
    .slice(0, 3);
  const install = `\`reduck flock install ${from ?? "HANDLE/SLUG"} --dir ${dir}\``;
  const instead = others.length ? `; ${app.handle} has ${others.join(", ")}${from ? ` from ${from}` : ""}` : "";
  return unknownNameError(
    error,
    doing,
    `${path.join(dir, FLOCK_FILE)} names an app the service does not know (uninstalled?)${instead}; ${install} installs a new one.`,
  );
}
