/**
 * read_run_trace: a run's steps as text, and its screenshots as images a model can look at
 * (MCP image content, base64). What one answer carries is bounded: a few screenshots, each and
 * all together under a size, and a screenshot left out is named with its URL and why.
 *
 * A screenshot is fetched without the credential (its URL is its own permission) through the
 * client's own connections (its proxy and timeouts), and only from `https:` URLs, or from
 * `http:` ones on the service's own origin (the sandbox): a trace cannot send this machine to an
 * address of the local network.
 */
import type { ReduckClient } from "../client.js";
import { clientInternals } from "../core/client.js";
import { either } from "../core/nearby-handles.js";
import { closestMatches } from "../core/suggest.js";
import { getRun, getRunTrace, listRuns } from "../generated/operations.js";
import { imageTypeOf } from "../report/screenshots.js";
import { answer, fail, failWith, type ToolContent, type ToolContext, type ToolResult } from "./answers.js";
import { oneLine } from "./bounded.js";
import { MESSAGE_CHARS, TRACE_IMAGE_BYTES, TRACE_IMAGES, TRACE_IMAGES_BYTES } from "./limits.js";
import { addressOf } from "./naming.js";
import { toolRunStatus } from "./run-status.js";
import type { Input } from "./tool-schemas.js";
import { readTrace, type ScreenshotRef, stepLines } from "./trace-view.js";

/** The image types an answer carries, by the bytes' own signature (a GIF or WebP is left out, saying so). */
const CARRIED = new Set(["image/png", "image/jpeg"]);

/** The image type the bytes are, by their first bytes; undefined when neither PNG nor JPEG. */
function imageType(bytes: Uint8Array): string | undefined {
  const type = imageTypeOf(bytes);
  return type && CARRIED.has(type) ? type : undefined;
}

type Fetched = { ok: true; bytes: Uint8Array; mimeType: string } | { ok: false; why: string };

/** Why a screenshot's URL is not fetched, or undefined when it may be. */
function urlProblem(client: ReduckClient, url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "its URL is not one";
  }
  if (parsed.protocol === "https:") return undefined;
  const own = [client.baseUrl, client.runBaseUrl].map((u) => new URL(u).origin);
  if (parsed.protocol === "http:" && own.includes(parsed.origin)) return undefined;
  return `not fetched: only https: URLs, or the service's own origin, are (this is ${parsed.protocol.replace(/:$/, "")})`;
}

async function fetchScreenshot(client: ReduckClient, shot: ScreenshotRef, room: number, signal: AbortSignal | undefined): Promise<Fetched> {
  if (shot.size !== undefined && shot.size > room) return { ok: false, why: `${Math.round(shot.size / 1000)} KB is more than this answer carries` };
  let bytes: Uint8Array;
  const data = /^data:image\/(png|jpeg);base64,/i.exec(shot.url);
  if (data) {
    // Base64 is 4 characters for 3 bytes: a longer URL holds a larger image than there is room for.
    if ((shot.url.length - data[0].length) * 0.75 > room) return { ok: false, why: "it is larger than this answer carries" };
    bytes = Buffer.from(shot.url.slice(data[0].length), "base64");
  } else {
    const problem = urlProblem(client, shot.url);
    if (problem) return { ok: false, why: problem };
    try {
      const got = await clientInternals(client).transport({ method: "GET", url: shot.url, headers: { Accept: "image/png, image/jpeg" } }, signal);
      if (got.status !== 200) return { ok: false, why: `its URL answered ${got.status}` };
      bytes = got.body;
    } catch (err) {
      return { ok: false, why: `could not be fetched: ${oneLine(err instanceof Error ? err.message : String(err), 300)}` };
    }
  }
  if (bytes.byteLength > room) return { ok: false, why: `${Math.round(bytes.byteLength / 1000)} KB is more than this answer carries` };
  const mimeType = imageType(bytes);
  if (!mimeType) return { ok: false, why: "what its URL gave is not a PNG (nor a JPEG) image" };
  return { ok: true, bytes, mimeType };
}

/** Screenshots worth seeing first: where the run failed, then the page it ended on, then the rest. */
function byInterest(shots: ScreenshotRef[]): ScreenshotRef[] {
  const rank = (s: ScreenshotRef) => (s.kind === "failure" ? 0 : s.kind === "last" ? 1 : 2);
  return [...shots].sort((a, b) => rank(a) - rank(b));
}

