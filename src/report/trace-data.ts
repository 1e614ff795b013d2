/**
 * A run's trace and the run itself, read from whatever JSON the service sent: what is recognised
 * is named (steps with their action, outcome and duration; screenshots; the run's script, status
 * and times), and everything else is kept apart as `extra`, so whoever shows it (the HTML page,
 * the agent tool) can show it as it came and hide nothing.
 *
 * The service does not publish the trace's shape. What it sends today (and the sandbox with it):
 * `{ steps: [{ index, action, ok, duration_ms, detail?, error? }], screenshots: [{ kind, afterStep,
 * url, type, size }] }`. Pure functions: no I/O, and they never throw, whatever they are given.
 */
import { isObject } from "../core/json.js";

/** One step of a trace, as recognised. */
export interface TraceStepView {
  /** Place in the trace's steps, from 0. */
  index: number;
  /** What the step did (`goto https://…`, `click #send`); text, or the JSON of whatever else the service sent. */
  action: string;
  /** `false` for the step that failed; undefined when the trace does not say. */
  ok: boolean | undefined;
  /** How long the step took, when the trace says (a finite number ≥ 0). */
  durationMs: number | undefined;
  /** When the step started, counted from the first step's start (the steps run one after another). */
  startMs: number;
  /** What the step acted on (a selector, a key, a file...): any JSON, undefined when absent. */
  detail: unknown;
  /** Why the step failed, as text. */
  error: string | undefined;
  /** The step's other fields, as sent. */
  extra: Record<string, unknown>;
}

/** A screenshot a trace refers to. */
export interface TraceScreenshotView {
  /** `last` (after the last step) or `failure` (where the run failed), as the trace says. */
  kind: string | undefined;
  /** The step it shows the page after (an index into the steps; -1: before any). */
  afterStep: number | undefined;
  /** Where its image is (an http(s) or data: URL), when the trace says. */
  url: string | undefined;
  mediaType: string | undefined;
  /** Its size in bytes, as the trace says. */
  size: number | undefined;
  /** Its other fields, as sent. */
  extra: Record<string, unknown>;
}

export interface TraceView {
  /** The steps, or the first `maxSteps` of them and the failing one after those. */
  steps: TraceStepView[];
  /** How many steps the trace has. */
  stepCount: number;
  screenshots: TraceScreenshotView[];
  /** The index (in the trace) of the first step that failed, if one did. */
  failedStep: number | undefined;
  /** The steps' durations added up. */
  totalMs: number;
  /** The trace's other fields (everything when it is not an object with steps), as sent. */
  extra: Record<string, unknown>;
}

const STEP_FIELDS = new Set(["action", "ok", "duration_ms", "durationMs", "detail", "error"]);
const SHOT_FIELDS = new Set(["kind", "afterStep", "url", "type", "size"]);

/** A string as it is; anything else as its JSON (bounded: a step's label is no place for megabytes). */
function asText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  try {
    const json = JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? String(v) : v));
    return json === undefined ? String(value) : json.length > 10_000 ? `${json.slice(0, 10_000)}…` : json;
  } catch {
    return String(Object.prototype.toString.call(value));
  }
}

const finite = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined);

function rest(object: Record<string, unknown>, known: Set<string>): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  for (const key in object) if (Object.hasOwn(object, key) && !known.has(key)) extra[key] = object[key];
  return extra;
}

function stepOf(raw: unknown, index: number, startMs: number): TraceStepView {
  if (!isObject(raw)) {
    return { index, action: asText(raw), ok: undefined, durationMs: undefined, startMs, detail: undefined, error: undefined, extra: {} };
  }
  const extra = rest(raw, STEP_FIELDS);
  // The trace's own index is kept only when it says something the position does not.
  if (extra.index === index) delete extra.index;
  const error = raw.error === undefined || raw.error === null ? undefined : asText(raw.error);
  return {
    index,
    action: asText(raw.action),
    ok: typeof raw.ok === "boolean" ? raw.ok : undefined,
    durationMs: finite(raw.duration_ms) ?? finite(raw.durationMs),
    startMs,
    detail: raw.detail,
    error: error === "" ? undefined : error,
    extra,
  };
}

function screenshotOf(raw: unknown): TraceScreenshotView {
  if (!isObject(raw)) return { kind: undefined, afterStep: undefined, url: undefined, mediaType: undefined, size: undefined, extra: { value: raw } };
  return {
    kind: typeof raw.kind === "string" ? raw.kind : undefined,
    afterStep: typeof raw.afterStep === "number" && Number.isInteger(raw.afterStep) ? raw.afterStep : undefined,
    url: typeof raw.url === "string" ? raw.url : undefined,
    mediaType: typeof raw.type === "string" ? raw.type : undefined,
    size: finite(raw.size),
    extra: rest(raw, SHOT_FIELDS),
  };
}

