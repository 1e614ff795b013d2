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
import { clientInternals } from "../client.js";
import { AttemptAborted, AttemptGuard, sleep } from "../core/abort.js";
import { describeFailure, httpError, describeStatus, type Failure, type FailurePhase, type ReduckErrorCode } from "../core/errors.js";
import { withResponse } from "../core/answer.js";
import { mergeHeaders } from "../core/call.js";
import { redactError } from "../core/redact.js";
import type { Answer } from "../core/transport.js";
import { FileChangedError, FileProblem } from "./files.js";
import { prepare, RunRequestProblem, type PreparedRequest } from "./prepare-request.js";
import { optionsProblem } from "./run-options.js";
import type { BatchRunOptions, RunAnswer, RunOptions, RunResult, ScriptToRun, SingleRunOptions } from "./run-types.js";
import type { StepToRun } from "./typed.js";
import { sendOverFetch, sendOverNode, type RunExchange } from "./send.js";
import { refusesArguments, unknownArgument } from "./argument-hint.js";
import {
  countMismatch,
  endedResult,
  readAnswer,
  type BatchRunResponse,
  type Ended,
  type PendingRun,
  type RunError,
  type RunResponse,
  type RunStepOutcome,
} from "./outcomes.js";
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
export async function runScript(options: SingleRunOptions | BatchRunOptions): Promise<RunResult<RunResponse | BatchRunResponse | PendingRun>> {
  try {
    const problem = optionsProblem(options);
    if (problem) return invalid(problem.message, "invalid_options", problem.parameter, problem.suggestion);
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
  const internal = clientInternals(client);
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
    return invalid(`the run could not be made: ${(err as Error).message}`, "invalid_options", "headers");
  }
  // Progress is counted only when someone listens (multipart runs).
  const total = prepared.length;
  const onSent = onUploadProgress && typeof prepared.body !== "string" ? (sent: number) => onUploadProgress({ sent, total }) : undefined;
  const run = { url, headers, body: prepared.body, onSent };

  for (let attempt = 0; ; attempt++) {
    // No timeout (a run takes as long as its script), but the caller's abort always ends it,
    // and so does a file that changes while it is sent.
    const guard = new AttemptGuard(0, signal);
    let exchange: RunExchange | undefined;
    const sentAt = new Date().toISOString();
    try {
      try {
        onSent?.(0);
        exchange = await (internal.customFetch ? sendOverFetch(internal.customFetch, run, guard) : sendOverNode(internal.connections, run, guard));
      } catch (err) {
        const failure = runFailure(err, url, "request");
        // Only a connection never made proves the run never arrived; nothing else is repeated.
        if (failure.notSent && failure.transient && attempt < client.maxRetries) {
          try {
            await sleep(250 * (attempt + 1), signal);
          } catch (aborted) {
            return { data: undefined, error: describeFailure(aborted, url).error, response: undefined };
          }
          continue;
        }
        return { data: undefined, error: failure.notSent ? failure.error : mayContinue(failure, options, sentAt), response: undefined };
      }
      let text: string;
      const answer: Answer = {
        status: exchange.status,
        statusText: exchange.statusText,
        url: exchange.url,
        headers: exchange.headers,
        body: new Uint8Array(0),
      };
      try {
        answer.body = await guard.race(exchange.read());
        text = new TextDecoder().decode(answer.body);
      } catch (err) {
        return withResponse({ data: undefined, error: mayContinue(runFailure(err, url, "body"), options, sentAt) }, answer) as RunResult<never>;
      }
      return withResponse(parseAnswer(answer, text, url, internal.secrets()), answer) as RunResult<unknown>;
    } finally {
      exchange?.finish();
      guard.dispose();
      await prepared.release();
    }
  }
}

/** A failure of the run request; a file that changed while sent is the caller's input, not the network. */
function runFailure(err: unknown, url: string, phase: FailurePhase): Failure {
  const aborted = err as AttemptAborted;
  const cause = aborted instanceof AttemptAborted && aborted.cause.kind === "failed" ? aborted.cause.error : err;
  for (let e = cause as { cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e instanceof FileChangedError)
      return { error: { kind: "invalid_request", code: "file_changed", error: e.message, url }, notSent: false, transient: false };
  }
  return describeFailure(cause, url, phase);
}

/**
 * A run request that may have reached the service, and whose answer never came (an abort, a
 * timeout, a connection cut): the run may go on there. Said so, with when it was sent and how to
 * find it (`findRun`). A file that changed while it was sent cut the request short: no run.
 */
function mayContinue(failure: Failure, options: SingleRunOptions | BatchRunOptions, sentAt: string): RunError {
  const { error } = failure;
  if (error.kind === "invalid_request") return error;
  const single = options.script !== undefined;
  const what = error.kind === "aborted" ? "the run's request was aborted after it was sent" : error.error;
  const find = single
    ? `find it with findRun({ client, script, since: "${sentAt}" })`
    : `find each with findRun({ client, script: scripts[i], since: "${sentAt}" })`;
  return { ...error, code: "run_may_continue", sentAt, error: `${what}; the run${single ? "" : "s"} may go on at the service: ${find}` };
}

