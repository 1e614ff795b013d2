/**
 * The schemas of the tools that run scripts and wait on runs: run_script and read_run_results
 * (which answer alike), and how a script to run is named (scriptRef, which run-files.ts reads).
 */
import type { z as Zod } from "zod";
import { RUN_REGIONS } from "../../run/run-types.js";
import { FULL_RESULT_CHARS, RESULT_CHARS } from "./limits.js";
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

  const browser = z
    .union([z.enum(["extension", "local", "cloud", "managed"]), closed({ deviceId: z.string().min(1) })])
    .optional()
    .describe(
      '"extension" (default): your own paired browser, which reads named files itself. "cloud" (or "managed", the same): a hosted browser, signed out; a named file is then read here and uploaded, and arrives named after its input unless the script takes a name argument. { deviceId } (or deviceId beside it): one paired browser, from list_devices. "local" (a browser paired by the official CLI\'s `reduck local`) is not picked by kind here: give its deviceId.',
    );

  const runScriptInput = closed({
    script: scriptRef().optional().describe("One script to run. Give this or scripts."),
    scripts: z.array(scriptRef()).min(1).max(20).optional().describe("Several scripts (up to 20), each in its own browser, results in order."),
    sequential: z.boolean().optional().describe("With scripts: run them in order in one browser, stopping at the first failure."),
    browser,
    deviceId: z.string().min(1).optional().describe("Shorthand for browser: { deviceId }: run on this paired browser (ids from list_devices)."),
    region: z.enum(RUN_REGIONS).optional().describe("Cloud browser only: where it runs."),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, "must be a two-letter ISO 3166 code such as DE")
      .optional()
      .describe("Cloud browser only: residential egress country, ISO 3166 alpha-2."),
    fullOutput: z
      .boolean()
      .optional()
      .describe(
        `true: each result whole (up to ${FULL_RESULT_CHARS.toLocaleString("en")} characters of JSON). Otherwise results past ${RESULT_CHARS.toLocaleString("en")} characters are shortened, and the answer says so.`,
      ),
    waitForSeconds: z
      .number()
      .int()
      .min(1)
      .max(110)
      .optional()
      .describe(
        "How long this call waits for the outcome before answering with the run's handle (default 45: most MCP clients give up on a call after 60 s unless progress resets their timeout).",
      ),
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
    runScriptInput,
    runScriptOutput,
  };
}
