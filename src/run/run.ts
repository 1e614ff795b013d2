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
import type { ReduckClient } from "../client.js";
import { clientInternals } from "../client.js";
import { AttemptAborted, AttemptGuard, sleep } from "../core/abort.js";
import { isClient } from "../core/call.js";
import { describeFailure, httpError, describeStatus, type Failure, type FailurePhase, type ReduckError } from "../core/errors.js";
import { withResponse } from "../core/answer.js";
import { mergeHeaders } from "../core/call.js";
import { redactError } from "../core/redact.js";
import type { Answer } from "../core/transport.js";
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
import { formatBytes } from "../core/bytes.js";
import { MAX_JSON_BODY_BYTES } from "./limits.js";
import { encodeMultipart, type MultipartBody } from "./multipart.js";
import { sendOverFetch, sendOverNode, type RunBody, type RunExchange } from "./send.js";

import {
  batchResponse,
  countMismatch,
  readAnswer,
  singleResult,
  type BatchRunResponse,
  type PendingRun,
  type RunError,
  type RunResponse,
  type RunStatusUpdate,
} from "./outcomes.js";
import { guarded, pollContext, waitForBatch, waitForRunId, type WaitResult } from "./wait.js";

export type { RunResponse, BatchRunResponse, RunStepOutcome, PendingRun, RunStatusUpdate, RunStatus, RunError } from "./outcomes.js";

/**
 * Where a run happens. `"cloud"`: a hosted browser (signed out; the REST default when `browser`
 * is absent); `"managed"` is the service's stored name for it and means the same. `"extension"`:
 * your own paired browser (auto-picked when exactly one is paired). `{ deviceId }`: one exact
 * paired browser.
 */
export type RunBrowser = "cloud" | "managed" | "extension" | { deviceId: string };

/**
 * Where a cloud browser can run.
 *
 * @example
 * ```ts
 * await runScript({ client, script, browser: "cloud", region: RUN_REGIONS[1] }); // us-east-1
 * ```
 */
export const RUN_REGIONS = ["eu-central-1", "us-east-1", "us-west-2", "ap-southeast-1"] as const;
export type RunRegion = (typeof RUN_REGIONS)[number];
/**
 * The service's cap on scripts in one request.
 *
 * @example
 * ```ts
 * for (let i = 0; i < all.length; i += MAX_SCRIPTS_PER_RUN) await runScript({ client, scripts: all.slice(i, i + MAX_SCRIPTS_PER_RUN) });
 * ```
 */
export const MAX_SCRIPTS_PER_RUN = 20;
/**
 * The longest the service holds a run request before handing back a batch to poll.
 *
 * @example
 * ```ts
 * await runScript({ client, script, waitForSeconds: MAX_WAIT_FOR_SECONDS });
 * ```
 */
export const MAX_WAIT_FOR_SECONDS = 110;

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
  /** `"cloud"` (the default when omitted; `"managed"` means the same), `"extension"` (your own browser), or `{ deviceId }`. */
  browser?: RunBrowser;
  /** The cloud browser's region (cloud only). */
  region?: RunRegion;
  /** The cloud browser's residential egress country, ISO 3166 alpha-2 (cloud only). */
  country?: string;
  /** Seconds the service holds the request before answering with a batch to poll: 1-110 (its default 60). */
  waitForSeconds?: number;
  /** `false`: return at the first answer, with a pending run's handle as data when it was not final. */
  wait?: boolean;
  /** Told the status and counts at the first answer that is not final, and after each poll. */
  onStatus?: (update: RunStatusUpdate) => void;
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

export type RunResult<T> =
  | { data: T; error: undefined; response: Response | undefined }
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
 *
 * A run that outlives `waitForSeconds` is waited on (polled) unless `wait: false`:
 * ```ts
 * const { data } = await runScript({ client, scripts, waitForSeconds: 30, wait: false });
 * if (data && isPendingRun(data)) saveForLater(data.batchId); // then waitForRun({ client, batchId })
 * ```
 */
