// POST /run (operationId runScript, hand-written): one script or several steps, with files as
// multipart bytes, named desktop files or inline base64, run in the sandbox's real browser (or, for a
// store made with `browser: "simulated"`, against the simulated page).
//
// A request goes: authenticate -> read the body within the limits (the spec first; file parts are
// hashed as they stream, and kept in a temporary folder for the real browser) -> resolve each step's
// script and version -> RECORD the run -> check the arguments, file inputs, named files and browser
// -> run the script -> answer, and finish its trace (the screenshot) meanwhile. Once recorded, every
// failure marks the run `error` and the answer carries its runId, errorType and externalMessage.
// The request is held up to `waitForSeconds`: ended by then, a 200 (`{ result, runId }` for one
// script, an array of envelopes for `scripts`); not yet, a 202 (a batch for `scripts`, polled at
// GET /batches/{batchId}, see batches.ts; an in-flight envelope for one script) while the runs go
// on. The answer is checked against openapi.json before it leaves, like every other operation's.
// The kept parts go once the runs have ended.
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { http, HttpResponse, type RequestHandler } from "msw";
import type { components } from "reduck-client";
import { relativePathProblem } from "../service-rules.js";
import { authenticate, withChallenge } from "../auth.js";
import { withDirectRoute } from "../direct-routes.js";
import { ApiError } from "../errors.js";
import type { Reply } from "../handlers/types.js";
import { normalizeHost } from "../hostnames.js";
import { scratchFolder } from "../scratch.js";
import { nestingProblem } from "../nesting.js";
import { validateRequestPart, validateResponse } from "../openapi.js";
import {
  API_AUDIENCE,
  MCP_AUDIENCE,
  type DeviceRecord,
  type FileDescriptor,
  type ReceivedFile,
  type RunBrowser as RunDevice,
  type RunRecord,
  type RunSource,
  type ScriptRecord,
  type VersionRecord,
} from "../records.js";
import { isFinished, type ReferenceStore } from "../store.js";
import { UploadInterrupted, readJsonBody, readMultipartBody, type ReceivedPart } from "./body.js";
import { ContractProblem, checkArguments, describeFieldErrors, fileInputsOf, requiredOf } from "./contract.js";
import type { RunFile } from "../browser/index.js";
import { deliveryFor } from "./downloads.js";
import { inlineFile, readNamedFile } from "./files.js";
import { keepScreenshots } from "./screenshots.js";
import { finishTrace } from "./traces.js";
import { runScriptBody } from "./script-runner.js";
import { openSession, type BrowserSession, type StepEnd } from "./sessions.js";
import { batchStatus, type RunEnvelope } from "./batches.js";
import { RunFailure, bodyFailure, describeFailure } from "./failures.js";
import { logRequest } from "../request-log.js";

type Schemas = components["schemas"];
type RunRequest = Schemas["RunRequest"];
type ScriptReference = Schemas["RunScriptReference"];
type RunBrowser = Schemas["RunBrowser"];
type RunReply = Reply<"runScript">;

/** Where managed runs happen in this reference server. */
export const MANAGED_BROWSER: RunDevice = { type: "managed", region: "eu-central-1", country: "" };
/** Where a cloud run without `region` runs. */
const DEFAULT_REGION = "eu-central-1";

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const MULTIPART_TYPE = /^multipart\/form-data\s*(?:;|$)/i;
const SOURCES: readonly RunSource[] = ["cli", "mcp", "rest"];

/**
 * A refusal, or a failure once the run is recorded: the message plus the run it was recorded as,
 * and (for a run's failure, or a refusal that knows its kind) its errorType and externalMessage.
 */
function withRunId(error: ApiError, runId: string | undefined): RunReply {
  const body: Schemas["RunErrorResponse"] = { error: error.message };
  if (error.variables) body.variables = error.variables;
  if (runId) body.runId = runId;
  if (runId || error instanceof RunFailure) Object.assign(body, describeFailure(error));
  return { status: error.status, body } as RunReply;
}

/** The cloud's regions, as the service names them. */
const REGIONS = ["eu-central-1", "us-east-1", "us-west-2", "ap-southeast-1"] as const;
/** Codes Intl knows as regions that are not countries one can egress from. */
const NOT_COUNTRIES = new Set(["EU", "EZ", "UN", "QO", "ZZ"]);
const regionNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });

