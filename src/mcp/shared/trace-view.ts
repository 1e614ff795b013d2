/**
 * A run's trace as the agent tool shows it. The trace is read by the one reader the HTML run page
 * uses too (report/trace-data.ts: steps and screenshots recognised, the rest kept); here it is
 * bounded for a model's context, the service's text made visible, and the rest kept as
 * shortened JSON, so nothing the service sent is hidden, unbounded or acting. Pure: no request,
 * never throws.
 */
import { normaliseTrace, type TraceScreenshotView, type TraceStepView } from "../../report/trace-data.js";
import { boundJson, oneLine, shownText } from "./bounded.js";
import { STEP_FIELD_CHARS, TRACE_STEPS } from "./limits.js";

export interface ToolTraceStep {
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

export interface ScreenshotRef {
  kind: string;
  afterStep: number | null;
  url: string;
  type?: string;
  /** Bytes, as the trace declares them. */
  size?: number;
}

export interface ToolTraceView {
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
export function readTrace(raw: unknown): ToolTraceView {
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
export function stepLines(view: ToolTraceView): string[] {
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
