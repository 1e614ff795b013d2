/**
 * run_script: runs one script or several on the browser asked for, waits for the outcome as long
 * as a call may hold, and hands back the run's handle when it is still going.
 */
import type { FileHandle } from "node:fs/promises";
import type { z as Zod } from "zod";
import { RUN_REGIONS } from "../../run/run-types.js";
import { FULL_RESULT_CHARS, RESULT_CHARS } from "../common/limits.js";
import type { SchemaParts } from "../common/schema-parts.js";
import type { Schemas } from "../common/tool-schemas.js";
import { getMe, getScript } from "../../generated/operations.js";
import { isPendingRun, isRunFailure, type RunError } from "../../run/outcomes.js";
import { runScript, type RunBrowser, type ScriptToRun } from "../../run/run.js";
import { fail, failWith, type ToolContext, type ToolResult } from "../common/answers.js";
import { unknownScript, unknownVersionHint, type ScriptPath } from "../common/naming.js";
import { outcomeAnswer, runErrorAnswer } from "../common/run-answers.js";
import { bindFiles } from "../common/run-files.js";
import { DEFAULT_HOLD_MS, startProgress, waitOrHandle, type CallExtra } from "../common/waiting.js";
import type { Tool } from "../common/tool.js";
import { count } from "../../core/words/count.js";

/** run_script's input schema. How a script to run is named (scriptRef) is shared: common/run-files.ts reads it too. */
function schemas(z: typeof Zod, { closed }: SchemaParts, scriptRef: Schemas["scriptRef"]) {
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
        `true: each result whole (up to ${count(FULL_RESULT_CHARS)} characters of JSON). Otherwise results past ${count(RESULT_CHARS)} characters are shortened, and the answer says so.`,
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

  return { runScriptInput };
}

type Input = Zod.infer<ReturnType<typeof schemas>["runScriptInput"]>;

/**
 * Where the run goes, from `browser` and its `deviceId` shorthand, or why that cannot be: the
 * two disagree, or `"local"`, a kind of paired browser the public run API does not pick by kind.
 */
function runTarget(input: Input): RunBrowser | { problem: string } {
  const { browser, deviceId } = input;
  if (deviceId !== undefined) {
    if (browser === undefined || (typeof browser === "object" && browser.deviceId === deviceId)) return { deviceId };
    return {
      problem: `give browser or deviceId, not both: deviceId ${JSON.stringify(deviceId)} is shorthand for browser: { deviceId: ${JSON.stringify(deviceId)} }`,
    };
  }
  if (browser === "local") {
    return {
      problem:
        'browser "local" (a browser paired by the official CLI\'s `reduck local`) is not picked by kind by this server: call list_devices and give its id as deviceId, or use "extension" (your paired Chrome) or "cloud"',
    };
  }
  return browser ?? "extension";
}

