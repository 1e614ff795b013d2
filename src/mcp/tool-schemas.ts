/**
 * The agent tool's input and output schemas (zod, handed in at start-up), and the refusal of
 * unknown keys with a did-you-mean. The tools themselves are in tools.ts.
 */
import type { z as Zod } from "zod";
import { closest } from "../core/suggest.js";
import { TOOL_RUN_STATUSES } from "./run-status.js";

/**
 * `unknown argument "browsr" (did you mean "browser"? the arguments here are ...)`. Written so
 * that the SDK's " at scripts[1]", appended for a nested object, still reads right.
 */
function unknownArgumentsMessage(keys: string[], accepted: string[]): string {
  const guesses = keys.flatMap((key) => {
    const meant = closest(key, accepted);
    return meant ? [`did you mean "${meant}"?`] : [];
  });
  const known = accepted.length ? `the arguments here are ${accepted.join(", ")}` : "this takes no arguments";
  const quoted = keys.map((key) => JSON.stringify(key)).join(", ");
  return `unknown argument${keys.length > 1 ? "s" : ""} ${quoted} (${[...guesses, known].join(" ")})`;
}

/**
 * The tools' input and output schemas, built from a zod handed in at start-up: importing zod
 * (and the MCP SDK) at the top would slow every CLI command's start-up, not just `reduck mcp`'s.
 */
