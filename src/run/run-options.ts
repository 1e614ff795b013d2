/**
 * runScript's options as a JavaScript caller may pass them: what is wrong with them, in words
 * that say how to fix it, checked before anything is opened or sent.
 */
import { isClient } from "../core/call.js";
import { settingsProblem } from "../core/wire/call-settings.js";
import { fileSourceProblem } from "./files.js";
import { MAX_SCRIPTS_PER_RUN, MAX_WAIT_FOR_SECONDS, RUN_REGIONS, type RunRegion } from "./run-types.js";
import { isObject } from "../core/json.js";
import { closest } from "../core/words/suggest.js";

/** What one script of a run may hold (ScriptToRun): anything else would be refused by the service, with less to go on. */
const SCRIPT_KEYS = ["handle", "host", "slug", "version_id", "args", "files"];
/** Names a caller may reach for that the run calls otherwise. */
const SCRIPT_KEY_ALIASES: Record<string, string> = { arguments: "args", input: "args", inputs: "args", params: "args", versionId: "version_id" };

/** What is wrong with an option: in words that say how to fix it, the option's name, and what it most likely meant. */
export interface OptionsProblem {
  message: string;
  parameter?: string;
  suggestion?: string;
}

const bad = (message: string, parameter?: string, suggestion?: string): OptionsProblem => ({
  message,
  ...(parameter ? { parameter } : {}),
  ...(suggestion ? { suggestion } : {}),
});

/** What is wrong with options a JavaScript caller passed, in words that say how to fix it. */
export function optionsProblem(options: unknown): OptionsProblem | undefined {
  if (!isObject(options)) return bad("runScript takes an options object: runScript({ client, script: { host, slug, args, files } })");
  const { client, script, scripts, signal, headers, onUploadProgress } = options;
  if (!isClient(client)) return bad("pass the client from createReduckClient() as `client`", "client");
  if ((script === undefined) === (scripts === undefined)) return bad("give exactly one of script (one run) or scripts (several steps)", "script");
  if (scripts !== undefined && !Array.isArray(scripts)) return bad("scripts must be an array of scripts: [{ host, slug, ... }]", "scripts");
  const steps = (scripts ?? [script]) as unknown[];
  if (steps.length === 0) return bad("scripts is empty: give at least one step", "scripts");
  for (const [i, step] of steps.entries()) {
    const where = scripts === undefined ? "script" : `step ${i}`;
    if (!isObject(step) || typeof step.host !== "string" || typeof step.slug !== "string")
      return bad(`${where}: a script needs host and slug (strings)`, "host");
    const stray = Object.keys(step).find((key) => !SCRIPT_KEYS.includes(key));
    if (stray !== undefined) {
      const meant = SCRIPT_KEY_ALIASES[stray] ?? closest(stray, SCRIPT_KEYS);
      return bad(
        `${where}: a script has no ${JSON.stringify(stray)}${meant ? ` (did you mean ${meant}?)` : ""}; it takes ${SCRIPT_KEYS.join(", ")}`,
        stray,
        meant,
      );
    }
    for (const key of ["handle", "version_id"] as const) {
      if (step[key] !== undefined && typeof step[key] !== "string") return bad(`${where}: ${key} must be a string`, key);
    }
    if (step.args !== undefined && !isObject(step.args)) return bad(`${where}: args must be an object of named values`, "args");
    if (step.files !== undefined && !isObject(step.files)) return bad(`${where}: files must be an object: { <input>: { path } }`, "files");
    for (const [input, source] of Object.entries(step.files ?? {})) {
      if (source === undefined || source === null) continue;
      const problem = fileSourceProblem(input, source);
      if (problem) return bad(scripts === undefined ? problem : `step ${i}: ${problem}`, input);
    }
    try {
      JSON.stringify(step.args ?? {});
    } catch (err) {
      return bad(`${where}: args cannot be sent as JSON (${(err as Error).message})`, "args");
    }
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) return bad("signal must be an AbortSignal (from an AbortController)", "signal");
  if (headers !== undefined && !isObject(headers)) return bad("headers must be an object of header names and values", "headers");
  if (onUploadProgress !== undefined && typeof onUploadProgress !== "function") return bad("onUploadProgress must be a function", "onUploadProgress");
  const settings = settingsProblem(options, "runScript");
  if (settings) return bad(settings.message, settings.parameter);
  if (steps.length > MAX_SCRIPTS_PER_RUN)
    return bad(`${steps.length} scripts in one run: the service takes at most ${MAX_SCRIPTS_PER_RUN} per request; send them in several runs`, "scripts");
  return waitOptionsProblem(options);
}

/** The options about where and how long, checked as the service would (it refuses them after counting the run). */
function waitOptionsProblem(options: Record<string, unknown>): OptionsProblem | undefined {
  const { browser, region, country, waitForSeconds, wait, onStatus } = options;
  const named = typeof browser === "string" && ["cloud", "managed", "extension"].includes(browser);
  const device = isObject(browser) && typeof browser.deviceId === "string" && browser.deviceId !== "" && Object.keys(browser).length === 1;
  if (browser !== undefined && !named && !device) return bad('browser must be "cloud", "extension" or { deviceId: "..." } (an id from listDevices)', "browser");
  const cloud = browser === undefined || browser === "cloud" || browser === "managed";
  if (region !== undefined && !RUN_REGIONS.includes(region as RunRegion))
    return bad(`region must be one of ${RUN_REGIONS.join(", ")} (got ${JSON.stringify(region)})`, "region");
  if (country !== undefined && (typeof country !== "string" || !/^[A-Za-z]{2}$/.test(country)))
    return bad(`country must be a two-letter ISO 3166 code such as "DE" or "US" (got ${JSON.stringify(country)})`, "country");
  for (const [name, value] of [
    ["region", region],
    ["country", country],
  ] as const) {
    if (value !== undefined && !cloud)
      return bad(
        `${name} is for the cloud browser only, and this run goes to ${device ? `device ${(browser as { deviceId: string }).deviceId}` : "your own browser (extension)"}: drop ${name}, or run with browser: "cloud"`,
        name,
      );
  }
  if (
    waitForSeconds !== undefined &&
    (typeof waitForSeconds !== "number" || !Number.isInteger(waitForSeconds) || waitForSeconds < 1 || waitForSeconds > MAX_WAIT_FOR_SECONDS)
  ) {
    return bad(
      `waitForSeconds must be a whole number of seconds from 1 to ${MAX_WAIT_FOR_SECONDS} (got ${JSON.stringify(waitForSeconds)}): the service holds a run at most that long before answering with a batch to poll`,
      "waitForSeconds",
    );
  }
  if (wait !== undefined && typeof wait !== "boolean")
    return bad("wait must be true (wait for the outcome, the default) or false (return the pending run's handle)", "wait");
  if (onStatus !== undefined && typeof onStatus !== "function") return bad("onStatus must be a function", "onStatus");
  return undefined;
}
