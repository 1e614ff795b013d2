/**
 * What runScript takes and gives: where a run goes, its limits, the options and the result shape.
 * (The function itself is in run.ts, which re-exports all of this.)
 */
import type { ReduckClient } from "../core/client.js";
import type { CallSettingsOptions } from "../core/wire/call-settings.js";
import type { FileSource } from "./files.js";
import type { BatchRunResponse, PendingRun, RunError, RunResponse, RunStatusUpdate, RunStepOutcome } from "./outcomes.js";
import type { AddressOf, CheckedSteps, ScriptResultOf, StepResults, StepToRun, TypedScriptToRun } from "./typed.js";

/**
 * Where a run happens. `"cloud"`: a hosted browser (signed out; the REST default when `browser`
 * is absent); `"managed"` is the service's stored name for it and means the same. `"extension"`:
 * your own paired browser (auto-picked when exactly one is paired). `{ deviceId }`: one exact
 * paired browser.
 */
export type RunBrowser = "cloud" | "managed" | "extension" | { deviceId: string };

/**
 * Where a cloud browser can run.
 *
 * @example
 * ```ts
 * await runScript({ client, script, browser: "cloud", region: RUN_REGIONS[1] }); // us-east-1
 * ```
 */
export const RUN_REGIONS = ["eu-central-1", "us-east-1", "us-west-2", "ap-southeast-1"] as const;
export type RunRegion = (typeof RUN_REGIONS)[number];
/**
 * The service's cap on scripts in one request.
 *
 * @example
 * ```ts
 * for (let i = 0; i < all.length; i += MAX_SCRIPTS_PER_RUN) await runScript({ client, scripts: all.slice(i, i + MAX_SCRIPTS_PER_RUN) });
 * ```
 */
export const MAX_SCRIPTS_PER_RUN = 20;
/**
 * The longest the service holds a run request before handing back a batch to poll.
 *
 * @example
 * ```ts
 * await runScript({ client, script, waitForSeconds: MAX_WAIT_FOR_SECONDS });
 * ```
 */
export const MAX_WAIT_FOR_SECONDS = 110;

/** One script to run: the JSON reference, with files that may also be bytes. */
export interface ScriptToRun {
  host: string;
  slug: string;
  /** `@username`, a project handle, or `reduck` for the official catalogue. Omitted: your own. */
  handle?: string;
  args?: Record<string, unknown>;
  files?: Record<string, FileSource>;
  version_id?: string;
}

export interface UploadProgress {
  sent: number;
  total: number;
}

export interface RunOptionsBase extends CallSettingsOptions {
  client: ReduckClient;
  /**
   * A timeout for the run's request, from sending to the last byte of its answer, and for each
   * poll after it (in ms). Without it the request waits for its answer as long as the script
   * takes, and only the answer's body, once it has begun, gets the client's `timeoutMs`.
   * `maxRetries` and `onRetry` likewise replace the client's, for the run (sent again only when
   * it cannot have arrived) and its polls.
   */
  timeoutMs?: number;
  /** `"cloud"` (the default when omitted; `"managed"` means the same), `"extension"` (your own browser), or `{ deviceId }`. */
  // Written out rather than as RunBrowser, so that a wrong value's compile error lists the allowed ones.
  browser?: "cloud" | "managed" | "extension" | { deviceId: string };
  /** The cloud browser's region (cloud only). */
  region?: RunRegion;
  /** The cloud browser's residential egress country, ISO 3166 alpha-2 (cloud only). */
  country?: string;
  /** Seconds the service holds the request before answering with a batch to poll: 1-110 (its default 60). */
  waitForSeconds?: number;
  /** `false`: return at the first answer, with a pending run's handle as data when it was not final. */
  wait?: boolean;
  /** Told the status and counts at the first answer that is not final, and after each poll. */
  onStatus?: (update: RunStatusUpdate) => void;
  /** Told as the request body goes out (multipart runs), ending with `sent === total`. */
  onUploadProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  /** Extra headers for this request. */
  headers?: Record<string, string>;
}

/**
 * Options of a run of one `script`. Its args, files and result are typed when the script's
 * address is registered in ReduckScripts (a module made by `reduck scripts types`).
 */
export interface SingleRunOptions<H extends string = string, Ho extends string = string, S extends string = string> extends RunOptionsBase {
  script: TypedScriptToRun<H, Ho, S>;
  scripts?: never;
  sequential?: never;
}

/** Options of a run of several `scripts`: each step typed by its own address when registered. */
export interface BatchRunOptions<T extends readonly ScriptToRun[] = ScriptToRun[]> extends RunOptionsBase {
  /** Several steps; step `i` is the `<step>` of its files' part names. */
  scripts: T;
  /** One browser, in order, stopping at the first failure. */
  sequential?: boolean;
  script?: never;
}

/**
 * runScript's options: one `script` or several `scripts`, checked against the registry. The
 * type parameters are inferred from the call: `H`, `Ho`, `S` the script's handle, host and slug,
 * `T` the steps (`never` for one script), `W` whether it waits.
 */
export type RunOptions<H extends string, Ho extends string, S extends string, T extends readonly StepToRun[], W extends boolean> = { wait?: W } & (
  | SingleRunOptions<H, Ho, S>
  | (Omit<BatchRunOptions, "scripts"> & { scripts: T & CheckedSteps<T> })
);

/** What runScript's data is for those options: a step-by-step typed answer, or a pending run with `wait: false`. */
export type RunAnswer<H extends string, Ho extends string, S extends string, T extends readonly StepToRun[], W extends boolean> =
  | ([T] extends [never] ? RunResponse<ScriptResultOf<AddressOf<H, Ho, S>>> : BatchRunResponse<StepResults<T>>)
  | (W extends false ? PendingRun : never);

/**
 * What runScript and waitForRun resolve to. `outcomes` is how each script's run ended, one per
 * script in the order given, whenever the runs ended at the service, whether they completed or
 * failed (for one failed `script`, beside its `run_failed` error); absent for a pending run's
 * handle and for an error that left no outcome (a refused connection, a wait that stopped).
 * `data` is the same answer in the shape of the call: a `RunResponse` for one `script`, a
 * `BatchRunResponse` for several, or a `PendingRun` with `wait: false`.
 *
 * @example
 * ```ts
 * const { outcomes, error } = await runScript({ client, scripts });
 * if (outcomes) for (const o of outcomes) console.log(o.runId, o.status, o.status === "completed" ? o.result : o.error);
 * else console.error(error?.error ?? "still running");
 * ```
 */
export type RunResult<T> =
  | { data: T; error: undefined; outcomes?: RunStepOutcome[]; response: Response | undefined }
  | { data: undefined; error: RunError; outcomes?: RunStepOutcome[]; response: Response | undefined };