export function runScript(options: SingleRunOptions & { wait: false }): Promise<RunResult<RunResponse | PendingRun>>;
export function runScript(options: BatchRunOptions & { wait: false }): Promise<RunResult<BatchRunResponse | PendingRun>>;
export function runScript(options: SingleRunOptions): Promise<RunResult<RunResponse>>;
export function runScript(options: BatchRunOptions): Promise<RunResult<BatchRunResponse>>;
export async function runScript(options: SingleRunOptions | BatchRunOptions): Promise<RunResult<RunResponse | BatchRunResponse | PendingRun>> {
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
    const startedAt = Date.now();
    const sent = await send(options, prepared);
    if (sent.error) return sent;
    return await settle(options, sent, startedAt);
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
  if (steps.length > MAX_SCRIPTS_PER_RUN) return `${steps.length} scripts in one run: the service takes at most ${MAX_SCRIPTS_PER_RUN} per request; send them in several runs`;
  return waitOptionsProblem(options);
}

/** The options about where and how long, checked as the service would (it refuses them after counting the run). */
function waitOptionsProblem(options: Record<string, unknown>): string | undefined {
  const { browser, region, country, waitForSeconds, wait, onStatus } = options;
  const named = typeof browser === "string" && ["cloud", "managed", "extension"].includes(browser);
  const device = isObject(browser) && typeof browser.deviceId === "string" && browser.deviceId !== "" && Object.keys(browser).length === 1;
  if (browser !== undefined && !named && !device) return 'browser must be "cloud", "extension" or { deviceId: "..." } (an id from listDevices)';
  const cloud = browser === undefined || browser === "cloud" || browser === "managed";
  if (region !== undefined && !RUN_REGIONS.includes(region as RunRegion)) return `region must be one of ${RUN_REGIONS.join(", ")} (got ${JSON.stringify(region)})`;
  if (country !== undefined && (typeof country !== "string" || !/^[A-Za-z]{2}$/.test(country))) return `country must be a two-letter ISO 3166 code such as "DE" or "US" (got ${JSON.stringify(country)})`;
  for (const [name, value] of [["region", region], ["country", country]] as const) {
    if (value !== undefined && !cloud) return `${name} is for the cloud browser only, and this run goes to ${device ? `device ${(browser as { deviceId: string }).deviceId}` : "your own browser (extension)"}: drop ${name}, or run with browser: "cloud"`;
  }
  if (waitForSeconds !== undefined && (typeof waitForSeconds !== "number" || !Number.isInteger(waitForSeconds) || waitForSeconds < 1 || waitForSeconds > MAX_WAIT_FOR_SECONDS)) {
    return `waitForSeconds must be a whole number of seconds from 1 to ${MAX_WAIT_FOR_SECONDS} (got ${JSON.stringify(waitForSeconds)}): the service holds a run at most that long before answering with a batch to poll`;
  }
  if (wait !== undefined && typeof wait !== "boolean") return "wait must be true (wait for the outcome, the default) or false (return the pending run's handle)";
  if (onStatus !== undefined && typeof onStatus !== "function") return "onStatus must be a function";
  return undefined;
}

async function prepare(options: SingleRunOptions | BatchRunOptions): Promise<PreparedRequest> {
  const parts: BytesPart[] = [];
  try {
    return await prepareWith(options, parts);
  } catch (err) {
    // A later file or the request itself was refused: close the files already opened.
    await Promise.all(parts.map((p) => p.source.release?.().catch(() => undefined)));
    throw err;
  }
}

