/**
 * runScript: POST /run, in whichever form the files call for.
 *
 * - JSON when every file is named (`relativePath`) or inline (`b64` + `mime`);
 * - multipart as soon as any file is given as bytes (a path, a Blob, a Buffer).
 *
 * Limits are checked before anything is sent, and a run is never repeated once its request
 * may have reached the server: a message must not be sent twice.
 */
import type { ReduckClient } from "../client.js";
import { clientInternals } from "../client.js";
import { AttemptAborted, AttemptGuard, sleep } from "../core/abort.js";
import { isClient } from "../core/call.js";
import { describeFailure, httpError, describeStatus, type Failure, type FailurePhase, type ReduckError } from "../core/errors.js";
import { withResponse } from "../core/answer.js";
import { mergeHeaders } from "../core/call.js";
import { redactError } from "../core/redact.js";
import type { Answer } from "../core/transport.js";
import type { components } from "../generated/schema.js";
import {
  FileChangedError,
  FileProblem,
  checkJsonBinding,
  fileSourceProblem,
  isBytes,
  isInline,
  openBytes,
  type BytesPart,
  type FileSource,
  type JsonBinding,
} from "./files.js";
import { MAX_JSON_BODY_BYTES, formatBytes } from "./limits.js";
import { encodeMultipart, type MultipartBody } from "./multipart.js";
import { sendOverFetch, sendOverNode, type RunBody, type RunExchange } from "./send.js";

type Schemas = components["schemas"];
export type RunResponse = Schemas["RunResponse"];
// The wire's batch answer changed (openapi.json: RunEnvelope, RunBatch); these are the library's
// own shapes (INTERFACE-21), hand-written until src/run normalises the new answers.
/** One script's outcome in a run of several. */
export type RunStepOutcome = {
  status: "completed" | "failed" | "skipped";
  runId: string | null;
  result?: unknown;
  error?: string;
  errorType?: string;
  externalMessage?: string;
};
/** The outcome of a run of several `scripts`. */
export type BatchRunResponse = {
  batchId: string;
  status: "completed" | "failed";
  totalSteps: number;
  runs: RunStepOutcome[];
};
export type RunBrowser = Schemas["RunBrowser"];

/** One script to run: the JSON reference, with files that may also be bytes. */
export interface ScriptToRun {
  host: string;
  slug: string;
  /** `@username`, a project handle, or `reduck` for the official catalogue. Omitted: your own. */
  handle?: string;
  args?: Record<string, unknown>;
  files?: Record<string, FileSource>;
  version_id?: string;
}

export interface UploadProgress {
  sent: number;
  total: number;
}

interface RunOptionsBase {
  client: ReduckClient;
  /** `"extension"` (your own browser), `"managed"` (default when omitted), or `{ deviceId }`. */
  browser?: RunBrowser;
  /** Told as the request body goes out (multipart runs), ending with `sent === total`. */
  onUploadProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  /** Extra headers for this request. */
  headers?: Record<string, string>;
}

export interface SingleRunOptions extends RunOptionsBase {
  script: ScriptToRun;
  scripts?: never;
  sequential?: never;
}

export interface BatchRunOptions extends RunOptionsBase {
  /** Several steps; step `i` is the `<step>` of its files' part names. */
  scripts: ScriptToRun[];
  /** One browser, in order, stopping at the first failure. */
  sequential?: boolean;
  script?: never;
}

/** A run failure; `runId` is set when the service recorded the failed run. */
export type RunError = ReduckError & { runId?: string };

export type RunResult<T> =
  | { data: T; error: undefined; response: Response }
  | { data: undefined; error: RunError; response: Response | undefined };

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
 */
