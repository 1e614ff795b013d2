/**
 * A run's page: one self-contained HTML file showing what a run did. The run (script, version,
 * status, times, browser), its arguments and files, its steps as a timeline drawn to scale with
 * the failing step standing out, its screenshots inline (click for full size), its result or its
 * error, and every field the service sent that is not recognised, as JSON.
 */
import { isObject } from "../core/json.js";
import { count } from "../core/words/count.js";
import { Budget, cut, duration, jsonBlock, type JsonLimits, page, text, when } from "./html.js";
import { errorSaidOnce } from "./said-once.js";
import { imageDataUri, type ScreenshotImage } from "./screenshots.js";
import { normaliseRun, normaliseTrace, type RunView, type TraceScreenshotView, type TraceStepView, type TraceView } from "./trace-data.js";

/** What a run's page is made from: any JSON in each field (the renderer never throws). */
export interface TracePageInput {
  /** The run, as `getRun` answers. */
  run?: unknown;
  /** The trace, as `getRunTrace` answers; `null` or absent when the run recorded none. */
  trace?: unknown;
  /**
   * The screenshots' images by their URL in the trace: the bytes (embedded when they are an
   * image), or why there are none (said in the screenshot's place). A screenshot without an entry
   * is shown as its URL, as text.
   */
  images?: ReadonlyMap<string, ScreenshotImage | Uint8Array> | Readonly<Record<string, ScreenshotImage | Uint8Array>>;
  /**
   * How the run ended as the run call reported it (`runScript`'s error or outcome), when the
   * caller has it: it carries `errorType` and `externalMessage`, which the run record lacks.
   */
  outcome?: unknown;
  /** Sentences shown at the top of the page, as text (why there is no trace, say). */
  notes?: readonly string[];
  /** When the page was made (default: now). */
  generatedAt?: Date;
}

/** Steps shown; a longer trace says how many more it had. */
const MAX_STEPS = 10_000;
/** Characters of the service's text a page holds at most (about 4 bytes each at worst). */
const PAGE_TEXT = 6_000_000;
/** Bytes of images a page embeds at most. */
const PAGE_IMAGE_BYTES = 40 * 2 ** 20;
const SMALL_JSON: JsonLimits = { depth: 8, entries: 100, string: 2_000, total: 20_000 };

const pct = (x: number) => `${Math.max(0, Math.min(100, x)).toFixed(3)}%`;

function statusClass(status: string | undefined): string {
  if (status === "success" || status === "completed") return "ok";
  if (status === "error" || status === "failed" || status === "cancelled") return "bad";
  return "warn";
}

function imageOf(images: TracePageInput["images"], url: string): ScreenshotImage | undefined {
  let found: ScreenshotImage | Uint8Array | undefined;
  if (images instanceof Map) found = images.get(url);
  else if (isObject(images) && Object.hasOwn(images, url)) found = (images as Record<string, ScreenshotImage | Uint8Array>)[url];
  if (found instanceof Uint8Array) return { bytes: found, type: "image/png" };
  return isObject(found) ? (found as ScreenshotImage) : undefined;
}

function facts(run: RunView, trace: TraceView | undefined): string {
  const rows: Array<[string, string | undefined]> = [
    ["Run", run.id && `<code>${text(run.id)}</code>`],
    [
      "Script",
      run.address && `<code>${text(run.address)}</code>${run.name && run.name !== run.address ? ` <span class="muted">${text(run.name)}</span>` : ""}`,
    ],
    [
      "Version",
      run.version || run.versionId ? `${text(run.version ?? "")}${run.versionId ? ` <span class="muted mono">${text(run.versionId)}</span>` : ""}` : undefined,
    ],
    ["Status", run.status && `<span class="status ${statusClass(run.status)}">${text(run.status)}</span>`],
    ["Started", run.startedAt && text(when(run.startedAt))],
    ["Finished", run.finishedAt && text(when(run.finishedAt))],
    ["Took", run.durationMs !== undefined ? duration(run.durationMs) : undefined],
    ["Browser", run.browser && text(run.browser)],
    ["Asked from", run.source && text(run.source)],
    ["Batch", run.batchId && `<code>${text(run.batchId)}</code>`],
    ["Script id", run.scriptId && `<code>${text(run.scriptId)}</code>`],
    ["Steps", trace && trace.stepCount ? `${count(trace.stepCount)}, ${duration(trace.totalMs)} in all` : undefined],
  ];
  const shown = rows.filter((r): r is [string, string] => Boolean(r[1]));
  return shown.length ? `<dl class="facts two">${shown.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("")}</dl>` : "";
}

