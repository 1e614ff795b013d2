/**
 * `deployApp`: an app folder becomes a published release of its image. The folder is read and
 * checked (folder.ts), a release is started, each file goes straight to the presigned URL the
 * service gave for it (uploads.ts: several at a time, streamed from disk, a failed upload tried
 * again), and the release is published; flock.json records the image, the release, and that it is served (flock-file.ts).
 * What it takes and answers is in deploy-options.ts.
 *
 * Resuming. What the API offers: `startAppImageRelease` reserves a number and hands out URLs once
 * (there is no call that hands out URLs again for a release already started);
 * `publishAppImageRelease` checks that every file arrived, refuses (409) while one has not, and
 * answers the same way when asked twice. So the pending release is recorded in a state file in the
 * folder (`.flock-deploy.json`, a dot-file and so never uploaded) before the first byte is sent:
 * its number, a fingerprint of what was started (every file's name, size and SHA-256, and the
 * manifest, settings, grant and tools), its URLs and when they expire, and each file once its
 * upload was answered. A deploy run again over the same folder, while those URLs have not expired,
 * sends only the files not yet recorded and publishes that same release; if nothing is left to
 * send it publishes at once (the earlier run may have lost only the publish's answer). Only when
 * that release cannot be finished (the URLs expired, the folder changed, storage refuses a URL)
 * is a new one started. The one gap: a run stopped after the service reserved a number but before
 * its answer arrived leaves a release nobody has URLs for, which stays unpublished (harmless: it
 * serves nothing) while the next run starts another.
 */
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { access, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { ReduckClient } from "../core/client.js";
import { createAppImage, getAppImage, getMe, publishAppImageRelease, startAppImageRelease } from "../generated/operations.js";
import type { operations } from "../generated/schema.js";
import {
  DEPLOY_STATE_FILE,
  EXPIRY_MARGIN_MS,
  type DeployAppOptions,
  type DeployAppResult,
  type DeployError,
  type DeployProgress,
  type PendingRelease,
} from "./deploy-options.js";
import { isReleaseNumber, isScopeHandle } from "./app-ids.js";
import { FlockFileError, readFlockFile, sameImage, writeFlockFile, writeJsonFile, type AppImageAddress } from "./flock-file.js";
import { AppFolderError, FLOCK_FILE, readAppFolder, type AppFolder } from "./folder.js";
import { uploadAll } from "./uploads.js";

type StartBody = operations["startAppImageRelease"]["requestBody"]["content"]["application/json"];

/**
 * Deploys an app folder as a new release of its image, and publishes it. Nothing is sent when
 * the folder breaks one of the service's limits (256 files, 64 MiB a file, the names it serves):
 * the error's `problems` lists them all. Run again after an interruption, it finishes the release
 * the interrupted run started rather than start another (see the module's notes). Writes the image
 * and the release into `flock.json` (unless it names another image). Resolves to `{ data, error }`; never throws.
 *
 * @example
 * ```ts
 * import { createReduckClient, deployApp } from "reduck-client";
 * const client = createReduckClient({ apiKey: process.env.REDUCK_API_KEY! });
 * const { data, error } = await deployApp({
 *   client,
 *   dir: "./my-app",
 *   onProgress: (p) => console.error(`${p.phase} ${p.filesDone}/${p.filesTotal} files`),
 * });
 * if (error) throw new Error(error.error);
 * console.log(`published release ${data.release} of ${data.image.handle}/${data.image.slug}`);
 * ```
 */
export async function deployApp(options: DeployAppOptions): Promise<DeployAppResult> {
  try {
    return await deploy(options);
  } catch (err) {
    // What is left is the folder's own files: the state file or flock.json that cannot be written.
    const e = err as NodeJS.ErrnoException;
    return fail({
      kind: "invalid_request",
      code: "invalid_app_folder",
      error: `${options.dir}: ${e.code ? `cannot write in the folder (${e.code}${e.path ? ` on ${e.path}` : ""})` : String(e.message ?? err)}`,
    });
  }
}

async function deploy(options: DeployAppOptions): Promise<DeployAppResult> {
  const { client, signal } = options;
  let folder: AppFolder;
  try {
    folder = await readAppFolder(options.dir);
  } catch (err) {
    if (err instanceof AppFolderError) return fail({ kind: "invalid_request", code: "invalid_app_folder", error: err.message, problems: err.problems });
    return fail({
      kind: "invalid_request",
      code: "invalid_app_folder",
      error: `${options.dir}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    });
  }
  let flock: Awaited<ReturnType<typeof readFlockFile>>;
  try {
    flock = await readFlockFile(folder.dir);
  } catch (err) {
    if (err instanceof FlockFileError) return fail({ kind: "invalid_request", code: "invalid_app_folder", error: err.message });
    throw err;
  }
  // The deploy writes its state file and flock.json in the folder once the service has acted:
  // checked first, so a release is never started that no file can record.
  const unwritable = await folderWriteProblem(folder.dir);
  if (unwritable) return fail({ kind: "invalid_request", code: "invalid_app_folder", error: `${options.dir}: ${unwritable}` });
  const image = options.image ?? flock.image ?? (await defaultImage(client, folder));
  if ("error" in image) return fail(image.error);

  // The image: created on the first deploy, with the manifest's name and description.
  let created = false;
  const found = await getAppImage({ client, path: image, signal });
  if (found.error && found.error.status === 404) {
    const name = stringOr(folder.manifest.name, image.slug).slice(0, 64);
    const description = typeof folder.manifest.description === "string" ? folder.manifest.description.slice(0, 280) : undefined;
    const made = await createAppImage({
      client,
      path: { handle: image.handle },
      body: { slug: image.slug, name, ...(description ? { description } : {}) },
      signal,
    });
    if (made.error) return fail(made.error, `creating the app ${image.handle}/${image.slug}`);
    created = true;
  } else if (found.error) {
    return fail(found.error, `reading the app ${image.handle}/${image.slug}`);
  }

  const body = startBody(folder);
  const fingerprint = createHash("sha256").update(JSON.stringify(body)).digest("hex");
  const files = folder.files;
  const bytesTotal = files.reduce((n, f) => n + f.size, 0);
  const report = (p: Omit<DeployProgress, "filesTotal" | "bytesTotal">) => options.onProgress?.({ ...p, filesTotal: files.length, bytesTotal });

  const statePath = path.join(folder.dir, DEPLOY_STATE_FILE);
  let uploaded = 0;
  const pending = await readPending(statePath);
  let release: number | undefined;
  let resumed = false;
  if (pending && sameImage(pending.image, image) && pending.fingerprint === fingerprint) {
    // An earlier run started this very release: finish it if its URLs still work.
    const left = files.filter((f) => !pending.done.includes(f.name));
    if (!left.length || pending.expiresAt - EXPIRY_MARGIN_MS > Date.now()) {
      resumed = true;
      const sent = await uploadAll(client, options, pending, left, statePath, files, report, true);
      if (sent.error) return fail(sent.error);
      uploaded += sent.count;
      if (sent.ok) {
        report({ phase: "publishing", release: pending.release, resumed, filesDone: files.length, bytesDone: bytesTotal });
        const published = await publishAppImageRelease({ client, path: { ...image, releaseNumber: pending.release }, signal });
        if (!published.error) release = pending.release;
        else if (published.error.status !== 409) return fail(published.error, `publishing release ${pending.release}`);
        // 409: a file never arrived after all (an upload whose answer was lost): start afresh.
      }
    }
  }

  if (release === undefined) {
    resumed = false;
    report({ phase: "starting", resumed, filesDone: 0, bytesDone: 0 });
    const started = await startAppImageRelease({ client, path: image, body, signal });
    if (started.error) return fail(started.error, `starting a release of ${image.handle}/${image.slug}`);
    // Kept in the state file and put into the publish's path: a number, or nothing is kept.
    if (!isReleaseNumber(started.data.number)) {
      return fail({
        kind: "invalid_response",
        error: `starting a release of ${image.handle}/${image.slug}: the service answered a release number that is not one (a positive integer), so no file was sent; \`reduck flock releases\` lists what it made`,
      });
    }
    const fresh: PendingRelease = {
      image,
      release: started.data.number,
      fingerprint,
      expiresAt: Date.now() + started.data.expires_in * 1000,
      uploads: started.data.uploads,
      done: [],
    };
    // Recorded before the first byte goes, so an interrupted deploy can finish this release.
    try {
      await writeJsonFile(statePath, fresh);
    } catch (err) {
      return fail({
        kind: "invalid_request",
        code: "invalid_app_folder",
        error: `release ${fresh.release} of ${image.handle}/${image.slug} was started, but ${statePath} could not be written (${codeOf(err)}), so nothing was uploaded: that release stays unpublished and serves nothing. Make the folder writable and deploy again`,
        acted: { release: fresh.release, published: false },
      });
    }
    const sent = await uploadAll(client, options, fresh, files, statePath, files, report, false);
    if (sent.error) return fail(sent.error);
    uploaded += sent.count;
    if (!sent.ok)
      return fail({ ...sent.refusal!, error: `storage refused the upload of ${sent.refused} for release ${fresh.release}: ${sent.refusal!.error}` });
    report({ phase: "publishing", release: fresh.release, resumed, filesDone: files.length, bytesDone: bytesTotal });
    const published = await publishAppImageRelease({ client, path: { ...image, releaseNumber: fresh.release }, signal });
    if (published.error) return fail(published.error, `publishing release ${fresh.release}`);
    release = fresh.release;
  }

  await rm(statePath, { force: true }).catch(() => undefined);
  // flock.json follows the folder's own image; a deploy elsewhere (options.image) leaves it be.
  if (!flock.image || sameImage(flock.image, image)) {
    const record = { ...flock.raw, image, release, served: release };
    try {
      await writeFlockFile(folder.dir, record);
    } catch (err) {
      return fail({
        kind: "invalid_request",
        code: "invalid_app_folder",
        error: `release ${release} of ${image.handle}/${image.slug} was published and is served, but ${path.join(folder.dir, FLOCK_FILE)} could not be written (${codeOf(err)}): to finish, write this into it: ${JSON.stringify(record)}`,
        acted: { release, published: true },
      });
    }
  }
  report({ phase: "published", release, resumed, filesDone: files.length, bytesDone: bytesTotal });
  return {
    data: { image, release, created, resumed, uploaded, files: files.map(({ name, size, sha256 }) => ({ name, size, sha256 })) },
    error: undefined,
  };
}

