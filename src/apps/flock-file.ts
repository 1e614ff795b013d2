/**
 * `flock.json`, the file a deploy, a rollback and an install write into an app folder (the image it
 * deploys to, the last release deployed and the release served, the app installed from it), and
 * the atomic JSON write that the deploy's own state file uses too.
 */
import { readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { isAppId, isImageSlug, isReleaseNumber, isScopeHandle } from "./app-ids.js";
import { FLOCK_FILE } from "./folder.js";

/** An app image's address: its owner's handle (`@username` or a project) and its slug. */
export interface AppImageAddress {
  handle: string;
  slug: string;
}

/** `flock.json`: the image (and, once installed, the app) this folder deploys to. */
export interface FlockFile {
  image?: AppImageAddress;
  /** The last release deployed from here. */
  release?: number;
  /** The release the image serves, as the last deploy or rollback from here left it. */
  served?: number;
  /** The app installed from the image, by `reduck flock install`. */
  app?: { handle: string; id: string };
}

/**
 * A `flock.json` whose image, release or app does not have the shape the service gives them: it
 * names no app or image this client will put into a path or a URL (it may have come with a
 * folder someone else wrote).
 */
export class FlockFileError extends Error {
  override name = "FlockFileError";
  constructor(
    readonly file: string,
    readonly field: string,
    what: string,
  ) {
    super(`${file}: ${field} is not ${what}: correct it, or remove it and run \`reduck flock deploy\` or \`reduck flock install\` again to write it`);
  }
}

/**
 * Reads `flock.json` in `dir` (nothing in it when there is none, or it is not JSON). Throws a
 * `FlockFileError` when a field it holds has the wrong shape (an app id that is no UUID...).
 *
 * @example
 * const { image, app } = await readFlockFile("./my-app");
 */
export async function readFlockFile(dir: string): Promise<FlockFile & { raw: Record<string, unknown> }> {
  const file = path.join(dir, FLOCK_FILE);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return { raw: {} };
  }
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text);
  } catch {
    return { raw: {} };
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { raw: {} };
  const image = raw.image as Partial<AppImageAddress> | undefined;
  const app = raw.app as Partial<NonNullable<FlockFile["app"]>> | undefined;
  if (image !== undefined) {
    if (!isScopeHandle(image?.handle)) throw new FlockFileError(file, "image.handle", "a scope's handle (@username or a project's name)");
    if (!isImageSlug(image.slug)) throw new FlockFileError(file, "image.slug", "an image's slug (a-z, 0-9, '_' and '-')");
  }
  for (const field of ["release", "served"] as const)
    if (raw[field] !== undefined && !isReleaseNumber(raw[field])) throw new FlockFileError(file, field, "a release number");
  if (app !== undefined) {
    if (!isScopeHandle(app?.handle)) throw new FlockFileError(file, "app.handle", "a scope's handle (@username or a project's name)");
    if (!isAppId(app.id)) throw new FlockFileError(file, "app.id", "an app id (a UUID)");
  }
  return {
    raw,
    ...(image ? { image: { handle: image.handle as string, slug: image.slug as string } } : {}),
    ...(raw.release !== undefined ? { release: raw.release as number } : {}),
    ...(raw.served !== undefined ? { served: raw.served as number } : {}),
    ...(app ? { app: { handle: app.handle as string, id: app.id as string } } : {}),
  };
}

/** Writes `flock.json` in `dir` (whole, atomically). */
export async function writeFlockFile(dir: string, value: Record<string, unknown>): Promise<void> {
  await writeJsonFile(path.join(dir, FLOCK_FILE), value);
}

/** Written to a temporary file and renamed over, so a kill mid-write never leaves half a file. */
export async function writeJsonFile(file: string, value: unknown): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(value, null, 2)}\n`);
  await rename(temporary, file);
}

/** Whether two addresses name the same image. */
export function sameImage(a: AppImageAddress, b: AppImageAddress): boolean {
  return a.handle === b.handle && a.slug === b.slug;
}