/**
 * What the answer says: its body parsed, or the run's error. A refusal naming the run the
 * service recorded is that run's failure (`run_failed`, as when the run fails after a wait);
 * one naming no run is an HTTP error.
 */
function parseAnswer(answer: Answer, text: string, url: string, secrets: string[]): { data: unknown; error: undefined } | { data: undefined; error: RunError } {
  if (answer.status < 200 || answer.status > 299) {
    const refusal = redactError(httpError(answer, text), secrets);
    const fields = runFields(text);
    // A run is never sent on to another address: say where the server pointed instead.
    if (answer.status >= 300 && answer.status < 400 && answer.headers.location) {
      return {
        data: undefined,
        error: {
          ...refusal,
          ...fields,
          code: "run_redirected",
          error: `${refusal.error} (it points to ${answer.headers.location}: set runBaseUrl to that address)`,
        },
      };
    }
    if (fields.runId) return { data: undefined, error: { ...refusal, ...fields, kind: "run_failed", runId: fields.runId } };
    return { data: undefined, error: { ...refusal, ...fields } };
  }
  try {
    return { data: JSON.parse(text), error: undefined };
  } catch {
    return { data: undefined, error: { kind: "invalid_response", status: answer.status, url, error: `${describeStatus(answer)} but the body is not JSON` } };
  }
}

/** The run's id and the service's class and words for a failure, from an error body. */
function runFields(text: string): { runId?: string; errorType?: string; externalMessage?: string } {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text);
  } catch {
    return {};
  }
  const out: { runId?: string; errorType?: string; externalMessage?: string } = {};
  for (const key of ["runId", "errorType", "externalMessage"] as const) if (typeof body?.[key] === "string" && body[key] !== "") out[key] = body[key] as string;
  return out;
}

/** The scripts sent, in order. */
const stepsOf = (options: SingleRunOptions | BatchRunOptions): ScriptToRun[] => (options.script !== undefined ? [options.script] : options.scripts!);

/**
 * The run request's error as the caller's result. A refusal of a single script's arguments names
 * the argument its contract does not take (and what it most likely meant): the contract is read
 * only now. A single run that failed at the service has its outcome beside its error, as when it
 * fails after a wait.
 */
async function failedResult(options: SingleRunOptions | BatchRunOptions, result: RunResult<unknown> & { error: RunError }): Promise<RunResult<never>> {
  let { error } = result;
  const single = options.script !== undefined;
  if (single && error.code === undefined && refusesArguments(error)) {
    const unknown = await unknownArgument(options.client, options.script!, options.signal);
    if (unknown) {
      error = {
        ...error,
        code: "unknown_argument",
        parameter: unknown.parameter,
        ...(unknown.suggestion ? { suggestion: unknown.suggestion } : {}),
        error: `${error.error}; ${unknown.sentence}`,
      };
    }
  }
  return runResult<never>({ data: undefined, error, outcomes: single && error.kind === "run_failed" ? [outcomeOf(error)] : undefined }, () => result.response);
}

/** A single run's `run_failed` error as its outcome (the POST's own refusal naming the run). */
function outcomeOf(error: RunError): RunStepOutcome {
  return {
    status: "failed",
    runId: error.runId ?? null,
    error: error.error,
    ...(error.errorType ? { errorType: error.errorType } : {}),
    ...(error.externalMessage ? { externalMessage: error.externalMessage } : {}),
    ...(error.code ? { code: error.code } : {}),
    ...(error.parameter ? { parameter: error.parameter } : {}),
    ...(error.suggestion ? { suggestion: error.suggestion } : {}),
  };
}

/** Each failed outcome that is a refusal of its step's arguments, with the argument its contract does not take named. */
async function hintOutcomes(options: SingleRunOptions | BatchRunOptions, ended: Ended): Promise<Ended> {
  const steps = stepsOf(options);
  if (ended.runs.length !== steps.length || !ended.runs.some((r) => r.status === "failed" && refusesArguments(r))) return ended;
  const runs = await Promise.all(
    ended.runs.map(async (run, i) => {
      if (run.status !== "failed" || !refusesArguments(run)) return run;
      const unknown = await unknownArgument(options.client, steps[i]!, options.signal);
      if (!unknown) return run;
      return {
        ...run,
        error: `${run.error}; ${unknown.sentence}`,
        code: "unknown_argument" as const,
        parameter: unknown.parameter,
        ...(unknown.suggestion ? { suggestion: unknown.suggestion } : {}),
      };
    }),
  );
  return { ...ended, runs };
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
  if (waited.error) return runResult<never>({ data: undefined, error: waited.error }, waited.lastResponse);
  const ended = await hintOutcomes(options, waited.ended);
  return runResult<RunResponse | BatchRunResponse>(endedResult(ended, { single, expected, sequential: options.sequential === true }), waited.lastResponse);
}
