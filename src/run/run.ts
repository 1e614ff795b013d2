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
import { withCallSettings } from "../core/client.js";
import { AttemptGuard, sleep } from "../core/wire/abort.js";
import { MAX_ANSWER_BYTES } from "../core/wire/answer-limit.js";
import { settingsOf } from "../core/wire/call-settings.js";
import { describeFailure, type ReduckErrorCode } from "../core/errors.js";
import { withResponse } from "../core/wire/answer.js";
import { mergeHeaders } from "../core/call.js";
import { clientHeaders, clientSecrets, clientSettings, credentialHeaders, exchangeThrough } from "../core/client-requests.js";
import type { Exchanged, OutgoingRequest } from "../core/wire/exchange.js";
import type { Answer } from "../core/wire/transport.js";
import { FileProblem } from "./files.js";
import { prepare, RunRequestProblem, type PreparedRequest } from "./prepare-request.js";
import { optionsProblem } from "./run-options.js";
import type { BatchRunOptions, RunAnswer, RunOptions, RunResult, SingleRunOptions } from "./run-types.js";
import type { StepToRun } from "./typed.js";
import { failedResult, hintOutcomes, mayContinue, parseAnswer, runFailure } from "./run-failures.js";
import type { BatchRunResponse, PendingRun, RunResponse } from "./outcomes.js";
import { countMismatch, endedResult, readAnswer } from "./read-answer.js";
import { runResult, waitForBatch, waitForRunId, type Waited } from "./poll.js";
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
    if (problem) return invalid(problem.message, "invalid_options", problem.parameter, problem.suggestion);
    // The call's own timeout and retries, for the run's request and every poll after it.
    const options = { ...given, client: withCallSettings(given.client, settingsOf(given)) };
    let prepared: PreparedRequest;
    try {
      prepared = await prepare(options);
    } catch (err) {
      if (err instanceof FileProblem) return invalid(err.message, err.code, err.input);
      if (err instanceof RunRequestProblem) return invalid(err.message, err.code);
      throw err;
    }
    // Said apart from an abort once the request is on its way: here nothing was sent, so no run exists.
    if (options.signal?.aborted) {
      await prepared.release();
      return { data: undefined, error: { kind: "aborted", error: "the run was not sent: its signal was aborted first" }, response: undefined };
    }
    const startedAt = Date.now();
    const sent = await send(options, prepared);
    if (sent.error) return await failedResult(options, sent);
    return await resultOf(options, sent, startedAt);
  } catch (err) {
    // Never throws: whatever slipped past the checks above is still the caller's input.
    return invalid(`the run could not be made: ${err instanceof Error ? err.message : String(err)}`, "invalid_options");
  }
}

function invalid(error: string, code: ReduckErrorCode, parameter?: string, suggestion?: string): RunResult<never> {
  const named = { ...(parameter ? { parameter } : {}), ...(suggestion ? { suggestion } : {}) };
  return { data: undefined, error: { kind: "invalid_request", code, error, ...named }, outcomes: undefined, response: undefined };
}

/** The POST's answer: its 2xx body parsed (not yet read as a run: see resultOf), or the request's error. */
async function send(options: SingleRunOptions | BatchRunOptions, prepared: PreparedRequest): Promise<RunResult<unknown>> {
  const { client, onUploadProgress, signal } = options;
  const { maxRetries, timeoutMs, onRetry } = clientSettings(client);
  const url = `${client.runBaseUrl}/run`;
  let auth: Record<string, string>;
  try {
    auth = await credentialHeaders(client, client.runBaseUrl);
  } catch (err) {
    await prepared.release();
    return { data: undefined, error: describeFailure(err, url).error, response: undefined };
  }
  let headers: Record<string, string>;
  try {
    headers = mergeHeaders(clientHeaders(client), options.headers, auth, {
      Accept: "application/json",
      "Content-Type": prepared.contentType,
      "Content-Length": String(prepared.length),
    });
  } catch (err) {
    await prepared.release();
    return invalid(`the run could not be made: ${(err as Error).message}`, "invalid_options", "headers");
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
    // A number: mayContinue makes it text, only when a failure names it.
    const sentAt = Date.now();
    try {
      try {
        onSent?.(0);
        // Never sent on by a redirect: the answer names where it pointed instead (parseAnswer).
        answer = await guard.race(exchangeThrough(client, run, guard, { redirects: 0 }));
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
        return { data: undefined, error: failure.notSent ? failure.error : mayContinue(failure, options, sentAt), response: undefined };
      }
      let text: string;
      const received: Answer = { status: answer.status, statusText: answer.statusText, url: answer.url, headers: answer.headers, body: new Uint8Array(0) };
      try {
        // Once the answer has begun, its body must arrive within the timeout, and is bounded.
        guard.startTimer(timeoutMs);
        received.body = await guard.race(answer.read(MAX_ANSWER_BYTES));
        text = new TextDecoder().decode(received.body);
      } catch (err) {
        return withResponse(
          { data: undefined, error: mayContinue(runFailure(err, url, "body", answer.status), options, sentAt) },
          received,
        ) as RunResult<never>;
      }
      return withResponse(parseAnswer(received, text, url, clientSecrets(client)), received) as RunResult<unknown>;
    } finally {
      answer?.finish();
      guard.dispose();
      await prepared.release();
    }
  }
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
    return runResult({ data: pending, error: undefined }, () => sent.response);
  };

  let waited: Waited;
  switch (read.kind) {
    case "unreadable":
      return runResult<never>(
        { data: undefined, error: { kind: "invalid_response", error: `the run's answer could not be read: ${read.why}` } },
        () => sent.response,
      );
    case "ended":
      waited = { ended: read, lastResponse: () => sent.response };
      break;
    case "pending-batch": {
      const runIds = read.runs.map((r) => (typeof (r as { runId?: unknown })?.runId === "string" ? (r as { runId: string }).runId : null));
      if (!wait) return handBack(read.status, { batchId: read.batchId, runIds }, expected, read.retryAfterMs);
      waited = await waitForBatch(ctx, read.batchId, read, expected);
      break;
    }
    case "pending-run": {
      if (expected !== 1) return runResult<never>({ data: undefined, error: { ...countMismatch(expected, 1), runId: read.runId } }, () => sent.response);
      if (!wait) return handBack(read.status, { runId: read.runId, runIds: [read.runId] }, 1, read.retryAfterMs);
      waited = await waitForRunId(ctx, read.runId, read);
      break;
    }
  }
  if (waited.error?.code === "invalid_id") {
    // The id came from the service's answer, not from the caller: an answer that cannot be waited on.
    const error = {
      kind: "invalid_response" as const,
      code: "invalid_id" as const,
      error: `the service's answer names a run to wait on by an id that cannot be: ${waited.error.error}`,
    };
    return runResult<never>({ data: undefined, error }, waited.lastResponse);
  }
  if (waited.error) return runResult<never>({ data: undefined, error: waited.error }, waited.lastResponse);
  const ended = await hintOutcomes(options, waited.ended);
  return runResult<RunResponse | BatchRunResponse>(endedResult(ended, { single, expected, sequential: options.sequential === true }), waited.lastResponse);
}