async function prepareWith(options: SingleRunOptions | BatchRunOptions, parts: BytesPart[]): Promise<PreparedRequest> {
  const single = options.script !== undefined;
  const steps = single ? [options.script!] : options.scripts!;

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
  // "cloud" is what the wire says; "managed" is only the service's stored name for the same browser.
  if (options.browser !== undefined) request.browser = options.browser === "managed" ? "cloud" : options.browser;
  if (options.region !== undefined) request.region = options.region;
  if (options.country !== undefined) request.country = options.country.toUpperCase();
  if (options.waitForSeconds !== undefined) request.waitForSeconds = options.waitForSeconds;
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

/** The POST's 2xx answer, parsed. */
type Sent = { data: unknown; error: undefined; response: Response | undefined };

async function send(options: RunOptionsBase, prepared: PreparedRequest): Promise<Sent | RunResult<never>> {
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
      return withResponse(outcome(answer, text, url, internal.secrets()), answer) as Sent | RunResult<never>;
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
function outcome(answer: Answer, text: string, url: string, secrets: string[]): { data: unknown; error: undefined } | { data: undefined; error: RunError } {
  if (answer.status < 200 || answer.status > 299) {
    const error: RunError = redactError(httpError(answer, text), secrets);
    // A run is never sent on to another address: say where the server pointed instead.
    if (answer.status >= 300 && answer.status < 400 && answer.headers.location) error.error += ` (it points to ${answer.headers.location}: set runBaseUrl to that address)`;
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
 * The 2xx answer as the caller's shape: finished outcomes at once; a batch or run still going
 * waited on (polled) unless `wait: false`. One outcome per script, or an error: never re-paired.
 */
async function settle(options: SingleRunOptions | BatchRunOptions, sent: Sent, startedAt: number): Promise<RunResult<RunResponse | BatchRunResponse | PendingRun>> {
  const single = options.script !== undefined;
  const expected = single ? 1 : options.scripts!.length;
  const respond = () => sent.response;
  const read = readAnswer(sent.data);
  const ctx = pollContext(options.client, { signal: options.signal, onStatus: options.onStatus, headers: options.headers }, startedAt);
  const wait = options.wait !== false;

  switch (read.kind) {
    case "unreadable":
      return settled<never>({ data: undefined, error: { kind: "invalid_response", error: `the run's answer could not be read: ${read.why}` } }, respond);
    case "single":
      if (single) return settled(singleResult(read.outcome), respond);
      return settled(asBatch(batchResponse(undefined, [read.outcome], expected, false)), respond);
    case "batch": {
      if (!single) return settled(asBatch(batchResponse(read.batchId, read.runs, expected, read.wireFailed, options.sequential === true)), respond);
      if (read.runs.length !== 1) return settled<never>({ data: undefined, error: countMismatch(1, read.runs.length, read.batchId) }, respond);
      return settled(singleResult(read.runs[0]!, read.batchId), respond);
    }
    case "pending-batch": {
      const runIds = read.runs.map((r) => (typeof (r as { runId?: unknown })?.runId === "string" ? (r as { runId: string }).runId : null));
      if (!wait) {
        guarded(options.onStatus)?.({ status: read.status, batchId: read.batchId, runIds, total: expected, completed: 0, failed: 0, elapsedMs: Date.now() - startedAt });
        const pending: PendingRun = { status: read.status, batchId: read.batchId, runIds, ...(read.retryAfterMs !== undefined ? { retryAfterMs: read.retryAfterMs } : {}) };
        return settled({ data: pending, error: undefined }, respond);
      }
      const waited = await waitForBatch(ctx, read.batchId, read, expected, options.sequential === true);
      if (!single || waited.error) return waited;
      return settled(singleResult(waited.data.runs[0]!, read.batchId), () => waited.response);
    }
    case "pending-run": {
      if (expected !== 1) return settled<never>({ data: undefined, error: { ...countMismatch(expected, 1), runId: read.runId } }, respond);
      if (!wait) {
        guarded(options.onStatus)?.({ status: read.status, runId: read.runId, runIds: [read.runId], total: 1, completed: 0, failed: 0, elapsedMs: Date.now() - startedAt });
        const pending: PendingRun = { status: read.status, runId: read.runId, runIds: [read.runId], ...(read.retryAfterMs !== undefined ? { retryAfterMs: read.retryAfterMs } : {}) };
        return settled({ data: pending, error: undefined }, respond);
      }
      const waited = await waitForRunId(ctx, read.runId, read);
      if (single || waited.error) return waited;
      // One of `scripts`, waited on as a run: still a batch's answer, of one step.
      const step = { status: "completed" as const, runId: waited.data.runId, result: waited.data.result };
      return settled(asBatch(batchResponse(undefined, [step], 1, false)), () => waited.response);
    }
  }
}

function asBatch(out: BatchRunResponse | RunError): { data: BatchRunResponse; error: undefined } | { data: undefined; error: RunError } {
  return "kind" in out ? { data: undefined, error: out } : { data: out, error: undefined };
}

function settled<T>(outcome: { data: T; error: undefined } | { data: undefined; error: RunError }, respond: () => Response | undefined): WaitResult<T> {
  return Object.defineProperty(outcome, "response", { enumerable: true, configurable: true, get: respond }) as WaitResult<T>;
}