/** ISO 3166-1 alpha-2, as far as this Node's ICU knows the assigned codes. */
function isCountryCode(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code) || NOT_COUNTRIES.has(code)) return false;
  const name = regionNames.of(code);
  return name !== undefined && name !== code && name !== "Unknown Region";
}

function sourceOf(request: Request): RunSource {
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

function isOwnBrowser(browser: RunBrowser | undefined): boolean {
  return browser === "extension" || (typeof browser === "object" && browser !== null);
}

function plainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

interface ResolvedScript {
  script: ScriptRecord;
  version: VersionRecord;
  /** `handle/host/slug`, for messages. */
  address: string;
}

interface Step {
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
type Outcome = { ok: true; result: unknown; runId: string; none?: boolean } | { ok: false; error: ApiError; runId: string | null };

/** A step's final envelope from its outcome. */
function envelopeOf(outcome: Outcome): RunEnvelope {
  if (outcome.ok) return outcome.none ? { status: "completed", runId: outcome.runId } : { status: "completed", runId: outcome.runId, result: outcome.result };
  const failed: RunEnvelope = { status: "failed", error: outcome.error.message, ...describeFailure(outcome.error) };
  if (outcome.runId) failed.runId = outcome.runId;
  return failed;
}

/** One POST /run request, from its spec to its answer. */
class RunSession {
  private spec?: RunRequest;
  private steps: Step[] = [];
  private single = true;
  private readonly partNames = new Set<string>();
  /** File parts that arrived before the spec part. */
  private readonly early: ReceivedPart[] = [];
  private devicePick?: DeviceRecord;

  constructor(
    private readonly store: ReferenceStore,
    private readonly userId: string,
    private readonly source: RunSource,
    /** Where this request came in, for the URLs of managed browsers' downloads. */
    private readonly origin: string,
  ) {}

  // ---- the request --------------------------------------------------------------------------

  acceptSpecText(text: string): void {
    if (this.spec) throw new ApiError(400, "The spec part was sent twice: send the run request once");
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ApiError(400, `The spec part is not valid JSON (${(error as Error).message}): it must hold the run request`);
    }
    this.acceptSpec(value, "multipart");
  }

  /** Checks the run request, resolves its steps and records the runs that start now. */
  acceptSpec(value: unknown, form: "json" | "multipart"): void {
    // Depth first: everything below (the validator, the recorded run, its listings) recurses.
    const deep = nestingProblem(value);
    if (deep) throw new ApiError(400, `Invalid run request: ${deep.field} ${deep.message}`, { [deep.field]: [deep.message] });
    const errors = validateRequestPart("runScript", "body", value);
    if (errors) throw new ApiError(400, `Invalid run request: ${describeFieldErrors(errors)}`, errors);
    const spec = value as RunRequest;
    if ((spec.script === undefined) === (spec.scripts === undefined)) {
      throw new ApiError(400, "Give exactly one of script (one run) or scripts (several steps)");
    }
    this.checkBrowser(spec);
    const refs = spec.script ? [spec.script] : spec.scripts!;
    if (form === "multipart") {
      for (const [index, ref] of refs.entries()) {
        for (const [input, binding] of Object.entries(ref.files ?? {})) {
          if ("b64" in binding) {
            throw new ApiError(
              400,
              `Inline (b64) files are not allowed in a multipart request: send file input ${input} as a part named ${index}:${input}`,
            );
          }
        }
      }
    }
    this.spec = spec;
    this.single = spec.script !== undefined;
    this.steps = refs.map((ref, index) => ({ index, ref, parts: new Map() }));
    for (const step of this.steps) {
      try {
        step.resolved = this.resolve(step.ref);
      } catch (error) {
        if (this.single || !(error instanceof ApiError)) throw error;
        step.problem = error;
      }
    }
    for (const part of this.early.splice(0)) this.addPart(part);
    // Runs start now: every step at once, or only the first of a sequential run (the others start
    // when the step before them succeeds, or never).
    const startNow = spec.sequential ? this.steps.slice(0, 1) : this.steps;
    for (const step of startNow) if (step.resolved) this.record(step);
  }

  /**
   * Refusals of the browser choice, before any run is recorded (the service refuses the request):
   * `region`/`country` on an own browser, an unknown country, `"extension"` with no or several
   * paired browsers (the message lists their ids).
   */
  private checkBrowser(spec: RunRequest): void {
    const own = isOwnBrowser(spec.browser);
    if (own && (spec.region !== undefined || spec.country !== undefined)) {
      const given = [spec.region !== undefined ? "region" : "", spec.country !== undefined ? "country" : ""].filter(Boolean);
      const variables = Object.fromEntries(given.map((field) => [field, ["is for the cloud browser only"]]));
      throw new RunFailure(
        400,
        `${given.join(" and ")} ${given.length > 1 ? "choose" : "chooses"} where a cloud browser runs, so ${given.length > 1 ? "they do" : "it does"} not apply to your own browser: remove ${given.length > 1 ? "them" : "it"}, or run on the cloud (browser: "cloud")`,
        "invalid_input",
        undefined,
        variables,
      );
    }
    if (spec.region !== undefined && !(REGIONS as readonly string[]).includes(spec.region)) {
      // The schema's enum refuses this first; kept so the rule holds whatever the description says.
      throw new RunFailure(400, `region must be one of ${REGIONS.join(", ")}`, "invalid_input", undefined, { region: [`must be one of ${REGIONS.join(", ")}`] });
    }
    if (spec.country !== undefined && !isCountryCode(spec.country.toUpperCase())) {
      throw new RunFailure(400, `country ${JSON.stringify(spec.country)} is not an ISO 3166-1 alpha-2 country code (such as DE, US or FR)`, "invalid_input", undefined, {
        country: ["is not an ISO 3166-1 alpha-2 country code"],
      });
    }
    if (spec.browser === "extension") this.pickExtension();
  }

  /** `"extension"`: the caller's one paired browser; none or several is a refusal naming them. */
  private pickExtension(): DeviceRecord {
    const mine = this.store.devicesOf(this.userId);
    if (mine.length === 0) {
      throw new RunFailure(
        400,
        'No paired browser on this account: "extension" runs in your one paired browser, and none is paired. Install the Reduck extension and pair it, or run on the cloud (browser: "cloud")',
        "browser_unavailable",
      );
    }
    if (mine.length > 1) {
      throw new RunFailure(
        400,
        `Several paired browsers match "extension" (${mine.map((d) => d.id).join(", ")}): "extension" picks one only when exactly one is paired; pick one with browser: { deviceId }`,
        "browser_unavailable",
      );
    }
    return mine[0];
  }

  /** A file part's header arrived: refuse a bad name before reading its bytes. */
  checkPart(part: { part: string; step: number; input: string }): void {
    if (this.partNames.has(part.part)) throw new ApiError(400, `Part ${part.part} was sent twice: send each file once`);
    this.partNames.add(part.part);
    if (this.spec) this.checkStep(part);
  }

  private checkStep(part: { part: string; step: number; input: string }): void {
    if (part.step >= this.steps.length) {
      throw new ApiError(
        400,
        this.single
          ? `Part ${part.part} names step ${part.step}, but a run of one script has only step 0: name it 0:${part.input}`
          : `Part ${part.part} names step ${part.step}, but the request has ${this.steps.length} steps (0 to ${this.steps.length - 1})`,
      );
    }
  }

  /** A file part arrived whole (before or after the spec: busboy may finish a part after reading the next). */
  addPart(part: ReceivedPart): void {
    if (!this.spec) {
      this.early.push(part);
      return;
    }
    this.checkStep(part);
    this.steps[part.step].parts.set(part.input, part);
  }

  /** The whole body has been read. */
  finishBody(): void {
    if (!this.spec) {
      throw new ApiError(400, "The spec part is missing: send the run request as JSON in a part named spec, before the file parts");
    }
  }

  /**
   * The request failed as a whole (413, a bad part, a broken upload) after some runs may have been
   * recorded: they fail with the same message. Returns the answer.
   */
  failRequest(error: unknown): RunReply {
    const refusal =
      error instanceof UploadInterrupted
        ? new ApiError(400, "upload interrupted")
        : error instanceof ApiError
          ? error
          : undefined;
    const recorded = this.steps.filter((s) => s.run);
    for (const step of recorded) {
      this.store.updateRun(step.run!.id, {
        status: "error",
        error: refusal?.message ?? `reference server failed: ${(error as Error)?.message ?? String(error)}`,
      });
    }
    if (!refusal) throw error;
    return withRunId(refusal, this.single ? recorded[0]?.run?.id : undefined);
  }

  // ---- steps --------------------------------------------------------------------------------

  private resolve(ref: ScriptReference): ResolvedScript {
    const user = this.store.users.get(this.userId)!;
    const handle = ref.handle ?? (user.username ? `@${user.username}` : undefined);
    const address = `${handle ?? "(you)"}/${ref.host}/${ref.slug}`;
    if (!handle) {
      throw new ApiError(404, `No such script ${address}: your account has no username yet, so name the owner with handle`);
    }
    const script = this.store.findScriptByAddress(handle, ref.host, ref.slug);
    if (!script || !this.store.canReadScript(this.userId, script)) {
      throw new ApiError(404, `No such script ${address}`);
    }
    if (script.archivedAt) throw new ApiError(404, `No such script ${address}: it is archived, so it can't run (restore it first)`);
    let version: VersionRecord | null;
    if (ref.version_id) {
      version = this.store.versions.get(ref.version_id) ?? null;
      // Drafts are work in progress: only those who may edit the script see (and run) them.
      if (!version || version.scriptId !== script.id || (version.draft && !this.store.canWriteScript(this.userId, script))) {
        throw new ApiError(400, `version_id ${ref.version_id} is not a version of ${address}`, {
          version_id: [`is not a version of ${address}`],
        });
      }
    } else {
      version = this.store.currentVersion(script);
      if (!version) {
        throw new ApiError(400, `${address} has no current version: promote a version, or run a draft with version_id`);
      }
    }
    return { script, version, address };
  }

  /** As the run is recorded: `"cloud"` (or `"managed"`, or none) is stored as managed, with its region and country. */
  private runDevice(): RunDevice {
    if (isOwnBrowser(this.spec!.browser)) return { type: "extension" };
    return { type: "managed", region: this.spec!.region ?? DEFAULT_REGION, country: this.spec!.country?.toUpperCase() ?? "" };
  }

  private record(step: Step): RunRecord {
    const { script, version } = step.resolved!;
    step.run = this.store.recordRun({
      userId: this.userId,
      scriptId: script.id,
      versionId: version.id,
      args: step.ref.args ?? {},
      browser: this.runDevice(),
      source: this.source,
      status: "running",
    });
    return step.run;
  }

  /** The paired browser an own-browser run uses (extension: the caller's only one; or the given deviceId). */
  private device(): DeviceRecord {
    if (this.devicePick) return this.devicePick;
    const browser = this.spec!.browser;
    const mine = this.store.devicesOf(this.userId);
    if (typeof browser === "object" && browser !== null) {
      const device = mine.find((d) => d.id === browser.deviceId);
      if (!device) {
        throw new RunFailure(400, `No paired browser ${browser.deviceId} on this account: list yours with GET /api/devices`, "browser_unavailable", undefined, {
          "browser.deviceId": ["is not one of your paired browsers"],
        });
      }
      return (this.devicePick = device);
    }
    return (this.devicePick = this.pickExtension());
  }

  /**
   * Runs the checks, then the script. Throws an ApiError for any failure; the run is recorded.
   * Named files it opens for the browser go in `opened`, for the caller to close.
   */
  private async perform(step: Step, run: RunRecord, session: BrowserSession, opened: FileHandle[]): Promise<unknown> {
    const { script, version, address } = step.resolved!;
    const schema = version.inputSchema;
    const browser = this.spec!.browser;

    // 1. Arguments, against the input schema without its file inputs.
    let checked;
    try {
      checked = checkArguments(schema, step.ref.args ?? {});
    } catch (error) {
      if (error instanceof ContractProblem) {
        throw new RunFailure(422, `${address}: ${error.message}`, "script_error", `${address} has an input schema that cannot be checked: the script needs fixing.`);
      }
      throw error;
    }
    if (!checked.ok) throw new ApiError(400, `Invalid arguments for ${address}: ${describeFieldErrors(checked.variables)}`, checked.variables);

    // 2. Every binding names a file input; every required file input is bound.
    const fileInputs = fileInputsOf(schema);
    const bindings = step.ref.files ?? {};
    for (const input of [...Object.keys(bindings), ...step.parts.keys()]) {
      if (!fileInputs.includes(input)) {
        throw new ApiError(400, `unknown file input ${input}`, {
          [`files.${input}`]: [
            fileInputs.length ? `is not a file input of ${address} (its file inputs: ${fileInputs.join(", ")})` : `is not a file input: ${address} takes no files`,
          ],
        });
      }
      if (step.parts.has(input) && input in bindings) {
        throw new ApiError(400, `file input ${input} is bound twice: by part ${step.index}:${input} and in files; give it once`);
      }
    }
    const required = new Set(requiredOf(schema));
    for (const input of fileInputs) {
      if (required.has(input) && !step.parts.has(input) && !(input in bindings)) {
        throw new ApiError(400, `missing file input ${input}`, { [`files.${input}`]: ["is required"] });
      }
    }

    // 3. Files named by path (read by the caller's own browser) and inline files; where the bytes of
    // each are, for a browser that puts them into a page.
    const received: ReceivedFile[] = [];
    const content: Record<string, RunFile> = {};
    run.files = received;
    for (const part of step.parts.values()) {
      received.push({ input: part.input, name: part.input, size: part.size, type: part.type, sha256: part.sha256, via: "bytes" });
      if (part.path) content[part.input] = { via: "bytes", path: part.path };
    }
    const named: Array<[string, string]> = [];
    for (const [input, binding] of Object.entries(bindings)) {
      if ("relativePath" in binding) {
        if (!isOwnBrowser(browser)) {
          throw new ApiError(
            400,
            `a managed browser can't read a file from your machine: send the bytes of ${input} instead (a multipart part named ${step.index}:${input}), or run in your own browser (browser: "extension")`,
          );
        }
        const problem = relativePathProblem(binding.relativePath);
        if (problem) {
          throw new ApiError(400, `file input ${input}: ${JSON.stringify(binding.relativePath)} ${problem}`, {
            [`files.${input}.relativePath`]: [problem],
          });
        }
        named.push([input, binding.relativePath]);
      } else {
        const file = inlineFile(input, binding.b64, binding.mime);
        if (!file) {
          throw new ApiError(400, `file input ${input}: b64 is not valid base64`, { [`files.${input}.b64`]: ["is not valid base64"] });
        }
        received.push({ input, ...file.descriptor, via: "inline" });
        content[input] = { via: "inline", bytes: file.bytes };
      }
    }
    if (named.length) {
      const device = this.device();
      if (device.fileAccess === false) {
        throw new RunFailure(
          422,
          `This paired browser can't read local files: turn on "Allow access to file URLs" for the Reduck extension (chrome://extensions → Reduck → Details). The extension restarts, and the browser may be missing from your devices for about a minute.`,
          "browser_unavailable",
        );
      }
      for (const [input, relativePath] of named) {
        const read = await readNamedFile(this.store.desktopDir, relativePath, { keepOpen: this.store.browser === "real" });
        if ("problem" in read) throw new ApiError(422, `bound 0 bytes — the browser could not read ${relativePath} (${read.problem})`);
        received.push({ input, ...read.file, via: "named" });
        if (read.handle) {
          opened.push(read.handle);
          content[input] = { via: "named", name: read.file.name, handle: read.handle };
        }
      }
    }

    // 4. The browser: a paired one of the caller's, or a managed one, signed in through a connector
    // when the script needs a session (its version says logged_in).
    if (isOwnBrowser(browser)) {
      this.device();
    } else if (version.loggedIn) {
      const host = normalizeHost(script.host);
      if (!this.store.connectorFor(this.userId, host)) {
        throw new RunFailure(
          422,
          `no connector for ${host}: a managed browser starts signed out, so it needs your ${host} session. Sign in to ${host} in your own browser and save a connector with the Reduck extension ("Manage connectors"), or run in your own browser (browser: "extension")`,
          "browser_unavailable",
        );
      }
    }

    // 5. The script itself.
    const files: Record<string, FileDescriptor> = {};
    for (const { input, name, size, type, sha256 } of received) files[input] = { name, size, type, sha256 };
    const deliver = deliveryFor(this.store, this.origin, isOwnBrowser(browser));
    return this.execute(version, checked.args, session.step({ files, content, deliver }), files, run, address);
  }

  private async execute(
    version: VersionRecord,
    args: Record<string, unknown>,
    browser: ReturnType<BrowserSession["step"]>,
    files: Record<string, FileDescriptor>,
    run: RunRecord,
    address: string,
  ): Promise<unknown> {
    const outcome = await runScriptBody({ content: version.content, args, files, host: browser.host, timeoutMs: this.store.runTimeoutMs });
    // The trace is finished after the answer has gone: the screenshot of the page as the script left
    // it, and the steps. Reading the trace waits for it.
    finishTrace(
      this.store,
      run.id,
      // A step that cannot end properly (its browser gone) still gets the outcome step.
      browser.end({ failed: !outcome.ok }).catch((): StepEnd => ({ steps: [], screenshots: [] })).then(async ({ steps, screenshots }) => {
        // The last step says how the body ended: `return`, or the stage it failed at (compile, throw, timeout...).
        steps.push(
          outcome.ok
            ? { index: steps.length, action: "return", ok: true, duration_ms: 0 }
            : { index: steps.length, action: outcome.stage, ok: false, duration_ms: 0, error: outcome.error },
        );
        const kept = await keepScreenshots(this.store, this.origin, run.id, screenshots).catch((error: unknown) => {
          console.error(`reference server: the screenshots of run ${run.id} could not be kept`, error);
          return [];
        });
        return { steps, screenshots: kept };
      }),
    );
    if (!outcome.ok) throw bodyFailure(outcome.stage, outcome.error, address, this.store.runTimeoutMs / 1000);
    return outcome.value;
  }

  private async runStep(step: Step, session: BrowserSession): Promise<Outcome> {
    if (step.problem) return { ok: false, error: step.problem, runId: null };
    const run = step.run ?? this.record(step);
    const opened: FileHandle[] = [];
    try {
      const result = await this.perform(step, run, session, opened);
      if (step.resolved!.script.noOutcome) {
        // As the service's runs on a signed-out browser end: finished, with nothing to show.
        this.store.updateRun(run.id, { status: "success" }).result = null;
        return { ok: true, result: undefined, runId: run.id, none: true };
      }
      // A run record holds an object result (openapi.json's RunResult); any other JSON is wrapped.
      this.store.updateRun(run.id, { status: "success", result: plainObject(result) ? result : { value: result } });
      return { ok: true, result, runId: run.id };
    } catch (error) {
      const refusal = error instanceof ApiError ? error : undefined;
      this.store.updateRun(run.id, {
        status: "error",
        error: refusal?.message ?? `reference server failed: ${(error as Error)?.message ?? String(error)}`,
      });
      if (!refusal) throw error;
      return { ok: false, error: refusal, runId: run.id };
    } finally {
      await Promise.all(opened.map((handle) => handle.close().catch(() => undefined)));
    }
  }

  /** Runs `work` in one session (one browser), closed once it is done. */
  private async inSession<T>(work: (session: BrowserSession) => Promise<T>): Promise<T> {
    const session = await openSession(this.store);
    try {
      return await work(session);
    } finally {
      // Closed in the background, without holding up the answer: close() waits for the last step's
      // screenshot, then closes the browser context.
      void session.close().catch(() => undefined);
    }
  }

  // ---- the answer ---------------------------------------------------------------------------

  /** A step's envelope as it stands: final once it has ended, else its handle and when to ask again. */
  private envelopeNow(step: Step): RunEnvelope {
    if (step.envelope) return step.envelope;
    const retryAfterMs = this.store.pollIntervalMs;
    return step.run ? { status: "running", runId: step.run.id, retryAfterMs } : { status: "queued", retryAfterMs };
  }

  /** Runs every step to its end, giving each its final envelope (and outcome) as it ends. */
  private async work(): Promise<void> {
    const finish = (step: Step, outcome: Outcome) => {
      step.outcome = outcome;
      step.envelope = envelopeOf(outcome);
    };
    if (!this.spec!.sequential) {
      // Each step in its own browser, all at once; a failure does not stop the others.
      await Promise.all(this.steps.map((step) => this.inSession(async (session) => finish(step, await this.runStep(step, session)))));
      return;
    }
    // One browser, in order: each step sees where the one before left the page. The chain stops at
    // the first failure; the steps after it are still reported, one envelope each.
    await this.inSession(async (session) => {
      let failed: Step | undefined;
      for (const step of this.steps) {
        if (failed) {
          step.envelope = notRun(step, failed);
          continue;
        }
        finish(step, await this.runStep(step, session));
        if (step.envelope!.status === "failed") failed = step;
      }
    });
  }

  /** The background work broke (a bug of the reference server's): what has not ended fails with it. */
  private failUnfinished(error: unknown): void {
    console.error("reference server: a run went wrong after its 202", error);
    const text = `reference server failed: ${(error as Error)?.message ?? String(error)}`;
    for (const step of this.steps) {
      if (step.envelope) continue;
      step.envelope = { status: "failed", error: text, errorType: "site_error", externalMessage: text };
      if (step.run) {
        step.envelope.runId = step.run.id;
        const status = this.store.runs.get(step.run.id)?.status;
        if (status && !isFinished(status)) this.store.updateRun(step.run.id, { status: "error", error: text });
      }
    }
  }

  /** The 200 once everything has ended: one `script`'s result (or its failure), or every envelope in order. */
  private finalReply(): RunReply {
    if (this.single) {
      const outcome = this.steps[0].outcome!;
      if (!outcome.ok) return withRunId(outcome.error, outcome.runId ?? undefined);
      return { status: 200, body: outcome.none ? { runId: outcome.runId } : { result: outcome.result, runId: outcome.runId } };
    }
    return { status: 200, body: this.steps.map((step) => step.envelope!) };
  }

  /**
   * Holds the request up to `waitForSeconds` (default 60). Ended by then: the 200 (or a single
   * run's failure). Not yet: a 202 while the runs go on — for `scripts` a batch to poll at
   * GET /batches/{batchId}; for one `script` its in-flight envelope `{ status, runId, retryAfterMs }`,
   * to wait on with GET /api/runs/{runId} (our inference: the service does not publish this case).
   * `done` settles when every run has ended.
   */
  async answer(): Promise<{ reply: RunReply; done: Promise<void> }> {
    const done = this.work();
    const waitMs = (this.spec!.waitForSeconds ?? DEFAULT_WAIT_SECONDS) * 1000;
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      done.then(() => true),
      new Promise<false>((resolve) => (timer = setTimeout(resolve, waitMs, false))),
    ]).finally(() => clearTimeout(timer));
    if (ended) return { reply: this.finalReply(), done };
    const settled = done.catch((error: unknown) => this.failUnfinished(error));
    if (this.single) return { reply: { status: 202, body: this.envelopeNow(this.steps[0]) }, done: settled };
    const batchId = randomUUID();
    const view = () => {
      const runs = this.steps.map((step) => this.envelopeNow(step));
      const status = batchStatus(runs);
      const pending = status === "queued" || status === "running";
      return { batchId, status, runs, ...(pending ? { retryAfterMs: this.store.pollIntervalMs } : {}) };
    };
    this.store.batches.set(batchId, { id: batchId, userId: this.userId, view });
    return { reply: { status: 202, body: view() }, done: settled };
  }
}