function failureCallout(run: RunView, trace: TraceView | undefined, budget: Budget): string {
  const step = trace?.failedStep !== undefined ? trace.steps.find((s) => s.index === trace.failedStep) : undefined;
  const failed = step !== undefined || run.error !== undefined || statusClass(run.status) === "bad";
  if (!failed) return "";
  const parts: string[] = [];
  if (step) {
    parts.push(
      `<p><strong>Failed at <a href="#step-${step.index + 1}">step ${step.index + 1}</a></strong>: <code>${text(cut(step.action, 500, budget))}</code></p>`,
    );
    if (step.error) parts.push(`<p class="mono">${text(cut(step.error, 4_000, budget))}</p>`);
  } else parts.push(`<p><strong>The run failed.</strong></p>`);
  const runError = errorSaidOnce(run.error, run.externalMessage);
  if (runError && !(step?.error && runError.includes(step.error))) parts.push(`<p>${text(cut(runError, 4_000, budget))}</p>`);
  if (run.errorType) parts.push(`<p class="muted">errorType: <code>${text(run.errorType)}</code></p>`);
  return `<div class="callout">${parts.join("")}</div>`;
}

function outcomeSection(run: RunView, budget: Budget): string {
  if (run.error !== undefined || run.errorType || run.externalMessage) {
    const rows: string[] = [];
    if (run.errorType) rows.push(`<dt>errorType</dt><dd><code>${text(run.errorType)}</code></dd>`);
    // The run's record has no errorType: the service gives it only with the run's own answer.
    else
      rows.push(
        `<dt>errorType</dt><dd class="muted">not in the run's record: the service gives it with the run's own answer (<code>reduck run --json</code>, a results file's row, <code>runScript</code>'s error)</dd>`,
      );
    // Said once: each of the two only when the other does not already hold it.
    const said = errorSaidOnce(run.error, run.externalMessage);
    if (run.error !== undefined && said !== run.externalMessage) rows.push(`<dt>error</dt><dd class="mono">${text(cut(run.error, 20_000, budget))}</dd>`);
    if (run.externalMessage && said !== run.error) rows.push(`<dt>message</dt><dd>${text(cut(run.externalMessage, 20_000, budget))}</dd>`);
    return `<h2 id="error">Error</h2><dl class="facts">${rows.join("")}</dl>${run.hasResult ? `<h3>Result</h3>${jsonBlock(run.result, budget)}` : ""}`;
  }
  if (run.hasResult) return `<h2 id="result">Result</h2>${jsonBlock(run.result, budget)}`;
  return "";
}

function argumentsSection(run: RunView, budget: Budget): string {
  let args: string;
  if (run.args === undefined) args = `<p class="muted">The service did not say.</p>`;
  else if (isObject(run.args)) {
    const entries = Object.entries(run.args);
    if (!entries.length) args = `<p class="muted">None.</p>`;
    else {
      const shown = entries.slice(0, 500);
      const rows = shown.map(
        ([name, value]) =>
          `<tr><th class="mono">${text(cut(name, 200, budget))}</th><td>${
            typeof value === "string" ? `<span class="mono">${text(cut(value, 5_000, budget))}</span>` : jsonBlock(value, budget, SMALL_JSON)
          }</td></tr>`,
      );
      const more = entries.length - shown.length;
      args = `<table>${rows.join("")}</table>${more > 0 ? `<p class="muted">${count(more)} more arguments left out.</p>` : ""}`;
    }
  } else args = jsonBlock(run.args, budget);
  const files =
    run.files === undefined || run.files === null
      ? `<p class="muted">The service does not list the files a run was given; the steps show where they were used.</p>`
      : jsonBlock(run.files, budget, SMALL_JSON);
  return `<h2 id="arguments">Arguments</h2>${args}<h3>Files</h3>${files}`;
}

