// The first layer of a POST /run session (see handler.ts): reading the request, its spec and file
// parts within the limits, checking the browser and the parts, resolving each step's script, and
// recording its run.
import { ApiError } from "../errors.js";
import { nestingProblem } from "../../contract/nesting.js";
import { validateRequestPart } from "../../contract/openapi.js";
import { type DeviceRecord, type RunBrowser as RunDevice, type RunRecord, type RunSource, type VersionRecord } from "../../store/records.js";
import { type SandboxStore } from "../../store/store.js";
import { UploadInterrupted, type ReceivedPart } from "./body.js";
import { describeFieldErrors } from "./contract.js";
import { RunFailure } from "./failures.js";
import {
  DEFAULT_REGION,
  isCountryCode,
  isOwnBrowser,
  REGIONS,
  withRunId,
  type ResolvedScript,
  type RunReply,
  type RunRequest,
  type ScriptReference,
  type Step,
} from "./steps.js";

/** One POST /run request, from its spec to its answer: the request (the layers above run and answer it). */
export abstract class RunRequestSession {
  protected spec?: RunRequest;
  protected steps: Step[] = [];
  protected single = true;
  protected readonly partNames = new Set<string>();
  /** File parts that arrived before the spec part. */
  protected readonly early: ReceivedPart[] = [];
  protected devicePick?: DeviceRecord;

  constructor(
    protected readonly store: SandboxStore,
    protected readonly userId: string,
    protected readonly source: RunSource,
    /** Where this request came in, for the URLs of managed browsers' downloads. */
    protected readonly origin: string,
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
            throw new ApiError(400, `Inline (b64) files are not allowed in a multipart request: send file input ${input} as a part named ${index}:${input}`);
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
  protected checkBrowser(spec: RunRequest): void {
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
      throw new RunFailure(400, `region must be one of ${REGIONS.join(", ")}`, "invalid_input", undefined, {
        region: [`must be one of ${REGIONS.join(", ")}`],
      });
    }
    if (spec.country !== undefined && !isCountryCode(spec.country.toUpperCase())) {
      throw new RunFailure(
        400,
        `country ${JSON.stringify(spec.country)} is not an ISO 3166-1 alpha-2 country code (such as DE, US or FR)`,
        "invalid_input",
        undefined,
        {
          country: ["is not an ISO 3166-1 alpha-2 country code"],
        },
      );
    }
    if (spec.browser === "extension") this.pickExtension();
  }

  /** `"extension"`: the caller's one paired browser; none or several is a refusal naming them. */
  protected pickExtension(): DeviceRecord {
    const mine = this.store.devicesOf(this.userId);
    if (mine.length === 0) {
      throw new RunFailure(
        400,
        'No paired browser on this account: "extension" runs in your one paired browser, and none is paired. Install the Reduck extension and pair it, or run on the cloud (browser: "cloud")',
        "browser_unavailable",
      );
    }
    const [only] = mine;
    if (only === undefined || mine.length > 1) {
      throw new RunFailure(
        400,
        `Several paired browsers match "extension" (${mine.map((d) => d.id).join(", ")}): "extension" picks one only when exactly one is paired; pick one with browser: { deviceId }`,
        "browser_unavailable",
      );
    }
    return only;
  }

  /** A file part's header arrived: refuse a bad name before reading its bytes. */
  checkPart(part: { part: string; step: number; input: string }): void {
    if (this.partNames.has(part.part)) throw new ApiError(400, `Part ${part.part} was sent twice: send each file once`);
    this.partNames.add(part.part);
    if (this.spec) this.checkStep(part);
  }

  protected checkStep(part: { part: string; step: number; input: string }): Step {
    const step = this.steps[part.step];
    if (step === undefined) {
      throw new ApiError(
        400,
        this.single
          ? `Part ${part.part} names step ${part.step}, but a run of one script has only step 0: name it 0:${part.input}`
          : `Part ${part.part} names step ${part.step}, but the request has ${this.steps.length} steps (0 to ${this.steps.length - 1})`,
      );
    }
    return step;
  }

  /** A file part arrived whole (before or after the spec: busboy may finish a part after reading the next). */
  addPart(part: ReceivedPart): void {
    if (!this.spec) {
      this.early.push(part);
      return;
    }
    this.checkStep(part).parts.set(part.input, part);
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
    const refusal = error instanceof UploadInterrupted ? new ApiError(400, "upload interrupted") : error instanceof ApiError ? error : undefined;
    const recorded = this.steps.filter((s) => s.run);
    for (const step of recorded) {
      this.store.updateRun(step.run!.id, {
        status: "error",
        error: refusal?.message ?? `sandbox failed: ${(error as Error)?.message ?? String(error)}`,
      });
    }
    if (!refusal) throw error;
    return withRunId(refusal, this.single ? recorded[0]?.run?.id : undefined);
  }

  // ---- steps --------------------------------------------------------------------------------

  protected resolve(ref: ScriptReference): ResolvedScript {
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
  protected runDevice(): RunDevice {
    if (isOwnBrowser(this.spec!.browser)) return { type: "extension" };
    return { type: "managed", region: this.spec!.region ?? DEFAULT_REGION, country: this.spec!.country?.toUpperCase() ?? "" };
  }

  protected record(step: Step): RunRecord {
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
  protected device(): DeviceRecord {
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
}