/** The body of `startAppImageRelease`: the files to serve and what the service reads. */
function startBody(folder: AppFolder): StartBody {
  const manifest: Record<string, unknown> = {};
  // The install contract only: the manifest's other fields (name, description) are the image's.
  for (const key of ["secrets", "settings", "hooks", "scripts"]) if (folder.manifest[key] !== undefined) manifest[key] = folder.manifest[key];
  return {
    files: folder.files.map(({ name, size, sha256 }) => ({ name, size, sha256 })),
    manifest: manifest as StartBody["manifest"],
    ...(folder.config ? { config: folder.config } : {}),
    ...(folder.grant ? { grant: folder.grant } : {}),
    ...(folder.tools ? { tools: folder.tools as StartBody["tools"] } : {}),
    ...(folder.migrations.length ? { migrations: folder.migrations } : {}),
    ...(folder.schemaSha ? { schema_sha: folder.schemaSha } : {}),
  };
}

/** Your handle and the manifest's slug (or the folder's name). */
async function defaultImage(client: ReduckClient, folder: AppFolder): Promise<AppImageAddress | { error: DeployError }> {
  const me = await getMe({ client });
  if (me.error) return { error: { ...me.error, error: `finding your handle: ${me.error.error}` } };
  if (me.data.handle && !isScopeHandle(me.data.handle))
    return { error: { kind: "invalid_response", error: "finding your handle: the service answered a handle that is not one (@username)" } };
  if (!me.data.handle)
    return {
      error: {
        kind: "invalid_request",
        code: "no_handle",
        error: "your account has no username yet, so it has no scope to deploy to: pick one, or deploy to a project's handle",
      },
    };
  const slug =
    typeof folder.manifest.slug === "string"
      ? folder.manifest.slug
      : path
          .basename(folder.dir)
          .toLowerCase()
          .replace(/[^a-z0-9_-]+/g, "-")
          .replace(/^-+|-+$/g, "")
          .slice(0, 64);
  if (!/^[a-z0-9_-]{1,64}$/.test(slug)) {
    return {
      error: {
        kind: "invalid_request",
        code: "invalid_app_folder",
        parameter: "slug",
        error: `${JSON.stringify(slug)} is not an app slug (lower-case letters, digits, '_' and '-'): set "slug" in manifest.json`,
      },
    };
  }
  return { handle: me.data.handle, slug };
}