function screenshotsSection(trace: TraceView, images: TracePageInput["images"], budget: Budget): string {
  if (!trace.screenshots.length) {
    return `<h2 id="screenshots">Screenshots</h2><p class="muted">None: the trace names no screenshot. A run in a browser that renders nothing (a simulated page, such as the sandbox's <code>--browser simulated</code>) takes none.</p>`;
  }
  let imageBytes = 0;
  const figures = trace.screenshots.slice(0, 50).map((shot: TraceScreenshotView, i) => {
    const after = shot.afterStep;
    const where =
      after === undefined
        ? ""
        : after < 0
          ? "before the first step"
          : `after <a href="#step-${after + 1}">step ${after + 1}</a>${trace.failedStep === after ? " (failed)" : ""}`;
    const caption = [
      shot.kind ? `<strong>${text(cut(shot.kind, 100, budget))}</strong>` : "",
      where,
      shot.size !== undefined ? `${count(shot.size)} bytes` : "",
    ]
      .filter(Boolean)
      .join(" · ");
    const image = shot.url ? imageOf(images, shot.url) : undefined;
    const fits = image && "bytes" in image && imageBytes + image.bytes.byteLength <= PAGE_IMAGE_BYTES;
    const uri = fits ? imageDataUri(image.bytes) : undefined;
    let body: string;
    if (fits && uri) {
      imageBytes += image.bytes.byteLength;
      // One copy of the image: <details> shows it full size while open, with no script.
      body = `<details class="shot"><summary title="Click to see it full size; click again to close"><img alt="${text(`Screenshot: ${shot.kind ?? "page"}`)}" src="${uri}"></summary></details>`;
    } else {
      const why =
        image && "problem" in image
          ? `Not embedded: ${text(cut(String(image.problem), 500, budget))}.`
          : fits
            ? "Not embedded: its bytes are not a PNG, JPEG, GIF or WebP image."
            : image
              ? "Not embedded: the page holds at most 40 MiB of images."
              : "Not embedded.";
      body = `<p class="muted">${why}${shot.url ? ` Its URL: <span class="mono">${text(cut(shot.url, 500, budget))}</span>` : ""}</p>`;
    }
    const extra = Object.keys(shot.extra).length ? jsonBlock(shot.extra, budget, SMALL_JSON) : "";
    return `<figure id="shot-${i + 1}">${body}<figcaption>${caption}</figcaption>${extra}</figure>`;
  });
  const more = trace.screenshots.length - figures.length;
  return `<h2 id="screenshots">Screenshots</h2><div class="shots">${figures.join("")}</div>${more > 0 ? `<p class="muted">${count(more)} more screenshots left out.</p>` : ""}`;
}

function stepItem(step: TraceStepView, trace: TraceView, shotOfStep: Map<number, number>, budget: Budget): string {
  const failed = trace.failedStep === step.index || step.ok === false;
  const total = trace.totalMs;
  const bar =
    step.durationMs === undefined
      ? ""
      : `<span class="bar" style="left:${pct(total ? (step.startMs / total) * 100 : 0)};width:${pct(total ? (step.durationMs / total) * 100 : 0)}"></span>`;
  const shot = shotOfStep.get(step.index);
  const label = failed ? ` <span class="status bad">failed</span>` : "";
  const parts = [
    `<li class="step${failed ? " failed" : ""}" id="step-${step.index + 1}">`,
    `<div class="row"><span class="num">${step.index + 1}</span><span class="action mono">${text(cut(step.action, 2_000, budget)) || `<span class="muted">(no action)</span>`}${label}${
      shot !== undefined ? ` <a href="#shot-${shot + 1}">screenshot</a>` : ""
    }</span><span class="track">${bar}</span><span class="dur">${step.durationMs === undefined ? "" : duration(step.durationMs)}</span></div>`,
  ];
  if (step.error !== undefined) parts.push(`<div class="err mono">${text(cut(step.error, 20_000, budget))}</div>`);
  if (step.detail !== undefined) parts.push(`<details class="more"><summary>detail</summary>${jsonBlock(step.detail, budget, SMALL_JSON)}</details>`);
  if (Object.keys(step.extra).length) parts.push(`<details class="more"><summary>other fields</summary>${jsonBlock(step.extra, budget, SMALL_JSON)}</details>`);
  parts.push("</li>");
  return parts.join("");
}

function stepsSection(trace: TraceView, budget: Budget): string {
  if (!trace.steps.length) return "";
  const shotOfStep = new Map<number, number>();
  trace.screenshots.slice(0, 50).forEach((s, i) => {
    if (s.afterStep !== undefined && !shotOfStep.has(s.afterStep)) shotOfStep.set(s.afterStep, i);
  });
  const items: string[] = [];
  let next = 0;
  for (const step of trace.steps) {
    // The steps come in order; past MAX_STEPS only the failing one does, after a gap that says so.
    if (step.index > next) items.push(`<li class="step muted">… ${count(step.index - next)} steps left out …</li>`);
    items.push(stepItem(step, trace, shotOfStep, budget));
    next = step.index + 1;
  }
  const more = trace.stepCount - next;
  return `<h2 id="steps">Steps</h2><p class="muted">Each bar is drawn to scale: where it starts is when the step began, its length how long it took (${duration(
    trace.totalMs,
  )} in all).</p><ol class="steps">${items.join("")}</ol>${more > 0 ? `<p class="muted">${count(more)} more steps left out (the page shows the first ${count(MAX_STEPS)}).</p>` : ""}`;
}