const failedRaw = (raw: unknown) =>
  isObject(raw) && (raw.ok === false || (typeof raw.ok !== "boolean" && raw.error !== undefined && raw.error !== null && raw.error !== ""));

/**
 * A trace as recognised. An object's `steps` and `screenshots` are read; an array is taken as the
 * steps; anything else is kept whole in `extra`. With `maxSteps`, only so many steps are
 * recognised (and the failing one, wherever it is), while the count, the total duration and the
 * failing step's place still cover them all.
 *
 * @example
 * const view = normaliseTrace((await getRunTrace({ client, path: { runId } })).data);
 * const failed = view.steps.find((s) => s.index === view.failedStep);
 * if (failed) console.log(failed.action, failed.error);
 */
export function normaliseTrace(raw: unknown, options: { maxSteps?: number } = {}): TraceView {
  const view: TraceView = { steps: [], stepCount: 0, screenshots: [], failedStep: undefined, totalMs: 0, extra: {} };
  const maxSteps = options.maxSteps ?? Number.POSITIVE_INFINITY;
  try {
    let steps: unknown;
    let screenshots: unknown;
    if (Array.isArray(raw)) steps = raw;
    else if (isObject(raw)) {
      view.extra = rest(raw, new Set(["steps", "screenshots"]));
      steps = raw.steps;
      screenshots = raw.screenshots;
      if (steps !== undefined && !Array.isArray(steps)) view.extra.steps = steps;
      if (screenshots !== undefined && !Array.isArray(screenshots)) view.extra.screenshots = screenshots;
    } else if (raw !== undefined && raw !== null) view.extra = { trace: raw };
    if (Array.isArray(steps)) {
      view.stepCount = steps.length;
      let at = 0;
      for (let i = 0; i < steps.length; i++) {
        const item: unknown = steps[i];
        const failed = view.failedStep === undefined && failedRaw(item);
        if (failed) view.failedStep = i;
        if (i < maxSteps || failed) {
          const step = stepOf(item, i, at);
          view.steps.push(step);
          at += step.durationMs ?? 0;
        } else if (isObject(item)) at += finite(item.duration_ms) ?? finite(item.durationMs) ?? 0;
      }
      view.totalMs = at;
    }
    if (Array.isArray(screenshots)) view.screenshots = screenshots.slice(0, Math.max(maxSteps, 50)).map(screenshotOf);
  } catch (err) {
    // Not JSON (a getter that throws, a revoked proxy): what was read stays, and the failure is said.
    view.extra.unreadable = err instanceof Error ? err.message : String(err);
  }
  return view;
}

/** A run as recognised (`getRun`'s answer), with what the caller knows of its outcome. */
export interface RunView {
  id: string | undefined;
  /** `handle/host/slug`. */
  address: string | undefined;
  /** The script's name. */
  name: string | undefined;
  version: string | undefined;
  versionId: string | undefined;
  scriptId: string | undefined;
  /** `success`, `error`, `running`...: the service's word. */
  status: string | undefined;
  startedAt: string | undefined;
  finishedAt: string | undefined;
  /** finished - started, when both are dates. */
  durationMs: number | undefined;
  /** `managed (eu, DE)`, `extension`: where it ran. */
  browser: string | undefined;
  /** Where it was asked from (`cli`, `mcp`, `rest`). */
  source: string | undefined;
  batchId: string | undefined;
  args: unknown;
  /** The files the run was given, when the service says. */
  files: unknown;
  /** Whether the run has a result (which may be `null`). */
  hasResult: boolean;
  result: unknown;
  error: string | undefined;
  errorType: string | undefined;
  externalMessage: string | undefined;
  /** The run's other fields, as sent. */
  extra: Record<string, unknown>;
}

const RUN_FIELDS = new Set(["id", "name", "browser", "args", "status", "result", "source", "started_at", "finished_at", "script", "files"]);
const BATCH_KEYS = ["batch_id", "batchId"];

const str = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