/** How long POST /run holds the request when `waitForSeconds` is not given (the service's default). */
export const DEFAULT_WAIT_SECONDS = 60;

/** The envelope of a step a sequential chain never ran, because `failed` (before it) failed. */
function notRun(step: Step, failed: Step): RunEnvelope {
  const address = (s: Step) => s.resolved?.address ?? `${s.ref.handle ?? "(you)"}/${s.ref.host}/${s.ref.slug}`;
  return {
    status: "failed",
    error: `not run: script ${failed.index} of this sequential chain failed, and a chain stops at its first failure`,
    errorType: "not_run",
    externalMessage: `${address(step)} did not run, because ${address(failed)} before it failed.`,
  };
}

async function handle(store: ReferenceStore, request: Request): Promise<RunReply> {
  const caller = (await authenticate(request, store, {
    scope: "run:write",
    anonymous: false,
    // The run host is the MCP host (mcp.reduck.ai): tokens issued for either resource may run.
    audiences: [API_AUDIENCE, MCP_AUDIENCE],
  }))!;
  const source = sourceOf(request);
  const contentType = request.headers.get("content-type") ?? "";
  const session = new RunSession(store, caller.userId, source, new URL(request.url).origin);
  // The real browser puts the parts' bytes into pages: they are kept here until the answer is ready.
  const parts = MULTIPART_TYPE.test(contentType) && store.browser === "real" ? await mkdtemp(path.join(scratchFolder(store), "parts-")) : undefined;
  let done: Promise<void> = Promise.resolve();
  try {
    try {
      if (JSON_TYPE.test(contentType)) {
        session.acceptSpec(await readJsonBody(request), "json");
      } else if (MULTIPART_TYPE.test(contentType)) {
        await readMultipartBody(
          request,
          contentType,
          {
            onSpec: (text) => session.acceptSpecText(text),
            onPartStart: (part) => session.checkPart(part),
            onPart: (part) => session.addPart(part),
          },
          { keepIn: parts },
        );
        session.finishBody();
      } else {
        throw new ApiError(
          400,
          `Unsupported content type ${JSON.stringify(contentType || "(none)")}: send application/json (the run request) or multipart/form-data (a spec part and file parts)`,
        );
      }
    } catch (error) {
      return session.failRequest(error);
    }
    const answered = await session.answer();
    done = answered.done;
    return answered.reply;
  } finally {
    // Removed after the answer, not before: a refusal (a 413 part) goes out the moment it is known;
    // after a 202, once the runs that read the parts have ended.
    if (parts) void done.then(() => rm(parts, { recursive: true, force: true })).catch(() => undefined);
  }
}

