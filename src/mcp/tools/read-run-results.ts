/**
 * read_run_results: waits (up to the hold) for a run or batch run_script handed back, and gives
 * its outcome, or the handle again when it is still going.
 */
import type { z as Zod } from "zod";
import type { SchemaParts } from "../common/schema-parts.js";
import { type PendingRun } from "../../run/outcomes.js";
import { fail, type ToolContext, type ToolResult } from "../common/answers.js";
import { DEFAULT_HOLD_MS, startProgress, waitOrHandle, type CallExtra } from "../common/waiting.js";
import { READ, type Tool } from "../common/tool.js";

/** read_run_results's own schemas. */
function schemas(z: typeof Zod, { closed }: SchemaParts) {
  const readRunResultsInput = closed({
    runId: z.string().min(1).optional().describe("One run: the runId run_script gave (even one run of a batch)."),
    batchId: z.string().min(1).optional().describe("Every script of a batch: the batchId run_script gave."),
    fullOutput: z.boolean().optional().describe("true: each result whole, as with run_script."),
  });

  return { readRunResultsInput };
}

type Input = Zod.infer<ReturnType<typeof schemas>["readRunResultsInput"]>;

/**
 * read_run_results: waits (up to the hold) for a run or batch run_script handed back, and gives
 * its outcome, or the handle again when it is still going.
 */
async function handle(ctx: ToolContext, input: Input, extra: CallExtra = {}): Promise<ToolResult> {
  if ((input.runId === undefined) === (input.batchId === undefined))
    return fail("Give exactly one of runId (one run) or batchId (every script of a batch), as run_script gave them.");
  const hold = ctx.holdMs ?? DEFAULT_HOLD_MS;
  const progress = startProgress(extra, hold);
  try {
    const pending: PendingRun = input.batchId ? { status: "running", batchId: input.batchId } : { status: "running", runId: input.runId };
    return await waitOrHandle(ctx, pending, hold, false, { full: Boolean(input.fullOutput), holdMs: hold }, progress.onStatus, extra.signal);
  } finally {
    progress.stop();
  }
}

export const readRunResultsTool: Tool = {
  name: "read_run_results",
  spec: ({ s, holdSeconds, z, parts }) => {
    const own = schemas(z, parts);
    return {
      title: "Read a run's results",
      description: `The outcome of a run run_script handed back still going: { runId } for that one run (even one of a batch), { batchId } for every script of the batch. Changes nothing. Waits up to ${holdSeconds} s; if the run is still going then, answers with the handle again: call again.`,
      input: own.readRunResultsInput,
      output: s.runScriptOutput,
      annotations: READ,
      usage: 'read_run_results { runId: "86b0479f-a68f-4fcd-92d1-b68f485ee3d9" }',
    };
  },
  run: handle,
};
