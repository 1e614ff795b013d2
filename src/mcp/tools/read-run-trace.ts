/**
 * read_run_trace: a run's steps as text, and its screenshots as images a model can look at
 * (MCP image content, base64). The run is read by the one reader of a run (report/read-trace.ts,
 * which the run's page and `reduck runs trace --screenshots` use too: the same rule for every
 * screenshot's URL and each of its redirects, the same bounds). What one answer carries is
 * bounded: a few screenshots, each and all together under a size, and a screenshot left out is
 * named with its URL and why. Steps are counted from 1 in the text, as on the run's page; the
 * structured answer keeps the service's own indexes.
 *
 * The trace is read by the one reader the HTML run page uses too (report/trace-data.ts: steps and
 * screenshots recognised, the rest kept); here it is bounded for a model's context, the service's
 * text made visible, and the rest kept as shortened JSON, so nothing the service sent is hidden,
 * unbounded or acting.
 */
import type { ReduckClient } from "../../core/client.js";
import { either } from "../../core/words/nearby-handles.js";
import { closestMatches } from "../../core/words/suggest.js";
import { listRuns } from "../../generated/operations.js";
import { byInterest, readRunTrace } from "../../report/read-trace.js";
import { errorSaidOnce } from "../../report/said-once.js";
import { normaliseRun, normaliseTrace, type TraceScreenshotView, type TraceStepView } from "../../report/trace-data.js";
import { answer, fail, failWith, type ToolContent, type ToolContext, type ToolResult } from "../common/answers.js";
import { boundJson, oneLine, shownText } from "../common/bounded.js";
import { MESSAGE_CHARS } from "../common/limits.js";
import { addressOf } from "../common/naming.js";
import { TOOL_RUN_STATUSES, toolRunStatus } from "../common/run-status.js";
import type { z as Zod } from "zod";
import type { SchemaParts } from "../common/schema-parts.js";
import { READ, type Tool } from "../common/tool.js";

/** One step's action, detail or error in a trace. */
const STEP_FIELD_CHARS = 500;
/** The steps of a trace shown one per line; beyond them, the first and last and those around the failure. */
const TRACE_STEPS = 120;
/** Screenshots one read_run_trace answer carries as images, and their bytes (each, and all together). */
const TRACE_IMAGES = 3;
const TRACE_IMAGE_BYTES = 1_500_000;
const TRACE_IMAGES_BYTES = 3_000_000;

/** read_run_trace's input and output schemas. */
function traceSchemas(z: typeof Zod, { closed, open }: SchemaParts) {
  const readRunTraceInput = closed({
    runId: z.string().describe("The run: the runId run_script, read_run_results or list_runs gave."),
  });

  const readRunTraceOutput = open({
    runId: z.string(),
    address: z.string().nullable().optional().describe("The script the run ran, when the run could be read."),
    status: z.enum(TOOL_RUN_STATUSES).optional(),
    error: z.string().optional().describe("Why the run failed, when it did."),
    steps: z.array(
      open({
        index: z.number().int(),
        action: z.string(),
        ok: z.boolean().nullable().describe("null when the trace did not say."),
        durationMs: z.number().optional(),
        detail: z.unknown().optional(),
        error: z.string().optional(),
      }),
    ),
    totalSteps: z.number().int(),
    failedStep: z.number().int().nullable().describe("Index of the first step that failed; null when none did."),
    screenshots: z.array(
      open({
        kind: z.string().describe('"failure": where the run failed; "last": after its last step.'),
        afterStep: z.number().int().nullable(),
        url: z.string().describe("Where the PNG is (no credential needed)."),
        shown: z.boolean().describe("Whether this answer carries it as an image."),
        why: z.string().optional().describe("Why it was left out."),
      }),
    ),
    other: z.unknown().optional().describe("Whatever else the trace held, shortened."),
  });
  return { readRunTraceInput, readRunTraceOutput };
}

type Input = Zod.infer<ReturnType<typeof traceSchemas>["readRunTraceInput"]>;

interface ToolTraceStep {
  index: number;
  action: string;
  /** null when the trace did not say. */
  ok: boolean | null;
  durationMs?: number;
  detail?: unknown;
  error?: string;
  /** The step's other fields, shortened. */
  more?: unknown;
}

interface ScreenshotRef {
  kind: string;
  afterStep: number | null;
  url: string;
  type?: string;
  /** Bytes, as the trace declares them. */
  size?: number;
}

