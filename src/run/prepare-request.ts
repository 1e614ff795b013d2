/**
 * The run request's body, built once before it is sent: JSON when every file is named or inline,
 * multipart as soon as one is bytes. Files are checked (and opened) here, and the size limits
 * applied, so nothing is sent that the service would refuse for its size.
 */
import { formatBytes } from "../core/bytes.js";
import { checkJsonBinding, isBytes, isInline, openBytes, type BytesPart, type JsonBinding } from "./files.js";
import { MAX_JSON_BODY_BYTES } from "./limits.js";
import { encodeMultipart, type MultipartBody } from "./multipart.js";
import type { BatchRunOptions, SingleRunOptions } from "./run-types.js";
import type { Buffers } from "../core/wire/buffers.js";

/** A run request that cannot be sent as asked: `code` says why. */
export class RunRequestProblem extends Error {
  constructor(
    message: string,
    readonly code: "invalid_options" | "request_too_large" | "invalid_file",
  ) {
    super(message);
  }
}

export interface PreparedRequest {
  contentType: string;
  length: number;
  /** The body: JSON text, or chunks read into the sender's buffers, again by each attempt. */
  body: string | ((buffers: Buffers) => AsyncIterable<Uint8Array>);
  release(): Promise<void>;
}

export async function prepare(options: SingleRunOptions | BatchRunOptions): Promise<PreparedRequest> {
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

  // One script goes as a list of one, as the service's own client sends it: its answer is then an
  // envelope or a batch whatever the run takes, and a batch's envelopes keep a failure's errorType
  // and externalMessage, which a run's record (all a lone `script` can be polled by) lacks.
  const request: Record<string, unknown> = { scripts: jsonSteps };
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
    throw new RunRequestProblem(`the run request cannot be sent as JSON (${(err as Error).message})`, "invalid_options");
  }

  if (parts.length === 0) {
    const bytes = Buffer.byteLength(spec);
    if (bytes > MAX_JSON_BODY_BYTES) {
      throw new RunRequestProblem(
        `the run request is ${formatBytes(bytes)} as JSON, over the ${formatBytes(MAX_JSON_BODY_BYTES)} limit: send files as bytes (a path, Blob or Buffer) instead of inline b64`,
        "request_too_large",
      );
    }
    return { contentType: "application/json", length: bytes, body: spec, release: async () => undefined };
  }
  if (inline.length) {
    throw new RunRequestProblem(
      `inline (b64) files can't travel with files sent as bytes (${inline.join(", ")}): give them as bytes too (a path, Blob or Buffer)`,
      "invalid_file",
    );
  }
  const body: MultipartBody = encodeMultipart([
    { name: "spec", value: spec, type: "application/json" },
    // Named after the input: everything after `<step>:` (an input name may itself hold a colon).
    ...parts.map((p) => ({ name: p.name, value: p.source, type: p.type, filename: p.name.slice(p.name.indexOf(":") + 1) })),
  ]);
  return { contentType: body.contentType, length: body.length, body: (buffers) => body.chunks(buffers), release: () => body.release() };
}