async function handle(ctx: ToolContext, input: Input, extra: CallExtra = {}): Promise<ToolResult> {
  if ((input.script === undefined) === (input.scripts === undefined))
    return fail("Give exactly one of script (one run: script: { address, args }) or scripts (several: scripts: [{ address, args }, ...]).");
  const target = runTarget(input);
  if (typeof target === "object" && "problem" in target) return fail(target.problem);
  const onOwnBrowser = target !== "managed" && target !== "cloud";
  const steps = input.script ? [input.script] : input.scripts!;
  const opened: FileHandle[] = [];
  try {
    const bound: ScriptToRun[] = [];
    for (const [i, step] of steps.entries()) {
      const result = await bindFiles(ctx, step, onOwnBrowser, opened);
      if (!result.ok) return fail(input.scripts ? `scripts[${i}]: ${result.message}` : result.message);
      bound.push(result.script);
    }
    const headers = { "X-Reduck-Source": "mcp" };
    const hold = input.waitForSeconds !== undefined ? input.waitForSeconds * 1000 : (ctx.holdMs ?? DEFAULT_HOLD_MS);
    const shown = { full: Boolean(input.fullOutput), holdMs: hold };
    const progress = startProgress(extra, hold);
    try {
      // The service holds the request at most as long as this call may wait; then it is polled.
      const waitForSeconds = Math.min(110, Math.max(1, Math.floor(hold / 1000)));
      const common = {
        client: ctx.client,
        browser: target,
        region: input.region,
        country: input.country,
        headers,
        wait: false as const,
        waitForSeconds,
        onStatus: progress.onStatus,
        signal: extra.signal,
      };
      const first = input.script
        ? await runScript({ ...common, script: bound[0]! })
        : await runScript({ ...common, scripts: bound, sequential: input.sequential });
      if (first.error && !isRunFailure(first.error) && input.script) {
        const refused = await refusedRun(ctx, bound[0]!, first.error);
        if (refused) return refused;
      }
      if (first.outcomes) return outcomeAnswer(first.outcomes, first, Boolean(input.script), shown);
      if (first.error) return runErrorAnswer(first.error);
      if (!isPendingRun(first.data)) return fail("The service's answer named no outcome and no run to wait on.");
      return await waitOrHandle(ctx, first.data, hold - progress.elapsed(), Boolean(input.script), shown, progress.onStatus, extra.signal);
    } finally {
      progress.stop();
    }
  } finally {
    // Handles opened for managed-browser uploads: the run has read them, or never will.
    await Promise.all(opened.map((handle) => handle.close().catch(() => undefined)));
  }
}

/**
 * A run of one script the service refused before it ran: a script it does not know (the scripts
 * most likely meant), a version that is not the script's (its versions); undefined otherwise.
 */
async function refusedRun(ctx: ToolContext, script: ScriptToRun, error: RunError): Promise<ToolResult | undefined> {
  const named = script.handle !== undefined;
  const handle = script.handle ?? (await getMe({ client: ctx.client })).data?.handle;
  if (!handle) return undefined;
  const path: ScriptPath = { handle, host: script.host, slug: script.slug };
  if (error.status === 404) return unknownScript(ctx, path, error, !named);
  const aboutVersion = error.variables?.version_id || /version/i.test(error.error);
  if (script.version_id && error.status === 400 && aboutVersion) return failWith(error, await unknownVersionHint(ctx, path, script.version_id));
  if (error.code !== "run_refused") return undefined;
  // The service refused the script as a step, with no status to tell why: the script is read to tell.
  const read = await getScript({ client: ctx.client, path });
  if (read.error?.status === 404) return unknownScript(ctx, path, error, !named);
  if (script.version_id && aboutVersion) return failWith(error, await unknownVersionHint(ctx, path, script.version_id));
  return undefined;
}

export const runScriptTool: Tool = {
  name: "run_script",
  spec: ({ s, z, parts, folder, holdSeconds }) => {
    const own = schemas(z, parts, s.scriptRef);
    return {
      title: "Run a Reduck script",
      description: `Runs a catalogue script (or up to 20) in a browser and returns its result as JSON: { status, runId, result }, or for several scripts { batchId, status, totalSteps, runs }. Scripts act on real sites: they may send, post or delete. Name the script by its address from list_scripts (script: { address: "reduck/mail.google.com/send_email" }) or by host, slug and handle; its arguments go in script.args; script.version_id runs that version (a draft, to try it before promote_script_version). Files are named, never sent by you: put the file in ${folder} and pass files: { <input>: { relativePath: "<name>" } } (sub-folders allowed). Use read_script first to see the inputs and which are files. A run still going after ${holdSeconds} s (or waitForSeconds) answers with its handle ({ status: "running", batchId or runId, next }): call read_run_results with it for the outcome, never run_script again. A failed run's runId goes to read_run_trace.`,
      input: own.runScriptInput,
      output: s.runScriptOutput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
      usage: 'run_script { script: { address: "reduck/mail.google.com/send_email", args: { to: "me@example.com", subject: "Hi" } } }',
    };
  },
  run: handle,
};
