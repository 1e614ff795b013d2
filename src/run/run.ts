/**
 * runScript: POST /run, in whichever form the files call for.
 *
 * - JSON when every file is named (`relativePath`) or inline (`b64` + `mime`);
 * - multipart as soon as any file is given as bytes (a path, a Blob, a Buffer).
 *
 * Limits are checked before anything is sent, and a run is never repeated once its request
 * may have reached the server: a message must not be sent twice. Whatever form the answer takes
 * (one object, an array of envelopes, a batch to poll, a run to wait on: see outcomes.ts), the
 * caller gets one shape; waiting is polling (wait.ts), which never sends the run again.
 */
import { clientInternals, withCallSettings } from "../client.js";
import { AttemptAborted, AttemptGuard, sleep } from "../core/abort.js";
import { MAX_ANSWER_BYTES } from "../core/answer-limit.js";
import { settingsOf } from "../core/call-settings.js";
import { describeFailure, httpError, describeStatus, type Failure, type FailurePhase } from "../core/errors.js";
import { withResponse } from "../core/answer.js";
import { mergeHeaders } from "../core/call.js";
import { exchange, type Exchanged, type OutgoingRequest } from "../core/exchange.js";
import { redactError } from "../core/redact.js";
import { attemptFailure, type Answer } from "../core/transport.js";
import { FileChangedError, FileProblem } from "./files.js";
import { prepare, RunRequestProblem, type PreparedRequest } from "./prepare-request.js";
import { optionsProblem } from "./run-options.js";
import type { BatchRunOptions, RunAnswer, RunOptions, RunOptionsBase, RunResult, SingleRunOptions } from "./run-types.js";
import type { StepToRun } from "./typed.js";

import { batchResponse, countMismatch, readAnswer, singleResult, type BatchRunResponse, type PendingRun, type RunError, type RunResponse } from "./outcomes.js";
import { runResult, waitForBatch, waitForRunId } from "./poll.js";
import { guarded, pollContext } from "./wait.js";

export type { RunResponse, BatchRunResponse, RunStepOutcome, PendingRun, RunStatusUpdate, RunStatus, RunError } from "./outcomes.js";

export {
  RUN_REGIONS,
  MAX_SCRIPTS_PER_RUN,
  MAX_WAIT_FOR_SECONDS,
  type RunBrowser,
  type RunRegion,
  type ScriptToRun,
  type UploadProgress,
  type SingleRunOptions,
  type BatchRunOptions,
  type RunResult,
  type RunOptions,
  type RunAnswer,
} from "./run-types.js";

/**
 * Runs a catalogue script (or several) and resolves to the script's result. Never throws.
 *
 * @example
 * ```ts
 * const { data, error } = await runScript({
 *   client,
 *   browser: "extension",
 *   script: {
 *     handle: "reduck", host: "mail.google.com", slug: "send_email",
 *     args: { to: "me@example.com", subject: "Our new banner", attachmentName: "banner.png" },
 *     files: { attachment: { path: "./banner.png" } },
 *   },
 *   onUploadProgress: ({ sent, total }) => console.error(`${sent}/${total}`),
 * });
 * if (error) console.error(error.error);
 * else console.log(data.result, data.runId);
 * ```
 *
 * A run that outlives `waitForSeconds` is waited on (polled) unless `wait: false`:
 * ```ts
 * const { data } = await runScript({ client, scripts, waitForSeconds: 30, wait: false });
 * if (data && isPendingRun(data)) saveForLater(data.batchId); // then waitForRun({ client, batchId })
 * ```
 */
export function runScript<
  H extends string = string,
  Ho extends string = string,
  S extends string = string,
  // Not `const`: a registered handle, host or slug keeps its literal type anyway (StepToRun), and
  // args keep their widened types, so a wrong one is one error at that input.
  T extends [] | readonly StepToRun[] = never,
  W extends boolean = true,
