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
import { httpError, transportError, describeStatus, type ReduckError } from "../core/errors.js";
import type { components } from "../generated/schema.js";
import { runDispatcher } from "./dispatcher.js";
import {
  FileProblem,
  checkJsonBinding,
  isBytes,
  isInline,
  openBytes,
  type BytesPart,
  type FileSource,
  type JsonBinding,
} from "./files.js";
import { MAX_JSON_BODY_BYTES, formatBytes } from "./limits.js";
import { countBytes, encodeMultipart, type MultipartBody } from "./multipart.js";

type Schemas = components["schemas"];
export type RunResponse = Schemas["RunResponse"];
export type BatchRunResponse = Schemas["BatchRunResponse"];
export type RunStepOutcome = Schemas["RunStepOutcome"];
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
  let prepared: PreparedRequest;
  try {
    prepared = await prepare(options);
  } catch (err) {
    if (err instanceof FileProblem || err instanceof RunRequestProblem) {
      return { data: undefined, error: { kind: "invalid_request", error: err.message }, response: undefined };
    }
    throw err;
  }
  return send(options, prepared);
}

class RunRequestProblem extends Error {}

interface PreparedRequest {
  contentType: string;
  length: number;
  body(): BodyInit;
  multipart: boolean;
}

async function prepare(options: SingleRunOptions | BatchRunOptions): Promise<PreparedRequest> {
  const single = options.script !== undefined;
  if (single === (options.scripts !== undefined)) {
    throw new RunRequestProblem("give exactly one of script (one run) or scripts (several steps)");
  }
  const steps = single ? [options.script!] : options.scripts!;
  if (!single && steps.length === 0) throw new RunRequestProblem("scripts is empty: give at least one step");

  const parts: BytesPart[] = [];
  const inline: string[] = [];
  const jsonSteps = [];
  for (const [step, script] of steps.entries()) {
    if (!script || typeof script.host !== "string" || typeof script.slug !== "string") {
      throw new RunRequestProblem(`step ${step}: a script needs host and slug`);
    }
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
  const spec = JSON.stringify(request);

  if (parts.length === 0) {
    const bytes = Buffer.byteLength(spec);
    if (bytes > MAX_JSON_BODY_BYTES) {
      throw new RunRequestProblem(
        `the run request is ${formatBytes(bytes)} as JSON, over the ${formatBytes(MAX_JSON_BODY_BYTES)} limit: send files as bytes (a path, Blob or Buffer) instead of inline b64`,
      );
    }
    return { contentType: "application/json", length: bytes, body: () => spec, multipart: false };
  }
  if (inline.length) {
    throw new RunRequestProblem(
      `inline (b64) files can't travel with files sent as bytes (${inline.join(", ")}): give them as bytes too (a path, Blob or Buffer)`,
    );
  }
  const body: MultipartBody = encodeMultipart([
    { name: "spec", value: spec, type: "application/json" },
    ...parts.map((p) => ({ name: p.name, value: p.source, type: p.type, filename: p.name.split(":")[1] })),
  ]);
  return { contentType: body.contentType, length: body.length, body: () => body.stream(), multipart: true };
}

/** Only a refused connection proves the request never arrived; nothing else is retried. */
const NOT_SENT = new Set(["ECONNREFUSED"]);

async function send(options: RunOptionsBase, prepared: PreparedRequest): Promise<RunResult<RunResponse | BatchRunResponse>> {
  const { client, onUploadProgress, signal } = options;
  const internal = clientInternals(client);
  const url = `${client.runBaseUrl}/run`;
  let auth: Record<string, string>;
  try {
    auth = await internal.authHeaders(client.runBaseUrl);
  } catch (err) {
    return { data: undefined, error: transportError(err, url), response: undefined };
  }
  const headers = {
    ...internal.headers,
    ...options.headers,
    ...auth,
    Accept: "application/json",
    "Content-Type": prepared.contentType,
    "Content-Length": String(prepared.length),
  };

  let response: Response | undefined;
  for (let attempt = 0; ; attempt++) {
    let body = prepared.body();
    if (onUploadProgress && body instanceof ReadableStream) {
      const total = prepared.length;
      onUploadProgress({ sent: 0, total });
      body = body.pipeThrough(countBytes((sent) => onUploadProgress({ sent, total })));
    }
    try {
      response = await internal.fetch(url, {
        method: "POST",
        headers,
        body,
        signal,
        // Streams need half duplex; the dispatcher lifts Node's 300 s wait for headers.
        duplex: "half",
        dispatcher: await runDispatcher(),
      } as RequestInit);
      break;
    } catch (err) {
      const code = (err as { cause?: { code?: string } })?.cause?.code;
      if (code && NOT_SENT.has(code) && attempt < client.maxRetries && !signal?.aborted) {
        await new Promise((r) => setTimeout(r, 250 * (attempt + 1)));
        continue;
      }
      return { data: undefined, error: transportError(err, url), response: undefined };
    }
  }

  let text: string;
  try {
    text = await response.text();
  } catch (err) {
    return { data: undefined, error: transportError(err, url), response };
  }
  if (!response.ok) {
    const error: RunError = httpError(response, text);
    const runId = parseRunId(text);
    if (runId) error.runId = runId;
    return { data: undefined, error, response };
  }
  try {
    return { data: JSON.parse(text), error: undefined, response };
  } catch {
    return { data: undefined, error: { kind: "invalid_response", status: response.status, url, error: `${describeStatus(response)} but the body is not JSON` }, response };
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