export function runScript(options: SingleRunOptions): Promise<RunResult<RunResponse>>;
export function runScript(options: BatchRunOptions): Promise<RunResult<BatchRunResponse>>;
export async function runScript(options: SingleRunOptions | BatchRunOptions): Promise<RunResult<RunResponse | BatchRunResponse>> {
  try {
    const problem = optionsProblem(options);
    if (problem) return invalid(problem);
    let prepared: PreparedRequest;
    try {
      prepared = await prepare(options);
    } catch (err) {
      if (err instanceof FileProblem || err instanceof RunRequestProblem) return invalid(err.message);
      throw err;
    }
    return await send(options, prepared);
  } catch (err) {
    // Never throws: whatever slipped past the checks above is still the caller's input.
    return invalid(`the run could not be made: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function invalid(error: string): RunResult<never> {
  return { data: undefined, error: { kind: "invalid_request", error }, response: undefined };
}

class RunRequestProblem extends Error {}

interface PreparedRequest {
  contentType: string;
  length: number;
  /** The body, sent again as a whole by each attempt. */
  body: RunBody;
  release(): Promise<void>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** What is wrong with options a JavaScript caller passed, in words that say how to fix it. */
function optionsProblem(options: unknown): string | undefined {
  if (!isObject(options)) return "runScript takes an options object: runScript({ client, script: { host, slug, args, files } })";
  const { client, script, scripts, signal, headers, onUploadProgress } = options;
  if (!isClient(client)) return "pass the client from createReduckClient() as `client`";
  if ((script === undefined) === (scripts === undefined)) return "give exactly one of script (one run) or scripts (several steps)";
  if (scripts !== undefined && !Array.isArray(scripts)) return "scripts must be an array of scripts: [{ host, slug, ... }]";
  const steps = (scripts ?? [script]) as unknown[];
  if (steps.length === 0) return "scripts is empty: give at least one step";
  for (const [i, step] of steps.entries()) {
    const where = scripts === undefined ? "script" : `step ${i}`;
    if (!isObject(step) || typeof step.host !== "string" || typeof step.slug !== "string") return `${where}: a script needs host and slug (strings)`;
    for (const key of ["handle", "version_id"] as const) {
      if (step[key] !== undefined && typeof step[key] !== "string") return `${where}: ${key} must be a string`;
    }
    if (step.args !== undefined && !isObject(step.args)) return `${where}: args must be an object of named values`;
    if (step.files !== undefined && !isObject(step.files)) return `${where}: files must be an object: { <input>: { path } }`;
    for (const [input, source] of Object.entries(step.files ?? {})) {
      if (source === undefined || source === null) continue;
      const problem = fileSourceProblem(input, source);
      if (problem) return scripts === undefined ? problem : `step ${i}: ${problem}`;
    }
    try {
      JSON.stringify(step.args ?? {});
    } catch (err) {
      return `${where}: args cannot be sent as JSON (${(err as Error).message})`;
    }
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) return "signal must be an AbortSignal (from an AbortController)";
  if (headers !== undefined && !isObject(headers)) return "headers must be an object of header names and values";
  if (onUploadProgress !== undefined && typeof onUploadProgress !== "function") return "onUploadProgress must be a function";
  return undefined;
}

async function prepare(options: SingleRunOptions | BatchRunOptions): Promise<PreparedRequest> {
  const single = options.script !== undefined;
  const steps = single ? [options.script!] : options.scripts!;

  const parts: BytesPart[] = [];
  const inline: string[] = [];
  const jsonSteps = [];
  for (const [step, script] of steps.entries()) {
    const { files, ...rest } = script;
    const bindings: Record<string, JsonBinding> = {};
    for (const [input, source] of Object.entries(files ?? {})) {
      if (source === undefined || source === null) continue;
      if (isBytes(source)) {
        parts.push(await openBytes(step, input, source));
      } else {
        if (isInline(source)) inline.push(`${step}:${input}`);
        bindings[input] = checkJsonBinding(input, source);
      }
    }
    jsonSteps.push(Object.keys(bindings).length ? { ...rest, files: bindings } : rest);
  }

  const request: Record<string, unknown> = single ? { script: jsonSteps[0] } : { scripts: jsonSteps };
  if (!single && options.sequential !== undefined) request.sequential = options.sequential;
  if (options.browser !== undefined) request.browser = options.browser;
  let spec: string;
  try {
    spec = JSON.stringify(request);
  } catch (err) {
    throw new RunRequestProblem(`the run request cannot be sent as JSON (${(err as Error).message})`);
  }

  if (parts.length === 0) {
    const bytes = Buffer.byteLength(spec);
    if (bytes > MAX_JSON_BODY_BYTES) {
      throw new RunRequestProblem(
        `the run request is ${formatBytes(bytes)} as JSON, over the ${formatBytes(MAX_JSON_BODY_BYTES)} limit: send files as bytes (a path, Blob or Buffer) instead of inline b64`,
      );
    }
    return { contentType: "application/json", length: bytes, body: spec, release: async () => undefined };
  }
  if (inline.length) {
    throw new RunRequestProblem(
      `inline (b64) files can't travel with files sent as bytes (${inline.join(", ")}): give them as bytes too (a path, Blob or Buffer)`,
    );
  }
  const body: MultipartBody = encodeMultipart([
    { name: "spec", value: spec, type: "application/json" },
    // Named after the input: everything after `<step>:` (an input name may itself hold a colon).
    ...parts.map((p) => ({ name: p.name, value: p.source, type: p.type, filename: p.name.slice(p.name.indexOf(":") + 1) })),
  ]);
  return { contentType: body.contentType, length: body.length, body: (buffers) => body.chunks(buffers), release: () => body.release() };
}

async function send(options: RunOptionsBase, prepared: PreparedRequest): Promise<RunResult<RunResponse | BatchRunResponse>> {
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
    return invalid(`the run could not be made: ${(err as Error).message}`);
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
        return { data: undefined, error: failure.error, response: undefined };
      }
      let text: string;
      const answer: Answer = { status: exchange.status, statusText: exchange.statusText, url: exchange.url, headers: exchange.headers, body: new Uint8Array(0) };
      try {
        answer.body = await guard.race(exchange.read());
        text = new TextDecoder().decode(answer.body);
      } catch (err) {
        return withResponse({ data: undefined, error: runFailure(err, url, "body").error }, answer) as RunResult<never>;
      }
      return withResponse(outcome(answer, text, url, internal.secrets()), answer) as RunResult<RunResponse | BatchRunResponse>;
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
    if (e instanceof FileChangedError) return { error: { kind: "invalid_request", error: e.message, url }, notSent: false, transient: false };
  }
  return describeFailure(cause, url, phase);
}

/** What the answer says: the run's result, or its error (with the run's id when one was recorded). */
function outcome(answer: Answer, text: string, url: string, secrets: string[]): { data: RunResponse | BatchRunResponse; error: undefined } | { data: undefined; error: RunError } {
  if (answer.status < 200 || answer.status > 299) {
    const error: RunError = redactError(httpError(answer, text), secrets);
    // A run is never sent on to another address: say where the server pointed instead.
    if (answer.status >= 300 && answer.status < 400 && answer.headers.location) error.error += ` (it points to ${answer.headers.location}: set runBaseUrl to that address)`;
    const runId = parseRunId(text);
    if (runId) error.runId = runId;
    return { data: undefined, error };
  }
  try {
    return { data: JSON.parse(text), error: undefined };
  } catch {
    return { data: undefined, error: { kind: "invalid_response", status: answer.status, url, error: `${describeStatus(answer)} but the body is not JSON` } };
  }
}

function parseRunId(text: string): string | undefined {
  try {
    const body = JSON.parse(text);
    return typeof body?.runId === "string" ? body.runId : undefined;
  } catch {
    return undefined;
  }
}
