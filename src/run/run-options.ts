/**
 * runScript's options as a JavaScript caller may pass them: what is wrong with them, in words
 * that say how to fix it, checked before anything is opened or sent.
 */
import { isClient } from "../core/call.js";
import { settingsProblem } from "../core/call-settings.js";
import { fileSourceProblem } from "./files.js";
import { MAX_SCRIPTS_PER_RUN, MAX_WAIT_FOR_SECONDS, RUN_REGIONS, type RunRegion } from "./run-types.js";
import { isObject } from "../core/json.js";
import { closest } from "../core/suggest.js";

/** What one script of a run may hold (ScriptToRun): anything else would be refused by the service, with less to go on. */
const SCRIPT_KEYS = ["handle", "host", "slug", "version_id", "args", "files"];
/** Names a caller may reach for that the run calls otherwise. */
const SCRIPT_KEY_ALIASES: Record<string, string> = { arguments: "args", input: "args", inputs: "args", params: "args", versionId: "version_id" };

/** What is wrong with options a JavaScript caller passed, in words that say how to fix it. */
export function optionsProblem(options: unknown): string | undefined {
  if (!isObject(options)) return "runScript takes an options object: runScript({ client, script: { host, slug, args, files } })";
  const { client, script, scripts, signal, headers, onUploadProgress } = options;
  if (!isClient(client)) return "pass the client from createReduckClient() as `client`";
  if ((script === undefined) === (scripts === undefined)) return "give exactly one of script (one run) or scripts (several steps)";
  if (scripts !== undefined && !Array.isArray(scripts)) return "scripts must be an array of scripts: [{ host, slug, ... }]";
  const steps = (scripts ?? [script]) as unknown[];
  if (steps.length === 0) return "scripts is empty: give at least one step";
  for (const [i, step] of steps.entries()) {
    const where = scripts === undefined ? "script" : `step ${i}`;
    if (!isObject(step) || typeof step.host !== "string" || typeof step.slug !== "string") return `${where}: a script needs host and slug (strings)`;
    const stray = Object.keys(step).find((key) => !SCRIPT_KEYS.includes(key));
    if (stray !== undefined) {
      const meant = SCRIPT_KEY_ALIASES[stray] ?? closest(stray, SCRIPT_KEYS);
      return `${where}: a script has no ${JSON.stringify(stray)}${meant ? ` (did you mean ${meant}?)` : ""}; it takes ${SCRIPT_KEYS.join(", ")}`;
    }
    for (const key of ["handle", "version_id"] as const) {
      if (step[key] !== undefined && typeof step[key] !== "string") return `${where}: ${key} must be a string`;
    }
    if (step.args !== undefined && !isObject(step.args)) return `${where}: args must be an object of named values`;
    if (step.files !== undefined && !isObject(step.files)) return `${where}: files must be an object: { <input>: { path } }`;
    for (const [input, source] of Object.entries(step.files ?? {})) {
      if (source === undefined || source === null) continue;
      const problem = fileSourceProblem(input, source);
      if (problem) return scripts === undefined ? problem : `step ${i}: ${problem}`;
    }
    try {
      JSON.stringify(step.args ?? {});
    } catch (err) {
      return `${where}: args cannot be sent as JSON (${(err as Error).message})`;
    }
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) return "signal must be an AbortSignal (from an AbortController)";
  if (headers !== undefined && !isObject(headers)) return "headers must be an object of header names and values";
  if (onUploadProgress !== undefined && typeof onUploadProgress !== "function") return "onUploadProgress must be a function";
  const settings = settingsProblem(options, "runScript");
  if (settings) return settings;
  if (steps.length > MAX_SCRIPTS_PER_RUN)
    return `${steps.length} scripts in one run: the service takes at most ${MAX_SCRIPTS_PER_RUN} per request; send them in several runs`;
  return waitOptionsProblem(options);
}

/** The options about where and how long, checked as the service would (it refuses them after counting the run). */
function waitOptionsProblem(options: Record<string, unknown>): string | undefined {
  const { browser, region, country, waitForSeconds, wait, onStatus } = options;
  const named = typeof browser === "string" && ["cloud", "managed", "extension"].includes(browser);
  const device = isObject(browser) && typeof browser.deviceId === "string" && browser.deviceId !== "" && Object.keys(browser).length === 1;
  if (browser !== undefined && !named && !device) return 'browser must be "cloud", "extension" or { deviceId: "..." } (an id from listDevices)';
  const cloud = browser === undefined || browser === "cloud" || browser === "managed";
  if (region !== undefined && !RUN_REGIONS.includes(region as RunRegion))
    return `region must be one of ${RUN_REGIONS.join(", ")} (got ${JSON.stringify(region)})`;
  if (country !== undefined && (typeof country !== "string" || !/^[A-Za-z]{2}$/.test(country)))
    return `country must be a two-letter ISO 3166 code such as "DE" or "US" (got ${JSON.stringify(country)})`;
  for (const [name, value] of [
    ["region", region],
    ["country", country],
  ] as const) {
    if (value !== undefined && !cloud)
      return `${name} is for the cloud browser only, and this run goes to ${device ? `device ${(browser as { deviceId: string }).deviceId}` : "your own browser (extension)"}: drop ${name}, or run with browser: "cloud"`;
  }
  if (
    waitForSeconds !== undefined &&
    (typeof waitForSeconds !== "number" || !Number.isInteger(waitForSeconds) || waitForSeconds < 1 || waitForSeconds > MAX_WAIT_FOR_SECONDS)
  ) {
    return `waitForSeconds must be a whole number of seconds from 1 to ${MAX_WAIT_FOR_SECONDS} (got ${JSON.stringify(waitForSeconds)}): the service holds a run at most that long before answering with a batch to poll`;
  }
  if (wait !== undefined && typeof wait !== "boolean")
    return "wait must be true (wait for the outcome, the default) or false (return the pending run's handle)";
  if (onStatus !== undefined && typeof onStatus !== "function") return "onStatus must be a function";
  return undefined;
}
