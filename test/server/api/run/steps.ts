// The parts of a POST /run request the session layers share (see handler.ts): what a step is, how
// it ends, the envelopes it is reported in, and the checks of the request's headers and browser.
import type { components } from "../../contract/openapi-types.js";
import { ApiError } from "../errors.js";
import type { Reply } from "../handlers/types.js";
import { type RunBrowser as RunDevice, type RunRecord, type RunSource, type ScriptRecord, type VersionRecord } from "../../store/records.js";
import { type ReceivedPart } from "./body.js";
import { type RunEnvelope } from "./batches.js";
import { RunFailure, describeFailure } from "./failures.js";

export type Schemas = components["schemas"];
export type RunRequest = Schemas["RunRequest"];
export type ScriptReference = Schemas["RunScriptReference"];
export type RunBrowser = Schemas["RunBrowser"];
export type RunReply = Reply<"runScript">;

/** Where managed runs happen in this sandbox. */
export const MANAGED_BROWSER: RunDevice = { type: "managed", region: "eu-central-1", country: "" };
/** Where a cloud run without `region` runs. */
export const DEFAULT_REGION = "eu-central-1";

export const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
export const MULTIPART_TYPE = /^multipart\/form-data\s*(?:;|$)/i;
export const SOURCES: readonly RunSource[] = ["cli", "mcp", "rest"];

/**
 * A refusal, or a failure once the run is recorded: the message plus the run it was recorded as,
 * and (for a run's failure, or a refusal that knows its kind) its errorType and externalMessage.
 */
export function withRunId(error: ApiError, runId: string | undefined): RunReply {
  const body: Schemas["RunErrorResponse"] = { error: error.message };
  if (error.variables) body.variables = error.variables;
  if (runId) body.runId = runId;
  if (runId || error instanceof RunFailure) Object.assign(body, describeFailure(error));
  return { status: error.status, body } as RunReply;
}

/** The cloud's regions, as the service names them. */
export const REGIONS = ["eu-central-1", "us-east-1", "us-west-2", "ap-southeast-1"] as const;
/** Codes Intl knows as regions that are not countries one can egress from. */
export const NOT_COUNTRIES = new Set(["EU", "EZ", "UN", "QO", "ZZ"]);
export const regionNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });

/** ISO 3166-1 alpha-2, as far as this Node's ICU knows the assigned codes. */
export function isCountryCode(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code) || NOT_COUNTRIES.has(code)) return false;
  const name = regionNames.of(code);
  return name !== undefined && name !== code && name !== "Unknown Region";
}

export function sourceOf(request: Request): RunSource {
  const header = request.headers.get("x-reduck-source");
  if (header === null) return "rest";
  const value = header.trim().toLowerCase() as RunSource;
  if (!SOURCES.includes(value)) {
    throw new ApiError(400, `X-Reduck-Source must be one of cli, mcp, rest (got ${JSON.stringify(header)})`, {
      "X-Reduck-Source": [`must be one of "cli", "mcp", "rest"`],
    });
  }
  return value;
}

export function isOwnBrowser(browser: RunBrowser | undefined): boolean {
  return browser === "extension" || (typeof browser === "object" && browser !== null);
}

export function plainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export interface ResolvedScript {
  script: ScriptRecord;
  version: VersionRecord;
  /** `handle/host/slug`, for messages. */
  address: string;
}

export interface Step {
  index: number;
  ref: ScriptReference;
  resolved?: ResolvedScript;
  /** Why the script or version could not be resolved (a step of several; a single run throws instead). */
  problem?: ApiError;
  run?: RunRecord;
  /** Multipart file parts of this step, by input. */
  parts: Map<string, ReceivedPart>;
  /** Its final envelope, once it has ended (or will never run). */
  envelope?: RunEnvelope;
  /** How it ended, once it has run. */
  outcome?: Outcome;
}

/** `none`: the run ended with neither a result nor an error (a sandbox `noOutcome` script). */
export type Outcome = { ok: true; result: unknown; runId: string; none?: boolean } | { ok: false; error: ApiError; runId: string | null };

/** A step's final envelope from its outcome. */
export function envelopeOf(outcome: Outcome): RunEnvelope {
  if (outcome.ok) return outcome.none ? { status: "completed", runId: outcome.runId } : { status: "completed", runId: outcome.runId, result: outcome.result };
  const failed: RunEnvelope = { status: "failed", error: outcome.error.message, ...describeFailure(outcome.error) };
  if (outcome.runId) failed.runId = outcome.runId;
  return failed;
}

/** How long POST /run holds the request when `waitForSeconds` is not given (the service's default). */
export const DEFAULT_WAIT_SECONDS = 60;

/** The envelope of a step a sequential chain never ran, because `failed` (before it) failed. */
export function notRun(step: Step, failed: Step): RunEnvelope {
  const address = (s: Step) => s.resolved?.address ?? `${s.ref.handle ?? "(you)"}/${s.ref.host}/${s.ref.slug}`;
  return {
    status: "failed",
    error: `not run: script ${failed.index} of this sequential chain failed, and a chain stops at its first failure`,
    errorType: "not_run",
    externalMessage: `${address(step)} did not run, because ${address(failed)} before it failed.`,
  };
}
