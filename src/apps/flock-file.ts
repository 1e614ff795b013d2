/**
 * `flock.json`, the file a deploy and an install write into an app folder (the image it deploys
 * to, the last release, the app installed from it), and the atomic JSON write that the deploy's
 * own state file uses too.
 */
import { readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
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
  /** The app installed from the image, by `reduck flock install`. */
  app?: { handle: string; id: string };
}

/**
 * Reads `flock.json` in `dir` (nothing in it when there is none, or it is not JSON).
 *
 * @example
 * const { image, app } = (await readFlockFile("./my-app")).value;
 */
export async function readFlockFile(dir: string): Promise<FlockFile & { raw: Record<string, unknown> }> {
  let text: string;
  try {
    text = await readFile(path.join(dir, FLOCK_FILE), "utf8");
  } catch {
    return { raw: {} };
  }
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text);
  } catch {
    return { raw: {} };
  }
  const image = raw.image as AppImageAddress | undefined;
  const app = raw.app as FlockFile["app"];
  return {
    raw,
    ...(image && typeof image.handle === "string" && typeof image.slug === "string" ? { image: { handle: image.handle, slug: image.slug } } : {}),
    ...(typeof raw.release === "number" ? { release: raw.release } : {}),
    ...(app && typeof app.handle === "string" && typeof app.id === "string" ? { app: { handle: app.handle, id: app.id } } : {}),
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
