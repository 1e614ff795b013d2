/**
 * What a run's request that did not end in a readable answer means: a refusal (naming the run
 * the service recorded, or none), an answer that never came (the run may go on), and a refusal
 * of the run's arguments, where the argument the contract does not take is named.
 */
import { AttemptAborted } from "../core/wire/abort.js";
import { httpError, describeStatus, type Failure, type FailurePhase } from "../core/errors.js";
import { redactError } from "../core/redact.js";
import { attemptFailure, type Answer } from "../core/wire/transport.js";
import { refusesArguments, unknownArgument } from "./argument-hint.js";
import { FileChangedError } from "./files.js";
import type { RunError, RunStepOutcome } from "./outcomes.js";
import type { Ended } from "./read-answer.js";
import { runResult } from "./poll.js";
import type { BatchRunOptions, RunResult, ScriptToRun, SingleRunOptions } from "./run-types.js";

/**
 * A failure of the run request; a file that changed while sent is the caller's input, not the
 * network; an answer over the size limit is the server's (see answer-limit.ts).
 */
export function runFailure(err: unknown, url: string, phase: FailurePhase, status?: number): Failure {
  const aborted = err as AttemptAborted;
  const cause = aborted instanceof AttemptAborted && aborted.cause.kind === "failed" ? aborted.cause.error : err;
  for (let e = cause as { cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e instanceof FileChangedError)
      return { error: { kind: "invalid_request", code: "file_changed", error: e.message, url }, notSent: false, transient: false };
  }
  return attemptFailure(cause, url, phase, status);
}

/**
 * A run request that may have reached the service, and whose answer never came (an abort, a
 * timeout, a connection cut): the run may go on there. Said so, with when it was sent and how to
 * find it (`findRun`). A file that changed while it was sent cut the request short: no run. An
 * answer that came but was too large to read is said as such (`answer_too_large`).
 */
export function mayContinue(failure: Failure, options: SingleRunOptions | BatchRunOptions, sentAtMs: number): RunError {
  const { error } = failure;
  if (error.kind === "invalid_request" || error.kind === "invalid_response") return error;
  // Made into text only here: a process's first toISOString loads the time zone from ICU's data
  // (V8 works out the local offset for it too), 640 KiB of a run's memory that a run that
  // succeeds never needs.
  const sentAt = new Date(sentAtMs).toISOString();
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
export function parseAnswer(
  answer: Answer,
  text: string,
  url: string,
  secrets: string[],
): { data: unknown; error: undefined } | { data: undefined; error: RunError } {
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
export async function failedResult(options: SingleRunOptions | BatchRunOptions, result: RunResult<unknown> & { error: RunError }): Promise<RunResult<never>> {
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
export async function hintOutcomes(options: SingleRunOptions | BatchRunOptions, ended: Ended): Promise<Ended> {
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
