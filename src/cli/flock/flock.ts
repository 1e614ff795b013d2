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
import { readFlockFile, type AppImageAddress, type FlockFile } from "../../apps/deploy.js";
import { FLOCK_FILE } from "../../apps/folder.js";
import { DEFAULT_BASE_URL } from "../../client.js";
import { expandHome } from "../../system/paths.js";
import { usageError } from "../shell/errors.js";

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

/** The folder's flock.json; a usage error when it names no image (deploy first). */
export async function imageOf(dir: string, given: string | undefined): Promise<AppImageAddress> {
  if (given) return parseImage(given);
  const { image } = await readFlockFile(dir);
  if (!image) throw usageError(`${path.join(dir, FLOCK_FILE)} names no app image: run \`reduck flock deploy\` there first, or pass --image HANDLE/SLUG`);
  return image;
}

/** The installed app flock.json names; a usage error when there is none (install first). */
export async function appOf(dir: string): Promise<NonNullable<FlockFile["app"]>> {
  const { app, image } = await readFlockFile(dir);
  if (app) return app;
  const install = image ? `reduck flock install ${image.handle}/${image.slug}` : "reduck flock install HANDLE/SLUG";
  throw usageError(`${path.join(dir, FLOCK_FILE)} names no installed app: run \`${install}\` in that folder first`);
}

/**
 * Where an app is opened: REDUCK_FLOCK_URL when set; for the service itself its flock host; for
 * any other API URL (a staging or local server, the sandbox), that server.
 */
export function appAddress(apiUrl: string, appId: string): string {
  const base = process.env.REDUCK_FLOCK_URL || (apiUrl.replace(/\/+$/, "") === DEFAULT_BASE_URL ? "https://flock.reduck.ai" : apiUrl);
  return `${base.replace(/\/+$/, "")}/app/${appId}`;
}
