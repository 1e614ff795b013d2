/**
 * `deployApp`: an app folder becomes a published release of its image. The folder is read and
 * checked (folder.ts), a release is started, each file goes straight to the presigned URL the
 * service gave for it (several at a time, streamed from disk, a failed upload tried again), and
 * the release is published.
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
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ReduckClient } from "../client.js";
import { AttemptGuard, sleep } from "../core/abort.js";
import { clientInternals } from "../core/client.js";
import { describeFailure, httpError, type ReduckError } from "../core/errors.js";
import { createAppImage, getAppImage, getMe, publishAppImageRelease, startAppImageRelease } from "../generated/operations.js";
import type { operations } from "../generated/schema.js";
import { pathSource } from "../run/files.js";
import { sendOverFetch, sendOverNode, type RunExchange } from "../run/send.js";
import { AppFolderError, FLOCK_FILE, readAppFolder, type AppFile, type AppFolder } from "./folder.js";
import { durationInWords } from "../core/duration.js";

/** The state file a deploy keeps while a release is pending (a dot-file: never uploaded). */
export const DEPLOY_STATE_FILE = ".flock-deploy.json";

/** Uploads at once, unless `concurrency` says otherwise. */
const DEFAULT_CONCURRENCY = 4;
/** Tries per file (the first and two more), unless `uploadAttempts` says otherwise. */
const DEFAULT_UPLOAD_ATTEMPTS = 3;
/** URLs this close to expiring are not worth starting an upload on. */
const EXPIRY_MARGIN_MS = 30_000;
/**
 * How long an upload may make no progress (storage takes no more bytes and gives no answer)
 * before it is given up, unless `uploadTimeoutMs` says otherwise. Counted from the last progress,
 * not from the start, so a large file on a slow link is never cut short while it still moves.
 */
export const DEFAULT_UPLOAD_TIMEOUT_MS = 60_000;

/** An app image's address: its owner's handle (`@username` or a project) and its slug. */
export interface AppImageAddress {
  handle: string;
  slug: string;
}

/** What a deploy reports as it goes. */
export interface DeployProgress {
  phase: "starting" | "uploading" | "publishing" | "published";
  /** The release being deployed, once the service gave its number. */
  release?: number;
  /** True when this run finishes a release an earlier run started. */
  resumed: boolean;
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  /** The file whose upload just finished (with phase "uploading"). */
  finished?: string;
  /** An upload that failed and is being tried again. */
  retrying?: { file: string; attempt: number; error: string };
}

export interface DeployAppOptions {
  client: ReduckClient;
  /** The app folder. */
  dir: string;
  /**
   * The image to deploy to. Default: the one `flock.json` names, else your own handle and the
   * manifest's `slug` (or the folder's name). It is created when it does not exist yet.
   */
  image?: AppImageAddress;
  onProgress?: (progress: DeployProgress) => void;
  /** Uploads at once (default 4). */
  concurrency?: number;
  /** Tries per file before the deploy fails (default 3). */
  uploadAttempts?: number;
  /**
   * How long one upload may go without progress, neither a byte taken by storage nor its
   * answer, before that try is given up (default 60 000 ms; 0: never). A try given up counts
   * as a failed one, and is tried again like any other.
   */
  uploadTimeoutMs?: number;
  signal?: AbortSignal;
}

export interface DeployedApp {
  image: AppImageAddress;
  /** The published release's number. */
  release: number;
  /** True when the image was created by this deploy. */
  created: boolean;
  /** True when this run finished a release an earlier, interrupted run started. */
  resumed: boolean;
  /** Files sent by this run (fewer than the folder's when it resumed). */
  uploaded: number;
  files: Array<Pick<AppFile, "name" | "size" | "sha256">>;
}

/** A deploy's error: `problems` lists what is wrong with the folder, when that is why. */
export type DeployError = ReduckError & { problems?: string[] };

export type DeployAppResult = { data: DeployedApp; error: undefined } | { data: undefined; error: DeployError };

type StartBody = operations["startAppImageRelease"]["requestBody"]["content"]["application/json"];
type Upload = { name: string; url: string; headers: Record<string, string> };