/** The sentence to add when no run has this id: the ids of recent runs a typo away. */
async function unknownRunHint(client: ReduckClient, runId: string): Promise<string> {
  const recent = await listRuns({ client, query: { pageSize: 100 } });
  const close = recent.error
    ? []
    : closestMatches(
        runId,
        recent.data.map((r) => r.id),
      );
  return close.length ? `Did you mean ${either(close)}?` : "list_runs lists your runs and their ids.";
}

export async function readRunTraceTool(ctx: ToolContext, input: Input<"readRunTraceInput">, signal?: AbortSignal): Promise<ToolResult> {
  const { runId } = input;
  const [run, trace] = await Promise.all([getRun({ client: ctx.client, path: { runId } }), getRunTrace({ client: ctx.client, path: { runId } })]);
  if (run.error?.status === 404) return failWith(run.error, await unknownRunHint(ctx.client, runId));
  if (trace.error) {
    if (trace.error.status === 404 && run.data) {
      const why = run.data.result && "error" in run.data.result ? ` It failed before a browser step: ${oneLine(run.data.result.error, 500)}` : "";
      return fail(`Run ${runId} recorded no trace.${why} read_run_results with { "runId": "${runId}" } gives its outcome.`);
    }
    return failWith(trace.error);
  }
  const view = readTrace(trace.data);
  const about: { address?: string | null; status?: string; error?: string } = run.data
    ? {
        address: run.data.script ? addressOf(run.data.script) : null,
        status: toolRunStatus(run.data.status),
        ...(run.data.result && "error" in run.data.result ? { error: oneLine(run.data.result.error, MESSAGE_CHARS) } : {}),
      }
    : {};

  const images: ToolContent[] = [];
  const shots: Array<ScreenshotRef & { shown: boolean; why?: string }> = [];
  let room = TRACE_IMAGES_BYTES;
  for (const shot of byInterest(view.screenshots)) {
    if (images.length >= TRACE_IMAGES) {
      shots.push({ ...shot, shown: false, why: `this answer carries ${TRACE_IMAGES} screenshots at most` });
      continue;
    }
    const got = await fetchScreenshot(ctx.client, shot, Math.min(TRACE_IMAGE_BYTES, room), signal);
    if (!got.ok) {
      shots.push({ ...shot, shown: false, why: got.why });
      continue;
    }
    room -= got.bytes.byteLength;
    images.push({ type: "image", data: Buffer.from(got.bytes).toString("base64"), mimeType: got.mimeType });
    shots.push({ ...shot, shown: true });
  }

  const failed = view.steps.find((s) => s.index === view.failedStep);
  let imageNumber = 0;
  const lines = [
    `Run ${runId}${about.address ? ` of ${about.address}` : ""}${about.status ? ` (${about.status})` : ""}: ${view.totalSteps} step${view.totalSteps === 1 ? "" : "s"}${
      failed ? `; step ${failed.index} failed: ${failed.action}` : view.failedStep === null ? ", none failed" : ""
    }.`,
    ...(about.error ? [`Error: ${oneLine(about.error, 1_000)}`] : []),
    "Steps:",
    ...(view.steps.length ? stepLines(view) : ["  (none recorded)"]),
    "Screenshots:",
    ...(shots.length
      ? shots.map((s) => {
          const where = `${s.kind}${s.afterStep !== null ? ` after step ${s.afterStep}` : ""}`;
          return s.shown ? `  ${where}: image ${++imageNumber} below` : `  ${where}: left out (${s.why}): ${oneLine(s.url, 2_000)}`;
        })
      : ["  (none recorded)"]),
    ...(view.other !== undefined ? [`Also in the trace: ${oneLine(JSON.stringify(view.other), 4_000)}`] : []),
  ];
  const structured = {
    runId,
    ...about,
    steps: view.steps,
    totalSteps: view.totalSteps,
    failedStep: view.failedStep,
    screenshots: shots.map(({ kind, afterStep, url, shown, why }) => ({ kind, afterStep, url, shown, ...(why ? { why } : {}) })),
    ...(view.other !== undefined ? { other: view.other } : {}),
  };
  const base = answer(structured);
  return { ...base, content: [{ type: "text", text: lines.join("\n") }, ...images] };
}