interface ToolTraceView {
  /** The steps shown: all of them, or the first, those around the first failure, and the last. */
  steps: ToolTraceStep[];
  totalSteps: number;
  /** Index of the first step that failed; null when none did. */
  failedStep: number | null;
  screenshots: ScreenshotRef[];
  /** Whatever else the trace held, shortened. */
  other?: unknown;
}

/** A recognised step as the agent is shown it: every text bounded, and on one line where it is one. */
function shownStep(step: TraceStepView): ToolTraceStep {
  return {
    index: step.index,
    action: step.action === "" ? "(no action given)" : oneLine(step.action, STEP_FIELD_CHARS),
    ok: step.ok ?? null,
    ...(step.durationMs !== undefined ? { durationMs: step.durationMs } : {}),
    ...(step.detail !== undefined ? { detail: boundJson(step.detail, STEP_FIELD_CHARS, { visible: true }).value } : {}),
    ...(step.error !== undefined ? { error: shownText(step.error, STEP_FIELD_CHARS) } : {}),
    ...(Object.keys(step.extra).length ? { more: boundJson(step.extra, STEP_FIELD_CHARS, { visible: true }).value } : {}),
  };
}

/** A screenshot the agent can be shown (one with a URL of a sane length), bounded. */
function shownScreenshot(shot: TraceScreenshotView): ScreenshotRef | undefined {
  if (shot.url === undefined || shot.url.length > 100_000) return undefined;
  return {
    kind: shot.kind ? shownText(shot.kind, 40) : "screenshot",
    afterStep: shot.afterStep ?? null,
    url: shot.url,
    ...(shot.mediaType !== undefined ? { type: shownText(shot.mediaType, 100) } : {}),
    ...(shot.size !== undefined ? { size: shot.size } : {}),
  };
}

/** Positions of the steps to show: all, or the first, a window around the first failure, and the last. */
function shownPositions(count: number, failedAt: number | null): number[] {
  if (count <= TRACE_STEPS) return Array.from({ length: count }, (_, i) => i);
  const edge = Math.floor(TRACE_STEPS / 3);
  const keep = new Set<number>();
  for (let i = 0; i < edge; i++) keep.add(i);
  for (let i = count - edge; i < count; i++) keep.add(i);
  if (failedAt !== null) for (let i = Math.max(0, failedAt - 10); i <= Math.min(count - 1, failedAt + 10); i++) keep.add(i);
  return [...keep].sort((a, b) => a - b);
}

/**
 * The trace as the agent is shown it, whatever JSON it is: read by the one trace reader
 * (report/trace-data.ts, which the HTML run page uses too), then bounded for a model's context.
 *
 * @example
 * readTrace({ steps: [{ action: "goto https://example.com/", ok: true, duration_ms: 80 }], screenshots: [] });
 * // { steps: [{ index: 0, action: "goto https://example.com/", ok: true, durationMs: 80 }], totalSteps: 1, failedStep: null, screenshots: [] }
 */
function readTrace(raw: unknown): ToolTraceView {
  const view = normaliseTrace(raw);
  const failedAt = view.failedStep ?? null;
  const byIndex = new Map(view.steps.map((step) => [step.index, step]));
  const steps = shownPositions(view.stepCount, failedAt).flatMap((i) => {
    const step = byIndex.get(i);
    return step ? [shownStep(step)] : [];
  });
  const screenshots = view.screenshots
    .slice(0, 50)
    .map(shownScreenshot)
    .filter((s): s is ScreenshotRef => s !== undefined);
  return {
    steps,
    totalSteps: view.stepCount,
    failedStep: failedAt,
    screenshots,
    ...(Object.keys(view.extra).length ? { other: boundJson(view.extra, 4_000, { visible: true }).value } : {}),
  };
}

