/**
 * Sending a release's files to the presigned URLs the service handed out: several at a time,
 * streamed from disk, each answered file recorded in the state file, a failed or stalled upload
 * tried again.
 */
import type { ReduckClient } from "../core/client.js";
import { AttemptGuard, sleep } from "../core/wire/abort.js";
import { exchangeThrough } from "../core/client-requests.js";
import { durationInWords } from "../core/duration.js";
import { MAX_ANSWER_BYTES } from "../core/wire/answer-limit.js";
import { describeFailure, httpError } from "../core/errors.js";
import type { Exchanged, OutgoingRequest } from "../core/wire/exchange.js";
import { attemptFailure } from "../core/wire/transport.js";
import { pathSource } from "../run/files.js";
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_UPLOAD_ATTEMPTS,
  DEFAULT_UPLOAD_TIMEOUT_MS,
  type DeployAppOptions,
  type DeployError,
  type DeployProgress,
  type PendingRelease,
  type Upload,
} from "./deploy-options.js";
import { writeJsonFile } from "./flock-file.js";
import type { AppFile } from "./folder.js";

/**
 * Sends `files` to their URLs, several at a time, recording each in the state file once it is
 * answered. `ok: false` when storage refused a URL for good (expired, already used): the caller
 * decides whether to start afresh.
 */
export async function uploadAll(
  client: ReduckClient,
  options: DeployAppOptions,
  pending: PendingRelease,
  files: AppFile[],
  statePath: string,
  all: AppFile[],
  report: (p: Omit<DeployProgress, "filesTotal" | "bytesTotal">) => void,
  resumed: boolean,
): Promise<{ ok: boolean; count: number; refused?: string; refusal?: DeployError; error?: undefined } | { error: DeployError }> {
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
  let refusal: DeployError | undefined;
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
          refusal = outcome.error;
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
  return { ok: !refused, count, ...(refused ? { refused, refusal } : {}) };
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
  const request: OutgoingRequest = { url, method: "PUT", headers, body: { length: file.size, chunks: (buffers) => source.chunks(buffers), onSent: sent } };
  let answer: Exchanged | undefined;
  try {
    // Never sent on by a redirect (the body streams from disk, once).
    answer = await guard.race(exchangeThrough(client, request, guard, { redirects: 0 }));
    moved();
    const text = new TextDecoder().decode(await guard.race(answer.read(MAX_ANSWER_BYTES)));
    if (answer.status >= 200 && answer.status < 300) return { ok: true };
    // A URL that already took its upload (an earlier run's, whose answer was lost): the file is
    // there or not, and publishing, which checks every file, says which.
    if (answer.status === 409) return { ok: true };
    const error = { ...httpError({ ...answer, url: where }, text), url: where };
    error.error = `storage answered the upload of ${file.name} with ${error.error}`;
    const status = answer.status;
    return { ok: false, error, transient: status === 408 || status === 429 || status >= 500 };
  } catch (err) {
    if (guard.cause?.kind === "timeout") {
      const error = `storage at ${where} took no more of it and gave no answer for ${durationInWords(timeoutMs)} (the upload timeout)`;
      return { ok: false, error: { kind: "timeout", error, url: where }, transient: true };
    }
    const cause = (err as { cause?: { kind?: string; error?: unknown } }).cause;
    const inner = cause?.kind === "failed" ? cause.error : err;
    if ((inner as Error)?.name === "FileChangedError")
      return { ok: false, error: { kind: "invalid_request", code: "file_changed", error: (inner as Error).message }, transient: false };
    const failure = attemptFailure(inner, where, answer ? "body" : "request", answer?.status);
    return { ok: false, error: { ...failure.error, url: where }, transient: failure.error.kind !== "aborted" && failure.error.kind !== "credential" };
  } finally {
    clearTimeout(stall);
    answer?.finish();
    guard.dispose();
    await source.release?.();
  }
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
