/**
 * A run's trace as the agent tool shows it. The service does not publish the trace's shape: what
 * is recognised (`steps` with `action`, `ok`, `duration_ms`, `detail`, `error`; `screenshots` with
 * `url`, `kind`, `afterStep`) is read, everything else is kept as shortened JSON, so nothing the
 * service sent is hidden and nothing it sent is unbounded. Pure: no request, never throws.
 */
import { isObject } from "../core/json.js";
import { boundJson, cutText, oneLine } from "./bounded.js";
import { STEP_FIELD_CHARS, TRACE_STEPS } from "./limits.js";

export interface TraceStepView {
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

export interface TraceView {
  /** The steps shown: all of them, or the first, those around the first failure, and the last. */
  steps: TraceStepView[];
  totalSteps: number;
  /** Index of the first step that failed; null when none did. */
  failedStep: number | null;
  screenshots: ScreenshotRef[];
  /** Whatever else the trace held, shortened. */
  other?: unknown;
}

const KNOWN_STEP_KEYS = new Set(["index", "action", "ok", "duration_ms", "durationMs", "detail", "error"]);

function stepOf(raw: unknown, position: number): TraceStepView {
  if (!isObject(raw)) return { index: position, action: oneLine(JSON.stringify(boundJson(raw, STEP_FIELD_CHARS).value) ?? "null", STEP_FIELD_CHARS), ok: null };
  const duration = typeof raw.duration_ms === "number" ? raw.duration_ms : typeof raw.durationMs === "number" ? raw.durationMs : undefined;
  const rest = Object.fromEntries(Object.entries(raw).filter(([key]) => !KNOWN_STEP_KEYS.has(key)));
  return {
    index: typeof raw.index === "number" && Number.isInteger(raw.index) ? raw.index : position,
    action: typeof raw.action === "string" ? oneLine(raw.action, STEP_FIELD_CHARS) : "(no action given)",
    ok: typeof raw.ok === "boolean" ? raw.ok : null,
    ...(duration !== undefined && Number.isFinite(duration) ? { durationMs: duration } : {}),
    ...(raw.detail !== undefined ? { detail: boundJson(raw.detail, STEP_FIELD_CHARS).value } : {}),
    ...(raw.error !== undefined
      ? { error: typeof raw.error === "string" ? cutText(raw.error, STEP_FIELD_CHARS) : oneLine(JSON.stringify(boundJson(raw.error, STEP_FIELD_CHARS).value)) }
      : {}),
    ...(Object.keys(rest).length ? { more: boundJson(rest, STEP_FIELD_CHARS).value } : {}),
  };
}

function screenshotOf(raw: unknown): ScreenshotRef | undefined {
  if (!isObject(raw) || typeof raw.url !== "string" || raw.url.length > 100_000) return undefined;
  return {
    kind: typeof raw.kind === "string" && raw.kind ? cutText(raw.kind, 40) : "screenshot",
    afterStep: typeof raw.afterStep === "number" && Number.isInteger(raw.afterStep) ? raw.afterStep : null,
    url: raw.url,
    ...(typeof raw.type === "string" ? { type: cutText(raw.type, 100) } : {}),
    ...(typeof raw.size === "number" && Number.isFinite(raw.size) ? { size: raw.size } : {}),
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
 * The trace as shown, whatever JSON it is.
 *
 * @example
 * readTrace({ steps: [{ action: "goto https://example.com/", ok: true, duration_ms: 80 }], screenshots: [] });
 * // { steps: [{ index: 0, action: "goto https://example.com/", ok: true, durationMs: 80 }], totalSteps: 1, failedStep: null, screenshots: [] }
 */
export function readTrace(raw: unknown): TraceView {
  if (!isObject(raw)) return { steps: [], totalSteps: 0, failedStep: null, screenshots: [], ...(raw == null ? {} : { other: boundJson(raw, 4_000).value }) };
  const rawSteps = Array.isArray(raw.steps) ? raw.steps : [];
  const failedAt = rawSteps.findIndex((s) => isObject(s) && s.ok === false);
  const positions = shownPositions(rawSteps.length, failedAt === -1 ? null : failedAt);
  const steps = positions.map((i) => stepOf(rawSteps[i], i));
  const screenshots = (Array.isArray(raw.screenshots) ? raw.screenshots.slice(0, 50) : []).map(screenshotOf).filter((s): s is ScreenshotRef => s !== undefined);
  const { steps: _steps, screenshots: _screenshots, ...rest } = raw;
  return {
    steps,
    totalSteps: rawSteps.length,
    failedStep: failedAt === -1 ? null : stepOf(rawSteps[failedAt], failedAt).index,
    screenshots,
    ...(Object.keys(rest).length || (raw.steps !== undefined && !Array.isArray(raw.steps))
      ? { other: boundJson({ ...rest, ...(raw.steps !== undefined && !Array.isArray(raw.steps) ? { steps: raw.steps } : {}) }, 4_000).value }
      : {}),
  };
}

/** `1.5 s`, `418 ms`. */
function duration(ms: number): string {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

/**
 * The steps as lines an agent reads: number, outcome, action, duration, error; a gap says how
 * many steps are left out.
 *
 * @example
 * stepLines(readTrace(trace)); // ["  0 ok      page.goto(\"https://example.com/\") · 418 ms", "  1 FAILED  locator('h2').textContent() · 1533 ms — Timeout ..."]
 */
export function stepLines(view: TraceView): string[] {
  const lines: string[] = [];
  let previous = -1;
  for (const step of view.steps) {
    if (step.index > previous + 1 && previous >= 0) lines.push(`  … ${step.index - previous - 1} steps left out …`);
    previous = step.index;
    const outcome = step.ok === true ? "ok    " : step.ok === false ? "FAILED" : "?     ";
    const detail = step.detail === undefined ? "" : ` ${oneLine(JSON.stringify(step.detail) ?? "", 200)}`;
    const took = step.durationMs !== undefined ? ` · ${duration(step.durationMs)}` : "";
    const error = step.error ? ` — ${oneLine(step.error, STEP_FIELD_CHARS)}` : "";
    lines.push(`  ${String(step.index).padStart(3)} ${outcome} ${step.action}${detail}${took}${error}`);
  }
  if (view.totalSteps > previous + 1 && previous >= 0) lines.push(`  … ${view.totalSteps - previous - 1} steps left out …`);
  return lines;
}