function browserText(raw: unknown): { text: string | undefined; extra?: unknown } {
  if (typeof raw === "string") return { text: raw };
  if (!isObject(raw)) return raw === undefined || raw === null ? { text: undefined } : { text: undefined, extra: raw };
  const type = str(raw.type);
  const where = [str(raw.region), str(raw.country)].filter(Boolean).join(", ");
  const known = new Set(["type", "region", "country"]);
  const more = rest(raw, known);
  return { text: type ? `${type}${where ? ` (${where})` : ""}` : undefined, ...(Object.keys(more).length || !type ? { extra: type ? more : raw } : {}) };
}

/**
 * A run as recognised, from `getRun`'s answer (any JSON) and, when the caller has it, the run's
 * outcome as the run call reported it (which carries `errorType` and `externalMessage`, which the
 * run record does not).
 *
 * @example
 * const run = normaliseRun((await getRun({ client, path: { runId } })).data);
 * console.log(run.address, run.status, run.durationMs);
 */
export function normaliseRun(raw: unknown, outcome?: unknown): RunView {
  const view: RunView = {
    id: undefined,
    address: undefined,
    name: undefined,
    version: undefined,
    versionId: undefined,
    scriptId: undefined,
    status: undefined,
    startedAt: undefined,
    finishedAt: undefined,
    durationMs: undefined,
    browser: undefined,
    source: undefined,
    batchId: undefined,
    args: undefined,
    files: undefined,
    hasResult: false,
    result: undefined,
    error: undefined,
    errorType: undefined,
    externalMessage: undefined,
    extra: {},
  };
  try {
    if (isObject(raw)) {
      view.extra = rest(raw, RUN_FIELDS);
      view.id = str(raw.id);
      view.status = str(raw.status);
      view.startedAt = str(raw.started_at);
      view.finishedAt = str(raw.finished_at);
      view.source = str(raw.source);
      view.args = raw.args;
      view.files = raw.files;
      for (const key of BATCH_KEYS) {
        if (str(raw[key])) {
          view.batchId = str(raw[key]);
          delete view.extra[key];
        }
      }
      const browser = browserText(raw.browser);
      view.browser = browser.text;
      if (browser.extra !== undefined) view.extra.browser = browser.extra;
      const script = raw.script;
      if (isObject(script)) {
        const [handle, host, slug] = [str(script.handle), str(script.host), str(script.slug)];
        view.address = host && slug ? `${handle ? `${handle}/` : ""}${host}/${slug}` : undefined;
        view.name = str(script.name);
        view.version = typeof script.version_number === "number" ? String(script.version_number) : str(script.version_number);
        view.versionId = str(script.version_id);
        view.scriptId = str(script.id);
        const more = rest(script, new Set(["id", "handle", "host", "slug", "name", "version_number", "version_id"]));
        if (Object.keys(more).length) view.extra.script = more;
      } else if (script !== undefined && script !== null) view.extra.script = script;
      if (!view.name) view.name = str(raw.name);
      else if (str(raw.name) && raw.name !== view.name) view.extra.name = raw.name;
      readOutcome(view, raw.result, "result");
      const started = view.startedAt ? Date.parse(view.startedAt) : Number.NaN;
      const finished = view.finishedAt ? Date.parse(view.finishedAt) : Number.NaN;
      if (Number.isFinite(started) && Number.isFinite(finished) && finished >= started) view.durationMs = finished - started;
    } else if (raw !== undefined && raw !== null) view.extra = { run: raw };
    if (isObject(outcome)) {
      view.id ??= str(outcome.runId);
      if (!view.hasResult && "result" in outcome) {
        view.hasResult = true;
        view.result = outcome.result;
      }
      view.error ??= str(outcome.error);
      view.errorType ??= str(outcome.errorType);
      view.externalMessage ??= str(outcome.externalMessage);
    }
  } catch (err) {
    view.extra.unreadable = err instanceof Error ? err.message : String(err);
  }
  return view;
}

/** The run record's `result`: `{ result }` or `{ error }` (and whatever else it holds). */
function readOutcome(view: RunView, raw: unknown, field: string): void {
  if (raw === undefined || raw === null) return;
  if (!isObject(raw)) {
    view.extra[field] = raw;
    return;
  }
  if ("result" in raw) {
    view.hasResult = true;
    view.result = raw.result;
  }
  if (raw.error !== undefined && raw.error !== null) view.error = asText(raw.error);
  view.errorType = str(raw.errorType) ?? str(raw.error_type);
  view.externalMessage = str(raw.externalMessage) ?? str(raw.external_message);
  const more = rest(raw, new Set(["result", "error", "errorType", "error_type", "externalMessage", "external_message"]));
  if (Object.keys(more).length) view.extra[field] = more;
}
