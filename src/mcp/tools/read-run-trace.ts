/**
 * read_run_trace: a run's steps as text, and its screenshots as images a model can look at
 * (MCP image content, base64). The run is read by the one reader of a run (report/read-trace.ts,
 * which the run's page and `reduck runs trace --screenshots` use too: the same rule for every
 * screenshot's URL and each of its redirects, the same bounds). What one answer carries is
 * bounded: a few screenshots, each and all together under a size, and a screenshot left out is
 * named with its URL and why. Steps are counted from 1 in the text, as on the run's page; the
 * structured answer keeps the service's own indexes.
 */
import type { ReduckClient } from "../../client.js";
import { either } from "../../core/nearby-handles.js";
import { closestMatches } from "../../core/suggest.js";
import { listRuns } from "../../generated/operations.js";
import { byInterest, readRunTrace } from "../../report/read-trace.js";
import { errorSaidOnce } from "../../report/said-once.js";
import { normaliseRun } from "../../report/trace-data.js";
import { answer, fail, failWith, type ToolContent, type ToolContext, type ToolResult } from "../shared/answers.js";
import { oneLine } from "../shared/bounded.js";
import { MESSAGE_CHARS, TRACE_IMAGE_BYTES, TRACE_IMAGES, TRACE_IMAGES_BYTES } from "../shared/limits.js";
import { addressOf } from "../shared/naming.js";
import { toolRunStatus } from "../shared/run-status.js";
import type { Input } from "../shared/tool-schemas.js";
import { readTrace, type ScreenshotRef, stepLines } from "../shared/trace-view.js";

import { READ, type Tool } from "../shared/tool.js";

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

async function handle(ctx: ToolContext, input: Input<"readRunTraceInput">, signal?: AbortSignal): Promise<ToolResult> {
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
  spec: ({ s }) => ({
    title: "Read a run's trace",
    description:
      "What a run did, step by step (action, duration, ok or failed, error), as text, and the screenshots it recorded (the page where it failed, or where it ended) as images. Use it on a failed run's runId to see why it failed before changing the script. Changes nothing. At most 3 screenshots per answer; one left out is named with its URL.",
    input: s.readRunTraceInput,
    output: s.readRunTraceOutput,
    annotations: READ,
    usage: 'read_run_trace { runId: "86b0479f-a68f-4fcd-92d1-b68f485ee3d9" }',
  }),
  run: (tc, input, extra) => handle(tc, input, extra?.signal),
};