export function toolSchemas(z: typeof Zod) {
  /**
   * Every input object refuses keys it does not know, as its JSON Schema says
   * (`additionalProperties: false`): a dropped `"browsr": "managed"` once ran a script in the
   * user's own browser. The refusal names the key and the closest known one.
   */
  const closed = <S extends Zod.ZodRawShape>(shape: S) =>
    z
      .object(shape, {
        errorMap: (issue, ctx) =>
          issue.code === "unrecognized_keys" ? { message: unknownArgumentsMessage(issue.keys, Object.keys(shape)) } : { message: ctx.defaultError },
      })
      .strict();

  // Schemas are built afresh where they recur: the JSON Schema conversion writes a repeated
  // instance as a "$ref", which not every MCP client resolves.
  const namedFile = () =>
    closed({
      relativePath: z
        .string()
        .describe('Path of the file inside the reduck folder on the desktop, e.g. "invoice.pdf" or "2026/invoice.pdf". No absolute paths, no "..".'),
    });

  /** How a script is named in what a tool takes: its address, or host, slug and handle. */
  const naming = () => ({
    address: z
      .string()
      .optional()
      .describe(
        'The script\'s address as list_scripts shows it: "reduck/mail.google.com/send_email", "@alice/x.com/post", or "host/slug" for your own. Or give host, slug and handle instead.',
      ),
    host: z.string().optional().describe('The site the script targets, e.g. "mail.google.com" (with slug, instead of address).'),
    slug: z.string().optional().describe('The script\'s name on that host, e.g. "send_email" (with host, instead of address).'),
    handle: z
      .string()
      .optional()
      .describe('Owner, with host and slug: "reduck" for the official catalogue, "@username" for a person, a project handle. Omit for your own.'),
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
    .union([z.enum(["extension", "cloud", "managed"]), closed({ deviceId: z.string() })])
    .optional()
    .describe(
      '"extension" (default): your own paired browser, which reads named files itself. "cloud" (or "managed", the same): a hosted browser; the file is then read here and uploaded, and arrives named after its input unless the script takes a name argument. { deviceId }: one paired browser.',
    );

  const runScriptInput = closed({
    script: scriptRef().optional().describe("One script to run. Give this or scripts."),
    scripts: z.array(scriptRef()).min(1).max(20).optional().describe("Several scripts (up to 20), each in its own browser, results in order."),
    sequential: z.boolean().optional().describe("With scripts: run them in order in one browser, stopping at the first failure."),
    browser,
  });

  const readRunResultsInput = closed({
    runId: z.string().min(1).optional().describe("One run: the runId run_script gave (even one run of a batch)."),
    batchId: z.string().min(1).optional().describe("Every script of a batch: the batchId run_script gave."),
  });

  const listScriptsInput = closed({
    handle: z.string().optional().describe('Only this owner\'s scripts: "reduck" for the official catalogue, "@username", a project.'),
    host: z.string().optional().describe("Only scripts for this site."),
    q: z.string().optional().describe("Search words."),
    page: z.number().int().min(0).optional().describe("Page, from 0."),
    pageSize: z.number().int().min(1).max(100).optional().describe("Scripts per page (default 20)."),
  });

  const readScriptInput = closed({
    ...naming(),
    version_id: z.string().optional().describe("Read this version instead of the current one."),
  });

  const listRunsInput = closed({
    page: z.number().int().min(0).optional().describe("Page, from 0."),
    pageSize: z.number().int().min(1).max(100).optional().describe("Runs per page (default 20)."),
    status: z.enum(TOOL_RUN_STATUSES).optional().describe("Only runs with this status (the words run_script uses)."),
  });

  const noInput = closed({});

  // Output objects accept more than they list: the service may add fields, and an agent
  // loses nothing by seeing them.
  const open = <S extends Zod.ZodRawShape>(shape: S) => z.object(shape).passthrough();

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
    runId: z.string().optional().describe("One script: its run (see list_runs)."),
    result: z.unknown().optional().describe("One script: what it returned, shaped by its output schema."),
    error: z.string().optional().describe("One script that failed: why."),
    errorType: z.string().optional().describe("One script that failed: the service's class of failure, when it gave one."),
    externalMessage: z.string().optional().describe("One script that failed: the service's message for people, when it gave one."),
    batchId: z.string().optional().describe("Several scripts (or a run still going): the batch."),
    totalSteps: z.number().int().optional(),
    runs: z.array(stepOutcome).optional().describe("Several scripts: each step's outcome, in order."),
    runIds: z.array(z.string().nullable()).optional().describe("A run still going: each script's run, as far as known."),
    next: z.string().optional().describe("A run still going: what to call to get its outcome."),
  });

  const listScriptsOutput = open({
    scripts: z.array(
      open({
        address: z.string().describe("Give this to read_script and run_script."),
        name: z.string(),
        description: z.string(),
        visibility: z.string(),
        sideEffects: z.string().optional().describe("none, write or undetermined."),
      }),
    ),
    page: z.number().int(),
    hasNextPage: z.boolean(),
    totalCount: z.number().optional(),
  });

  const readScriptOutput = open({
    address: z.string(),
    name: z.string().optional(),
    description: z.string().optional(),
    visibility: z.string().optional(),
    archived: z.boolean().optional(),
    versionId: z.string().optional(),
    loggedIn: z.boolean().optional(),
    sideEffects: z.string().optional(),
    input: z.record(z.unknown()).describe('JSON Schema of script.args (files included, as format "file").'),
    output: z.unknown().optional().describe("JSON Schema of what the script returns."),
    fileInputs: z.array(open({ name: z.string(), required: z.boolean() })),
    howToPassFiles: z.string().optional(),
  });

  const listRunsOutput = open({
    runs: z.array(
      open({
        runId: z.string(),
        status: z.enum(TOOL_RUN_STATUSES),
        address: z.string().nullable().describe("The script run; null when it has been deleted since."),
        name: z.string(),
        startedAt: z.string(),
        finishedAt: z.string().nullable().optional(),
        error: z.string().optional(),
      }),
    ),
    hasNextPage: z.boolean(),
    totalCount: z.number().optional(),
  });

  const whoamiOutput = open({
    name: z.string(),
    email: z.string(),
    handle: z.string().nullable(),
    projects: z.array(open({ handle: z.string(), name: z.string(), role: z.string() })),
    usage: z.unknown().optional().describe("This period's usage and quotas; null when no period is active."),
    filesFolder: z.string().describe("The folder files are named in (relativePath)."),
  });

  return {
    scriptRef,
    runScriptInput,
    readRunResultsInput,
    listScriptsInput,
    readScriptInput,
    listRunsInput,
    noInput,
    runScriptOutput,
    listScriptsOutput,
    readScriptOutput,
    listRunsOutput,
    whoamiOutput,
  };
}

export type Schemas = ReturnType<typeof toolSchemas>;
export type Input<K extends "runScriptInput" | "readRunResultsInput" | "listScriptsInput" | "readScriptInput" | "listRunsInput"> = Zod.infer<Schemas[K]>;
export type ScriptRefInput = Zod.infer<ReturnType<Schemas["scriptRef"]>>;