function otherFields(run: RunView, trace: TraceView | undefined, budget: Budget): string {
  const blocks: string[] = [];
  if (Object.keys(run.extra).length) blocks.push(`<h3>Of the run</h3>${jsonBlock(run.extra, budget)}`);
  if (trace && Object.keys(trace.extra).length) blocks.push(`<h3>Of the trace</h3>${jsonBlock(trace.extra, budget)}`);
  return blocks.length ? `<h2 id="other">Other fields the service sent</h2>${blocks.join("")}` : "";
}

function traceBody(input: TracePageInput, budget: Budget): { title: string; body: string } {
  const source: Partial<TracePageInput> = isObject(input) ? input : { run: input };
  const run = normaliseRun(source.run, source.outcome);
  const hasTrace = source.trace !== undefined && source.trace !== null;
  const trace = hasTrace ? normaliseTrace(source.trace, { maxSteps: MAX_STEPS }) : undefined;
  const heading = run.address ?? (run.id ? `run ${run.id}` : "a run");
  const title = `${run.address ?? "Run"}${run.status ? ` · ${run.status}` : ""}${run.id ? ` · ${run.id}` : ""}`;
  const notes = (Array.isArray(source.notes) ? source.notes : [])
    .filter((note): note is string => typeof note === "string")
    .slice(0, 20)
    .map((note) => `<p class="muted">${text(cut(note, 2_000, budget))}</p>`);
  if (!hasTrace && !notes.length) notes.push(`<p class="muted">No trace: the run recorded no steps.</p>`);
  const generated = source.generatedAt instanceof Date && !Number.isNaN(source.generatedAt.getTime()) ? source.generatedAt : new Date();
  const body = [
    `<h1>${text(cut(heading, 300, budget))}</h1>`,
    `<p class="muted">What this run did, as the service recorded it.</p>`,
    facts(run, trace),
    failureCallout(run, trace, budget),
    ...notes,
    trace ? screenshotsSection(trace, source.images, budget) : "",
    trace ? stepsSection(trace, budget) : "",
    outcomeSection(run, budget),
    argumentsSection(run, budget),
    otherFields(run, trace, budget),
    `<p class="muted" style="margin-top:40px">Made by reduck-client on ${text(when(generated.toISOString()))}. This page makes no requests: all it shows is inside it.</p>`,
  ];
  return { title, body: body.filter(Boolean).join("\n") };
}

/**
 * A run's page, as one self-contained HTML document (a string): open it from disk, mail it, attach
 * it to a CI job. It makes no request of any kind when opened (its Content-Security-Policy forbids
 * them; screenshots are embedded as `data:` URIs) and runs no script; every string the service
 * or the user wrote is shown as text, never as markup. It never throws, whatever it is given, and
 * stays bounded (at most 10,000 steps and about 6 million characters of text, 40 MiB of images;
 * what is left out is said in place).
 *
 * @example
 * ```ts
 * import { writeFileSync } from "node:fs";
 * import { createReduckClient, getRun, getRunTrace } from "reduck-client";
 * import { fetchScreenshot, renderTraceHtml } from "reduck-client/report";
 *
 * const client = createReduckClient({ apiKey: process.env.REDUCK_API_KEY! });
 * const path = { runId: "86b0479f-a68f-4fcd-92d1-b68f485ee3d9" };
 * const [run, trace] = await Promise.all([getRun({ client, path }), getRunTrace({ client, path })]);
 * const images = new Map();
 * for (const shot of (trace.data as { screenshots?: { url: string }[] })?.screenshots ?? []) images.set(shot.url, await fetchScreenshot(shot.url));
 * writeFileSync("run.html", renderTraceHtml({ run: run.data, trace: trace.data, images }));
 * ```
 */
export function renderTraceHtml(input: TracePageInput): string {
  const budget = new Budget(PAGE_TEXT);
  try {
    const { title, body } = traceBody(input, budget);
    return page(title, body);
  } catch (err) {
    // Unreachable for JSON; a value that is not JSON (a throwing getter) still gets a page.
    const why = err instanceof Error ? err.message : String(err);
    return page("Run", `<h1>A run</h1><p>This run could not be shown: ${text(cut(why, 2_000, new Budget(10_000)))}</p>`);
  }
}
