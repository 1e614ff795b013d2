/**
 * The agent tool's input and output schemas (zod, handed in at start-up), and the refusal of
 * unknown keys with a did-you-mean. The tools themselves are in tools.ts.
 */
import type { z as Zod } from "zod";
import { closest } from "../core/suggest.js";
import { RUN_REGIONS } from "../run/run-types.js";
import { DEFAULT_PAGE_SIZE, FULL_RESULT_CHARS, RESULT_CHARS } from "./limits.js";
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

  const readRunResultsInput = closed({
    runId: z.string().min(1).optional().describe("One run: the runId run_script gave (even one run of a batch)."),
    batchId: z.string().min(1).optional().describe("Every script of a batch: the batchId run_script gave."),
    fullOutput: z.boolean().optional().describe("true: each result whole, as with run_script."),
  });

  const paging = (what: string) => ({
    page: z.number().int().min(0).max(10_000).optional().describe("Page, from 0 (the answer says when there is a next one)."),
    pageSize: z.number().int().min(1).max(100).optional().describe(`${what} per page, 1-100 (default ${DEFAULT_PAGE_SIZE}).`),
  });

  const listScriptsInput = closed({
    handle: z.string().optional().describe('Only this owner\'s scripts: "reduck" for the official catalogue, "@username", a project.'),
    host: z.string().optional().describe("Only scripts for this site."),
    q: z.string().optional().describe("Search words."),
    ...paging("Scripts"),
  });

  const readScriptInput = closed({
    ...naming(),
    version_id: z.string().optional().describe("Read this version instead of the current one (a draft too)."),
    code: z.boolean().optional().describe("true: include the version's code (content), to change it in a draft."),
  });

  const listRunsInput = closed({
    ...paging("Runs"),
    status: z.enum(TOOL_RUN_STATUSES).optional().describe("Only runs with this status (the words run_script uses)."),
  });

  const noInput = closed({});

  // Output objects accept more than they list: the service may add fields, and an agent
  // loses nothing by seeing them.
  const open = <S extends Zod.ZodRawShape>(shape: S) => z.object(shape).passthrough();

  const next = () => z.string().optional().describe("What to call next, when there is an obvious next step.");

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

  const page = () => ({
    page: z.number().int(),
    pageSize: z.number().int(),
    hasNextPage: z.boolean(),
    totalCount: z.number().optional(),
    next: next(),
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
    ...page(),
  });

  const readScriptOutput = open({
    address: z.string(),
    name: z.string().optional(),
    description: z.string().optional(),
    visibility: z.string().optional(),
    archived: z.boolean().optional(),
    versionId: z.string().nullable().optional(),
    loggedIn: z.boolean().optional(),
    sideEffects: z.string().optional(),
    input: z.record(z.unknown()).describe('JSON Schema of script.args (files included, as format "file").'),
    output: z.unknown().optional().describe("JSON Schema of what the script returns."),
    fileInputs: z.array(open({ name: z.string(), required: z.boolean() })),
    howToPassFiles: z.string().optional(),
    content: z.string().optional().describe("The version's code, with code: true (when the service shows it)."),
  });

  const listRunsOutput = open({
    runs: z.array(
      open({
        runId: z.string(),
        status: z.enum(TOOL_RUN_STATUSES),
        address: z.string().nullable().describe("The script run; null when it has been deleted since."),
        versionId: z.string().nullable().optional(),
        name: z.string(),
        startedAt: z.string(),
        finishedAt: z.string().nullable().optional(),
        error: z.string().optional(),
      }),
    ),
    ...page(),
  });

  const whoamiOutput = open({
    name: z.string(),
    email: z.string(),
    handle: z.string().nullable(),
    projects: z.array(open({ handle: z.string(), name: z.string(), role: z.string() })),
    usage: z.unknown().optional().describe("This period's usage and quotas; null when no period is active."),
    filesFolder: z.string().describe("The folder files are named in (relativePath)."),
  });

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

  const device = open({
    deviceId: z.string().describe("Give it as browser: { deviceId } (or deviceId) to run_script."),
    name: z.string().nullable(),
    browser: z.string().nullable(),
    os: z.string().nullable(),
    fileAccess: z.boolean().nullable().describe('Whether it may read named files ("Allow access to file URLs").'),
    reachable: z.boolean().describe("Whether it can be woken up: not that its browser is running."),
    concurrencyBudget: z.number(),
    createdAt: z.string(),
  });

  const listDevicesOutput = open({
    devices: z.array(device),
    extensionPicks: z.string().nullable().describe('The device browser: "extension" (the default) runs on: the only one paired, else null.'),
    next: next(),
  });

  /** How a tool that acts on one script names it (not a run: no args, no files). */
  const scriptTarget = () => naming();

  const contract = {
    inputSchema: z
      .record(z.unknown())
      .describe('JSON Schema of the script\'s args (an object schema; a file input is { "type": "string", "format": "file" }).'),
    outputSchema: z.record(z.unknown()).describe("JSON Schema of what the script returns."),
  };

  const language = z.enum(["typescript", "javascript"]);
  const sideEffects = z.enum(["none", "write"]);

  const content = z
    .string()
    .min(1)
    .describe(
      "The script's code: the body of an async function with page (a Playwright page), args (its validated input), files and builtins in scope; `return` gives the result, a throw fails the run.",
    );

  const createScriptInput = closed({
    host: z.string().describe('The site it automates, e.g. "example.com".'),
    slug: z.string().describe("Its name on that host: lowercase letters, digits, _ and -, up to 64."),
    handle: z.string().optional().describe("Owner: a project handle you may create scripts in; omit for your own."),
    description: z.string().min(1).max(10_000).describe("What it does (shown in listings and to agents)."),
    content,
    ...contract,
    sideEffects: sideEffects.describe("none: it only reads the site; write: it acts on it (sends, posts, deletes)."),
    name: z.string().min(1).max(75).optional().describe("Display name (default: the slug)."),
    language: language.optional().describe("Default typescript."),
    loggedIn: z.boolean().optional().describe("It needs the user signed in to the site."),
    humanRequired: z.boolean().optional().describe("It needs a person at the browser (a captcha, a confirmation)."),
    visibility: z.enum(["private", "public"]).optional().describe("Default private. A public script needs a promoted version."),
    draft: z.boolean().optional().describe("Leave the first version a draft: the script has no current version until one is promoted."),
  });

  const created = open({
    address: z.string().describe("Give this to run_script, read_script and the version tools."),
    scriptId: z.string(),
    versionId: z.string().describe("The first version."),
    currentVersionId: z.string().nullable().describe("null when the first version was left a draft."),
    next: next(),
  });

  const versionChoice = () => ({
    version_id: z.string().optional().describe("The version's id (from list_script_versions or create_draft_script_version)."),
    version: z.number().int().min(1).optional().describe("Or its number (1, 2, ...)."),
  });

  const listScriptVersionsInput = closed({
    ...scriptTarget(),
    draft: z.boolean().optional().describe("true: open drafts only; false: promoted versions only."),
    ...paging("Versions"),
  });

  const versionSummary = open({
    versionId: z.string(),
    version: z.number().int().describe("Its number."),
    current: z.boolean().describe("The version runs use when no version_id is given."),
    draft: z.boolean(),
    note: z.string().nullable().optional(),
    language: z.string().optional(),
    sideEffects: z.string().optional(),
    loggedIn: z.boolean().optional(),
    createdAt: z.string().optional(),
    parentVersionId: z.string().nullable().optional(),
  });

  const listScriptVersionsOutput = open({
    address: z.string(),
    versions: z.array(versionSummary).describe("Newest first."),
    ...page(),
  });

  const draftFields = {
    content: content.optional(),
    language: language.optional(),
    inputSchema: contract.inputSchema.optional(),
    outputSchema: contract.outputSchema.optional(),
    loggedIn: z.boolean().optional(),
    sideEffects: sideEffects.optional(),
  };

  const createDraftScriptVersionInput = closed({
    ...scriptTarget(),
    note: z.string().min(1).max(1_000).describe("Why this version exists (shown in list_script_versions)."),
    ...draftFields,
    parent_version_id: z.string().optional().describe("Build on this version instead of the current one."),
  });

  const patchDraftScriptVersionInput = closed({
    ...scriptTarget(),
    ...versionChoice(),
    ...draftFields,
    note: z.string().min(1).max(1_000).optional(),
  });

  const versionTarget = closed({ ...scriptTarget(), ...versionChoice() });

  const versionOutput = open({
    address: z.string(),
    versionId: z.string(),
    version: z.number().int(),
    draft: z.boolean(),
    current: z.boolean(),
    note: z.string().nullable().optional(),
    changed: z.unknown().optional().describe("What differs from the parent version: fields (from, to) and the code, shortened."),
    next: next(),
  });

  const deletedOutput = open({
    address: z.string(),
    deleted: z.string().describe("What was deleted."),
    next: next(),
  });

  const updateScriptMetadataInput = closed({
    ...scriptTarget(),
    name: z.string().min(1).max(75).optional(),
    description: z.string().min(1).max(10_000).optional(),
    visibility: z
      .enum(["private", "public"])
      .optional()
      .describe("public: anyone may read and run it (needs a promoted version); private: you and your project."),
    humanRequired: z.boolean().optional(),
  });

  const scriptState = open({
    address: z.string(),
    name: z.string(),
    description: z.string(),
    visibility: z.string(),
    archived: z.boolean(),
    currentVersionId: z.string().nullable(),
    changed: z.array(z.string()).optional().describe("What this call changed."),
    next: next(),
  });

  const hostTarget = () => ({
    host: z.string().describe('The site, e.g. "example.com".'),
    handle: z.string().optional().describe('Owner: "reduck", "@username" or a project; omit for your own.'),
  });

  const readHostReadmeInput = closed(hostTarget());
  const setHostReadmeInput = closed({
    ...hostTarget(),
    content: z.string().min(1).max(20_000).describe("The whole README (Markdown): it replaces the one there."),
  });

  const readmeOutput = open({
    handle: z.string(),
    host: z.string(),
    content: z.string().nullable().describe("null when there is none."),
    updatedAt: z.string().nullable().optional(),
    next: next(),
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
    readRunTraceInput,
    readRunTraceOutput,
    listDevicesOutput,
    createScriptInput,
    createScriptOutput: created,
    listScriptVersionsInput,
    listScriptVersionsOutput,
    createDraftScriptVersionInput,
    patchDraftScriptVersionInput,
    versionTarget,
    versionOutput,
    deletedOutput,
    updateScriptMetadataInput,
    scriptTargetInput: closed(scriptTarget()),
    scriptState,
    readHostReadmeInput,
    setHostReadmeInput,
    readmeOutput,
  };
}

export type Schemas = ReturnType<typeof toolSchemas>;
type InputNames = { [K in keyof Schemas]: K extends `${string}Input` | "versionTarget" ? K : never }[keyof Schemas];
export type Input<K extends InputNames> = Zod.infer<Schemas[K]>;
export type ScriptRefInput = Zod.infer<ReturnType<Schemas["scriptRef"]>>;