/** The pending release, as recorded in the state file. */
interface PendingRelease {
  image: AppImageAddress;
  release: number;
  fingerprint: string;
  expiresAt: number;
  uploads: Upload[];
  done: string[];
}

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
    if (err instanceof AppFolderError) return fail({ kind: "invalid_request", error: err.message, problems: err.problems });
    return fail({ kind: "invalid_request", error: `${options.dir}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})` });
  }
  const flock = await readFlockFile(folder.dir);
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
    const fresh: PendingRelease = {
      image,
      release: started.data.number,
      fingerprint,
      expiresAt: Date.now() + started.data.expires_in * 1000,
      uploads: started.data.uploads,
      done: [],
    };
    // Recorded before the first byte goes, so an interrupted deploy can finish this release.
    await writeJsonFile(statePath, fresh);
    const sent = await uploadAll(client, options, fresh, files, statePath, files, report, false);
    if (sent.error) return fail(sent.error);
    uploaded += sent.count;
    if (!sent.ok) return fail({ kind: "http", error: `storage refused the upload of ${sent.refused} for release ${fresh.release}` });
    report({ phase: "publishing", release: fresh.release, resumed, filesDone: files.length, bytesDone: bytesTotal });
    const published = await publishAppImageRelease({ client, path: { ...image, releaseNumber: fresh.release }, signal });
    if (published.error) return fail(published.error, `publishing release ${fresh.release}`);
    release = fresh.release;
  }

  await rm(statePath, { force: true });
  // flock.json follows the folder's own image; a deploy elsewhere (options.image) leaves it be.
  if (!flock.image || sameImage(flock.image, image)) await writeFlockFile(folder.dir, { ...flock.raw, image, release });
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

/**
 * Sends `files` to their URLs, several at a time, recording each in the state file once it is
 * answered. `ok: false` when storage refused a URL for good (expired, already used): the caller
 * decides whether to start afresh.
 */
async function uploadAll(
  client: ReduckClient,
  options: DeployAppOptions,
  pending: PendingRelease,
  files: AppFile[],
  statePath: string,
  all: AppFile[],
  report: (p: Omit<DeployProgress, "filesTotal" | "bytesTotal">) => void,
  resumed: boolean,
): Promise<{ ok: boolean; count: number; refused?: string; error?: undefined } | { error: DeployError }> {
  const byName = new Map(pending.uploads.map((u) => [u.name, u]));
  const attempts = Math.max(1, options.uploadAttempts ?? DEFAULT_UPLOAD_ATTEMPTS);
  const timeoutMs = options.uploadTimeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS;
  const done = new Set(pending.done);
  const arrived = new Set(pending.done);
  let bytesDone = all.filter((f) => done.has(f.name)).reduce((n, f) => n + f.size, 0);
  const inFlight = new Map<string, number>();
  const progress = (extra: Partial<DeployProgress> = {}) =>
    report({
      phase: "uploading",
      release: pending.release,
      resumed,
      filesDone: done.size,
      bytesDone: bytesDone + [...inFlight.values()].reduce((a, b) => a + b, 0),
      ...extra,
    });
  progress();
  let saving = Promise.resolve();
  let count = 0;
  let refused: string | undefined;
  let failure: DeployError | undefined;
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file && !failure && !refused; file = queue.shift()) {
      const upload = byName.get(file.name);
      if (!upload) {
        failure = { kind: "invalid_response", error: `the service gave no upload URL for ${file.name}` };
        return;
      }
      for (let attempt = 1; ; attempt++) {
        inFlight.set(file.name, 0);
        const outcome = await uploadOne(client, file, upload, options.signal, timeoutMs, (sent) => {
          inFlight.set(file.name, sent);
          progress();
        });
        inFlight.delete(file.name);
        if (outcome.ok) break;
        if (outcome.error.kind === "aborted" || outcome.error.kind === "invalid_request") {
          failure = outcome.error;
          return;
        }
        if (!outcome.transient) {
          refused = file.name;
          return;
        }
        if (attempt >= attempts) {
          // The files that arrived are recorded: a deploy run again finishes this same release.
          const tries = attempts === 1 ? "failed" : `failed ${attempts} times`;
          failure = {
            ...outcome.error,
            error: `uploading ${file.name} ${tries}: ${outcome.error.error}. Deploy again to finish release ${pending.release}: only the files not yet uploaded are sent`,
          };
          return;
        }
        progress({ retrying: { file: file.name, attempt: attempt + 1, error: outcome.error.error } });
        try {
          await sleep(500 * 2 ** (attempt - 1), options.signal);
        } catch (aborted) {
          failure = describeFailure(aborted, upload.url).error;
          return;
        }
      }
      count++;
      arrived.add(file.name);
      // Written one after another, each with every file answered so far; counted as done (and
      // reported) only once written, so what the progress shows is what a rerun will skip.
      const names = [...arrived];
      saving = saving.then(() => writeJsonFile(statePath, { ...pending, done: names }));
      await saving;
      done.add(file.name);
      bytesDone += file.size;
      progress({ finished: file.name });
    }
  };
  const concurrency = Math.max(1, Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, files.length || 1));
  await Promise.all(Array.from({ length: concurrency }, worker));
  await saving;
  if (failure) return { error: failure };
  return { ok: !refused, count, ...(refused ? { refused } : {}) };
}