async function readPending(file: string): Promise<PendingRelease | undefined> {
  try {
    const value = JSON.parse(await readFile(file, "utf8")) as PendingRelease;
    if (!isReleaseNumber(value?.release) || !Array.isArray(value.uploads) || !Array.isArray(value.done)) return undefined;
    return value;
  } catch {
    return undefined;
  }
}

/**
 * Why the deploy could not write its files in the folder (the state file, flock.json), or
 * undefined: the folder must take new files, and each of them, where it exists, be a file.
 */
async function folderWriteProblem(dir: string): Promise<string | undefined> {
  const denied = await access(dir, constants.W_OK | constants.X_OK).then(
    () => undefined,
    (err: unknown) => codeOf(err),
  );
  if (denied) return `the deploy writes ${DEPLOY_STATE_FILE} and ${FLOCK_FILE} in the folder, and no file can be created there (${denied})`;
  for (const name of [DEPLOY_STATE_FILE, FLOCK_FILE]) {
    const info = await stat(path.join(dir, name)).catch(() => undefined);
    if (info && !info.isFile()) return `${name} is not a file: the deploy writes it, so move it away`;
  }
  return undefined;
}

function codeOf(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? String(err);
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" && value.trim() ? value : fallback;
}

function fail(error: DeployError, doing?: string): DeployAppResult {
  return { data: undefined, error: doing ? { ...error, error: `${doing}: ${error.error}` } : error };
}
