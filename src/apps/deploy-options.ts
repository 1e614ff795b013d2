/**
 * What `deployApp` takes, reports as it goes and answers, its defaults, and the pending release it
 * records in the folder's state file while a release is being uploaded.
 */
import type { ReduckError } from "../core/errors.js";
import type { ReduckClient } from "../core/client.js";
import type { AppFile } from "./folder.js";
import type { AppImageAddress } from "./flock-file.js";

/** The state file a deploy keeps while a release is pending (a dot-file: never uploaded). */
export const DEPLOY_STATE_FILE = ".flock-deploy.json";

/** Uploads at once, unless `concurrency` says otherwise. */
export const DEFAULT_CONCURRENCY = 4;
/** Tries per file (the first and two more), unless `uploadAttempts` says otherwise. */
export const DEFAULT_UPLOAD_ATTEMPTS = 3;
/** URLs this close to expiring are not worth starting an upload on. */
export const EXPIRY_MARGIN_MS = 30_000;
/**
 * How long an upload may make no progress (storage takes no more bytes and gives no answer)
 * before it is given up, unless `uploadTimeoutMs` says otherwise. Counted from the last progress,
 * not from the start, so a large file on a slow link is never cut short while it still moves.
 */
export const DEFAULT_UPLOAD_TIMEOUT_MS = 60_000;

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

/**
 * A deploy's error: `problems` lists what is wrong with the folder, when that is why; `acted` says
 * what the service had done when a write in the folder failed afterwards (a release started, or
 * published), so the error is not mistaken for one found before anything was sent.
 */
export type DeployError = ReduckError & { problems?: string[]; acted?: { release: number; published: boolean } };

export type DeployAppResult = { data: DeployedApp; error: undefined } | { data: undefined; error: DeployError };

/** One file's presigned upload, as startAppImageRelease hands it out. */
export type Upload = { name: string; url: string; headers: Record<string, string> };

/** The pending release, as recorded in the state file. */
export interface PendingRelease {
  image: AppImageAddress;
  release: number;
  fingerprint: string;
  expiresAt: number;
  uploads: Upload[];
  done: string[];
}