/**
 * One try at sending one file to its presigned URL (PUT, the headers it named, the exact length),
 * given up after `timeoutMs` without progress (0: never).
 */
async function uploadOne(
  client: ReduckClient,
  file: AppFile,
  upload: Upload,
  signal: AbortSignal | undefined,
  timeoutMs: number,
  onSent: (sent: number) => void,
): Promise<{ ok: true } | { ok: false; error: DeployError; transient: boolean }> {
  const internal = clientInternals(client);
  const url = upload.url;
  const where = safeUrl(url);
  const source = pathSource(file.path, file.size);
  // Only what the URL asked for: never the credential, which storage has no use for.
  const headers = { ...upload.headers, "Content-Length": String(file.size) };
  const guard = new AttemptGuard(0, signal);
  // Restarted at every byte storage takes: what it bounds is a stall, not the upload's length.
  let stall: ReturnType<typeof setTimeout> | undefined;
  const moved = () => {
    clearTimeout(stall);
    if (timeoutMs > 0 && Number.isFinite(timeoutMs)) stall = setTimeout(() => guard.abort({ kind: "timeout", ms: timeoutMs }), timeoutMs);
  };
  moved();
  const sent = (bytes: number) => {
    moved();
    onSent(bytes);
  };
  const request = { url, method: "PUT", headers, body: (buffers: Parameters<typeof source.chunks>[0]) => source.chunks(buffers), onSent: sent };
  let exchange: RunExchange | undefined;
  try {
    exchange = await (internal.customFetch ? sendOverFetch(internal.customFetch, request, guard) : sendOverNode(internal.connections, request, guard));
    moved();
    const text = new TextDecoder().decode(await guard.race(exchange.read()));
    if (exchange.status >= 200 && exchange.status < 300) return { ok: true };
    // A URL that already took its upload (an earlier run's, whose answer was lost): the file is
    // there or not, and publishing, which checks every file, says which.
    if (exchange.status === 409) return { ok: true };
    const error = { ...httpError({ ...exchange, url: where }, text), url: where };
    error.error = `storage answered the upload of ${file.name} with ${error.error}`;
    const status = exchange.status;
    return { ok: false, error, transient: status === 408 || status === 429 || status >= 500 };
  } catch (err) {
    if (guard.cause?.kind === "timeout") {
      const error = `storage at ${where} took no more of it and gave no answer for ${durationInWords(timeoutMs)} (the upload timeout)`;
      return { ok: false, error: { kind: "timeout", error, url: where }, transient: true };
    }
    const cause = (err as { cause?: { kind?: string; error?: unknown } }).cause;
    const inner = cause?.kind === "failed" ? cause.error : err;
    if ((inner as Error)?.name === "FileChangedError")
      return { ok: false, error: { kind: "invalid_request", error: (inner as Error).message }, transient: false };
    const failure = describeFailure(inner, where);
    return { ok: false, error: { ...failure.error, url: where }, transient: failure.error.kind !== "aborted" && failure.error.kind !== "credential" };
  } finally {
    clearTimeout(stall);
    exchange?.finish();
    guard.dispose();
    await source.release?.();
  }
}

/** Your handle and the manifest's slug (or the folder's name). */
async function defaultImage(client: ReduckClient, folder: AppFolder): Promise<AppImageAddress | { error: DeployError }> {
  const me = await getMe({ client });
  if (me.error) return { error: { ...me.error, error: `finding your handle: ${me.error.error}` } };
  if (!me.data.handle)
    return {
      error: { kind: "invalid_request", error: "your account has no username yet, so it has no scope to deploy to: pick one, or deploy to a project's handle" },
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
        error: `${JSON.stringify(slug)} is not an app slug (lower-case letters, digits, '_' and '-'): set "slug" in manifest.json`,
      },
    };
  }
  return { handle: me.data.handle, slug };
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

async function readPending(file: string): Promise<PendingRelease | undefined> {
  try {
    const value = JSON.parse(await readFile(file, "utf8")) as PendingRelease;
    if (typeof value?.release !== "number" || !Array.isArray(value.uploads) || !Array.isArray(value.done)) return undefined;
    return value;
  } catch {
    return undefined;
  }
}

/** Written to a temporary file and renamed over, so a kill mid-write never leaves half a file. */
async function writeJsonFile(file: string, value: unknown): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(value, null, 2)}\n`);
  await rename(temporary, file);
}

function sameImage(a: AppImageAddress, b: AppImageAddress): boolean {
  return a.handle === b.handle && a.slug === b.slug;
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" && value.trim() ? value : fallback;
}

/** A presigned URL without its query (the signature). */
function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return "the upload URL";
  }
}

function fail(error: DeployError, doing?: string): DeployAppResult {
  return { data: undefined, error: doing ? { ...error, error: `${doing}: ${error.error}` } : error };
}