function json(status: number, body: unknown): Response {
  return new HttpResponse(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/**
 * Answers one POST /run request; never throws. The answer is checked against openapi.json's
 * runScript responses first: one outside it becomes a 500 (and a console.error), as for every
 * other operation.
 *
 * @example
 * const response = await answerRun(store, new Request("https://mcp.reduck.ai/run", {
 *   method: "POST",
 *   headers: { "x-api-key": store.demo.apiKey, "content-type": "application/json" },
 *   body: JSON.stringify({ browser: "extension", script: { handle: "reduck", host: "mail.google.com", slug: "send_email", args: { to: "me@example.com", subject: "Hi" } } }),
 * }));
 */
export async function answerRun(store: ReferenceStore, request: Request): Promise<Response> {
  // Logged here, where both doors (msw in-process, the HTTP adapter's direct route) arrive.
  logRequest(store, request);
  let reply: { status: number; body: unknown };
  try {
    reply = await handle(store, request);
  } catch (error) {
    if (!(error instanceof ApiError)) {
      console.error("reference server: runScript failed", error);
      return json(500, { error: `reference server failed in runScript: ${(error as Error)?.message ?? String(error)}` });
    }
    reply = withRunId(error, undefined);
  }
  const mismatch = validateResponse("runScript", reply.status, reply.body);
  if (mismatch) {
    const message = `reference server answered outside openapi.json: ${mismatch}`;
    console.error(message);
    return json(500, { error: message });
  }
  return withChallenge(request, json(reply.status, reply.body));
}

/** `/run` at any origin (or under a path prefix), never under `/api/`, where the catalogue lives. */
export function isRunPath(pathname: string): boolean {
  return pathname.endsWith("/run") && !pathname.startsWith("/api/");
}

/**
 * The msw handler for POST `*∕run` (any origin), also registered as a direct route so the HTTP
 * adapter hands it the streamed request without msw's clone.
 */
export function runHandler(store: ReferenceStore): RequestHandler {
  return withDirectRoute(
    http.post("*/run", ({ request }) => (isRunPath(new URL(request.url).pathname) ? answerRun(store, request) : undefined)),
    { method: "POST", matches: isRunPath, respond: (request) => answerRun(store, request) },
  );
}