/** `1.5 s`, `418 ms`. */
function duration(ms: number): string {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

/**
 * The steps as lines an agent reads: number (counted from 1, as on the run's page), outcome,
 * action, duration, error; a gap says how many steps are left out.
 *
 * @example
 * stepLines(readTrace(trace)); // ["    1 ok     page.goto(\"https://example.com/\") · 418 ms", "    2 FAILED locator('h2').textContent() · 1533 ms — Timeout ..."]
 */
function stepLines(view: ToolTraceView): string[] {
  const lines: string[] = [];
  let previous = -1;
  for (const step of view.steps) {
    if (step.index > previous + 1 && previous >= 0) lines.push(`  … ${step.index - previous - 1} steps left out …`);
    previous = step.index;
    const outcome = step.ok === true ? "ok    " : step.ok === false ? "FAILED" : "?     ";
    const detail = step.detail === undefined ? "" : ` ${oneLine(JSON.stringify(step.detail) ?? "", 200)}`;
    const took = step.durationMs !== undefined ? ` · ${duration(step.durationMs)}` : "";
    const error = step.error ? ` — ${oneLine(step.error, STEP_FIELD_CHARS)}` : "";
    lines.push(`  ${String(step.index + 1).padStart(3)} ${outcome} ${step.action}${detail}${took}${error}`);
  }
  if (view.totalSteps > previous + 1 && previous >= 0) lines.push(`  … ${view.totalSteps - previous - 1} steps left out …`);
  return lines;
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

async function handle(ctx: ToolContext, input: Input, signal?: AbortSignal): Promise<ToolResult> {
  const { runId } = input;
  const read = await readRunTrace({
    client: ctx.client,
    runId,
    signal,
    maxImages: TRACE_IMAGES,
    maxImageBytes: TRACE_IMAGE_BYTES,
    maxTotalImageBytes: TRACE_IMAGES_BYTES,
    // What an MCP answer's image content carries.
    accept: ["image/png", "image/jpeg"],
  });
  if (read.error?.status === 404) return failWith(read.error, await unknownRunHint(ctx.client, runId));
  if (read.error) return failWith(read.error);
  const run = read.data.run as { script?: Parameters<typeof addressOf>[0] | null; status?: string } | null;
  const record = normaliseRun(read.data.run);
  const said = errorSaidOnce(record.error, record.externalMessage);
  if (read.data.noTrace !== undefined) {
    const why = said ? ` It failed before a browser step: ${oneLine(said, 500)}` : "";
    return fail(`Run ${runId} recorded no trace.${why} read_run_results with { "runId": "${runId}" } gives its outcome.`);
  }
  const view = readTrace(read.data.trace);
  const about: { address?: string | null; status?: string; error?: string } = {
    address: run?.script ? addressOf(run.script) : null,
    ...(typeof run?.status === "string" ? { status: toolRunStatus(run.status as never) } : {}),
    ...(said ? { error: oneLine(said, MESSAGE_CHARS) } : {}),
  };

  const images: ToolContent[] = [];
  const shots: Array<ScreenshotRef & { shown: boolean; why?: string }> = [];
  for (const shot of byInterest(view.screenshots)) {
    const got = read.data.images.get(shot.url);
    if (!got || !("bytes" in got)) {
      shots.push({ ...shot, shown: false, why: got ? got.problem : "not read" });
      continue;
    }
    images.push({ type: "image", data: Buffer.from(got.bytes).toString("base64"), mimeType: got.type });
    shots.push({ ...shot, shown: true });
  }

  const failed = view.steps.find((s) => s.index === view.failedStep);
  let imageNumber = 0;
  const lines = [
    `Run ${runId}${about.address ? ` of ${about.address}` : ""}${about.status ? ` (${about.status})` : ""}: ${view.totalSteps} step${view.totalSteps === 1 ? "" : "s"}${
      failed ? `; step ${failed.index + 1} failed: ${failed.action}` : view.failedStep === null ? ", none failed" : ""
    }.`,
    // The service's message often starts with its own "Error:" label: not said twice.
    ...(about.error ? [/^[A-Za-z]*Error\b/.test(about.error) ? about.error : `Error: ${about.error}`] : []),
    "Steps (counted from 1):",
    ...(view.steps.length ? stepLines(view) : ["  (none recorded)"]),
    "Screenshots:",
    ...(shots.length
      ? shots.map((s) => {
          const where = `${s.kind}${s.afterStep === null ? "" : s.afterStep < 0 ? " before the first step" : ` after step ${s.afterStep + 1}`}`;
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

export const readRunTraceTool: Tool = {
  name: "read_run_trace",
  spec: ({ z, parts }) => {
    const { readRunTraceInput, readRunTraceOutput } = traceSchemas(z, parts);
    return {
      title: "Read a run's trace",
      description:
        "What a run did, step by step (action, duration, ok or failed, error), as text, and the screenshots it recorded (the page where it failed, or where it ended) as images. Use it on a failed run's runId to see why it failed before changing the script. Changes nothing. At most 3 screenshots per answer; one left out is named with its URL.",
      input: readRunTraceInput,
      output: readRunTraceOutput,
      annotations: READ,
      usage: 'read_run_trace { runId: "86b0479f-a68f-4fcd-92d1-b68f485ee3d9" }',
    };
  },
  run: (tc, input, extra) => handle(tc, input, extra?.signal),
};