>(options: RunOptions<H, Ho, S, T, W>): Promise<RunResult<RunAnswer<H, Ho, S, T, W>>>;
export async function runScript(given: SingleRunOptions | BatchRunOptions): Promise<RunResult<RunResponse | BatchRunResponse | PendingRun>> {
  try {
    const problem = optionsProblem(given);
    if (problem) return invalid(problem);
    // The call's own timeout and retries, for the run's request and every poll after it.
    const options = { ...given, client: withCallSettings(given.client, settingsOf(given)) };
    let prepared: PreparedRequest;
    try {
      prepared = await prepare(options);
    } catch (err) {
      if (err instanceof FileProblem || err instanceof RunRequestProblem) return invalid(err.message);
      throw err;
    }
    const startedAt = Date.now();
    const sent = await send(options, prepared);
    if (sent.error) return sent;
    return await resultOf(options, sent, startedAt);
  } catch (err) {
    // Never throws: whatever slipped past the checks above is still the caller's input.
    return invalid(`the run could not be made: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function invalid(error: string): RunResult<never> {
  return { data: undefined, error: { kind: "invalid_request", error }, response: undefined };
}

/** The POST's answer: its 2xx body parsed (not yet read as a run: see resultOf), or the request's error. */
async function send(options: RunOptionsBase, prepared: PreparedRequest): Promise<RunResult<unknown>> {
  const { client, onUploadProgress, signal } = options;
  const internal = clientInternals(client);
  const { maxRetries, timeoutMs, onRetry } = internal.settings;
  const url = `${client.runBaseUrl}/run`;
  let auth: Record<string, string>;
  try {
    auth = await internal.authHeaders(client.runBaseUrl);
  } catch (err) {
    await prepared.release();
    return { data: undefined, error: describeFailure(err, url).error, response: undefined };
  }
  let headers: Record<string, string>;
  try {
    headers = mergeHeaders(internal.headers, options.headers, auth, {
      Accept: "application/json",
      "Content-Type": prepared.contentType,
      "Content-Length": String(prepared.length),
    });
  } catch (err) {
    await prepared.release();
    return invalid(`the run could not be made: ${(err as Error).message}`);
  }
  // Progress is counted only when someone listens (multipart runs).
  const total = prepared.length;
  const onSent = onUploadProgress && typeof prepared.body !== "string" ? (sent: number) => onUploadProgress({ sent, total }) : undefined;
  const body = typeof prepared.body === "string" ? prepared.body : { length: total, chunks: prepared.body, onSent };
  const run: OutgoingRequest = { method: "POST", url, headers, body };

  for (let attempt = 0; ; attempt++) {
    // No timeout until the answer begins (a run takes as long as its script) unless this call
    // gave one; the caller's abort always ends it, and so does a file that changes while sent.
    const guard = new AttemptGuard(options.timeoutMs ?? 0, signal);
    let answer: Exchanged | undefined;
    try {
      try {
        onSent?.(0);
        // Never sent on by a redirect: the answer names where it pointed instead (parseAnswer).
        answer = await guard.race(exchange(internal.route, run, guard, { redirects: 0 }));
      } catch (err) {
        const failure = runFailure(err, url, "request");
        // Only a connection never made proves the run never arrived; nothing else is repeated.
        if (failure.notSent && failure.transient && attempt < maxRetries) {
          const delayMs = 250 * (attempt + 1);
          onRetry?.({ attempt: attempt + 1, delayMs, reason: failure.error.cause ?? failure.error.kind, method: "POST", url });
          try {
            await sleep(delayMs, signal);
          } catch (aborted) {
            return { data: undefined, error: describeFailure(aborted, url).error, response: undefined };
          }
          continue;
        }
        return { data: undefined, error: failure.error, response: undefined };
      }
      let text: string;
      const received: Answer = { status: answer.status, statusText: answer.statusText, url: answer.url, headers: answer.headers, body: new Uint8Array(0) };
      try {
        // Once the answer has begun, its body must arrive within the timeout, and is bounded.
        guard.startTimer(timeoutMs);
        received.body = await guard.race(answer.read(MAX_ANSWER_BYTES));
        text = new TextDecoder().decode(received.body);
      } catch (err) {
        return withResponse({ data: undefined, error: runFailure(err, url, "body", answer.status).error }, received) as RunResult<never>;
      }
      return withResponse(parseAnswer(received, text, url, internal.secrets()), received) as RunResult<unknown>;
    } finally {
      answer?.finish();
      guard.dispose();
      await prepared.release();
    }
  }
}

/** A failure of the run request; a file that changed while sent is the caller's input, not the network. */
function runFailure(err: unknown, url: string, phase: FailurePhase, status?: number): Failure {
  const aborted = err as AttemptAborted;
  const cause = aborted instanceof AttemptAborted && aborted.cause.kind === "failed" ? aborted.cause.error : err;
  for (let e = cause as { cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e instanceof FileChangedError) return { error: { kind: "invalid_request", error: e.message, url }, notSent: false, transient: false };
  }
  return attemptFailure(cause, url, phase, status);
}

/** What the answer says: its body parsed, or the run's error (with the run's id when one was recorded). */
function parseAnswer(answer: Answer, text: string, url: string, secrets: string[]): { data: unknown; error: undefined } | { data: undefined; error: RunError } {
  if (answer.status < 200 || answer.status > 299) {
    const error: RunError = redactError(httpError(answer, text), secrets);
    // A run is never sent on to another address: say where the server pointed instead.
    if (answer.status >= 300 && answer.status < 400 && answer.headers.location)
      error.error += ` (it points to ${answer.headers.location}: set runBaseUrl to that address)`;
    Object.assign(error, runFields(text));
    return { data: undefined, error };
  }
  try {
    return { data: JSON.parse(text), error: undefined };
  } catch {
    return { data: undefined, error: { kind: "invalid_response", status: answer.status, url, error: `${describeStatus(answer)} but the body is not JSON` } };
  }
}

/** The run's id and the service's class and words for a failure, from an error body. */
function runFields(text: string): Pick<RunError, "runId" | "errorType" | "externalMessage"> {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text);
  } catch {
    return {};
  }
  const out: Pick<RunError, "runId" | "errorType" | "externalMessage"> = {};
  for (const key of ["runId", "errorType", "externalMessage"] as const) if (typeof body?.[key] === "string" && body[key] !== "") out[key] = body[key] as string;
  return out;
}

/**
 * The 2xx answer as the caller's result: finished outcomes at once; a batch or run still going
 * waited on (polled) unless `wait: false`. One outcome per script, or an error: never re-paired.
 */
async function resultOf(
  options: SingleRunOptions | BatchRunOptions,
  sent: RunResult<unknown> & { error: undefined },
  startedAt: number,
): Promise<RunResult<RunResponse | BatchRunResponse | PendingRun>> {
  const single = options.script !== undefined;
  const expected = single ? 1 : options.scripts!.length;
  const lastResponse = () => sent.response;
  const read = readAnswer(sent.data);
  const ctx = pollContext(options.client, { signal: options.signal, onStatus: options.onStatus, headers: options.headers }, startedAt);
  const wait = options.wait !== false;

  /** With `wait: false`: the run's ids handed back as they are (and told to onStatus once). */
  const handBack = (
    status: PendingRun["status"],
    ids: { batchId: string; runIds: (string | null)[] } | { runId: string; runIds: string[] },
    total: number,
    retryAfterMs?: number,
  ) => {
    guarded(options.onStatus)?.({ status, ...ids, total, completed: 0, failed: 0, elapsedMs: Date.now() - startedAt });
    const pending: PendingRun = { status, ...ids, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
    return runResult({ data: pending, error: undefined }, lastResponse);
  };

  switch (read.kind) {
    case "unreadable":
      return runResult<never>({ data: undefined, error: { kind: "invalid_response", error: `the run's answer could not be read: ${read.why}` } }, lastResponse);
    case "single":
      if (single) return runResult(singleResult(read.outcome), lastResponse);
      return runResult(asBatch(batchResponse(undefined, [read.outcome], expected, false)), lastResponse);
    case "batch": {
      if (!single) return runResult(asBatch(batchResponse(read.batchId, read.runs, expected, read.wireFailed, options.sequential === true)), lastResponse);
      if (read.runs.length !== 1) return runResult<never>({ data: undefined, error: countMismatch(1, read.runs.length, read.batchId) }, lastResponse);
      return runResult(singleResult(read.runs[0]!, read.batchId), lastResponse);
    }
    case "pending-batch": {
      const runIds = read.runs.map((r) => (typeof (r as { runId?: unknown })?.runId === "string" ? (r as { runId: string }).runId : null));
      if (!wait) return handBack(read.status, { batchId: read.batchId, runIds }, expected, read.retryAfterMs);
      const waited = await waitForBatch(ctx, read.batchId, read, expected, options.sequential === true);
      if (!single || waited.error) return waited;
      return runResult(singleResult(waited.data.runs[0]!, read.batchId), () => waited.response);
    }
    case "pending-run": {
      if (expected !== 1) return runResult<never>({ data: undefined, error: { ...countMismatch(expected, 1), runId: read.runId } }, lastResponse);
      if (!wait) return handBack(read.status, { runId: read.runId, runIds: [read.runId] }, 1, read.retryAfterMs);
      const waited = await waitForRunId(ctx, read.runId, read);
      if (single || waited.error) return waited;
      // One of `scripts`, waited on as a run: still a batch's answer, of one step.
      const step = { status: "completed" as const, runId: waited.data.runId, result: waited.data.result };
      return runResult(asBatch(batchResponse(undefined, [step], 1, false)), () => waited.response);
    }
  }
}

function asBatch(out: BatchRunResponse | RunError): { data: BatchRunResponse; error: undefined } | { data: undefined; error: RunError } {
  return "kind" in out ? { data: undefined, error: out } : { data: out, error: undefined };
}
