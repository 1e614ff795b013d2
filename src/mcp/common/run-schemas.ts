/**
 * The schemas of the tools that run scripts and wait on runs: run_script and read_run_results
 * (which answer alike), and how a script to run is named (scriptRef, which run-files.ts reads).
 */
import type { z as Zod } from "zod";
import type { SchemaParts } from "./schema-parts.js";

export function runSchemas(z: typeof Zod, { closed, open, next, naming }: SchemaParts) {
  const namedFile = () =>
    closed({
      relativePath: z
        .string()
        .describe('Path of the file inside the reduck folder on the desktop, e.g. "invoice.pdf" or "2026/invoice.pdf". No absolute paths, no "..".'),
    });

  const scriptRef = () =>
    closed({
      ...naming(),
      args: z.record(z.unknown()).optional().describe("The script's arguments by name (see read_script for its inputs)."),
      files: z
        .record(namedFile())
        .optional()
        .describe(
          'File inputs by name (inputs with format "file" in read_script), each a file in the reduck folder: { attachment: { relativePath: "banner.png" } }.',
        ),
      version_id: z.string().optional().describe("Run this version instead of the current one."),
    });

  const stepOutcome = open({
    status: z.enum(["completed", "failed", "skipped"]),
    runId: z.string().nullable().describe("The step's run; null when it never ran."),
    result: z.unknown().optional(),
    error: z.string().optional(),
    errorType: z.string().optional(),
    externalMessage: z.string().optional(),
  });

  const runScriptOutput = open({
    status: z
      .enum(["completed", "failed", "queued", "running"])
      .describe(
        'For several scripts, "failed" when any step failed or was skipped. "queued" or "running": not finished yet; call read_run_results with the batchId or runId.',
      ),
    runId: z.string().optional().describe("One script: its run (see list_runs, read_run_trace)."),
    result: z.unknown().optional().describe("One script: what it returned, shaped by its output schema."),
    error: z.string().optional().describe("One script that failed: why."),
    errorType: z.string().optional().describe("One script that failed: the service's class of failure, when it gave one."),
    externalMessage: z.string().optional().describe("One script that failed: the service's message for people, when it gave one."),
    batchId: z.string().optional().describe("Several scripts (or a run still going): the batch."),
    totalSteps: z.number().int().optional(),
    runs: z.array(stepOutcome).optional().describe("Several scripts: each step's outcome, in order."),
    runIds: z.array(z.string().nullable()).optional().describe("A run still going: each script's run, as far as known."),
    shortened: z.string().optional().describe("Present when a result was too long to show whole: what was cut, and how to get it all."),
    next: next(),
  });

  return {
    scriptRef,
    runScriptOutput,
  };
}
