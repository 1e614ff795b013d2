// The second layer of a POST /run session (see handler.ts): one step run to its end, from the
// checks of its arguments, files and browser to the script's result, recorded on its run.
import { type FileHandle } from "node:fs/promises";
import { relativePathProblem } from "../../contract/service-rules.js";
import { ApiError } from "../errors.js";
import { normalizeHost } from "../../contract/hostnames.js";
import { type FileDescriptor, type ReceivedFile, type RunRecord, type VersionRecord } from "../../store/records.js";
import { type ArgumentCheck, ContractProblem, checkArguments, describeFieldErrors, fileInputsOf, requiredOf } from "./contract.js";
import type { RunFile } from "../../runtime/browser/index.js";
import { deliveryFor } from "../../runtime/downloads.js";
import { inlineFile, readNamedFile } from "./files.js";
import { keepScreenshots } from "../../runtime/screenshots.js";
import { finishTrace } from "../../runtime/traces.js";
import { runScriptBody } from "../../runtime/script-runner.js";
import { type BrowserSession, type StepEnd } from "../../runtime/sessions.js";
import { RunFailure, bodyFailure } from "./failures.js";
import { isOwnBrowser, plainObject, type Outcome, type Step } from "./steps.js";
import { RunRequestSession } from "./request-session.js";
import { takeRunShape } from "./shapes.js";
import { runnableBody } from "../../runtime/typescript-body.js";

/** What execute() returns for a run a test asked to end with neither result nor error. */
const NO_OUTCOME = Symbol("no outcome");

export abstract class StepExecution extends RunRequestSession {
  /**
   * Runs the checks, then the script. Throws an ApiError for any failure; the run is recorded.
   * Named files it opens for the browser go in `opened`, for the caller to close.
   */
  protected async perform(step: Step, run: RunRecord, session: BrowserSession, opened: FileHandle[]): Promise<unknown> {
    const { script, version, address } = step.resolved!;
    const schema = version.inputSchema;
    const browser = this.spec!.browser;

    // 1. Arguments, against the input schema without its file inputs.
    let checked: ArgumentCheck;
    try {
      checked = checkArguments(schema, step.ref.args ?? {});
    } catch (error) {
      if (error instanceof ContractProblem) {
        throw new RunFailure(
          422,
          `${address}: ${error.message}`,
          "script_error",
          `${address} has an input schema that cannot be checked: the script needs fixing.`,
        );
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
            fileInputs.length
              ? `is not a file input of ${address} (its file inputs: ${fileInputs.join(", ")})`
              : `is not a file input: ${address} takes no files`,
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

  protected async execute(
    version: VersionRecord,
    args: Record<string, unknown>,
    browser: ReturnType<BrowserSession["step"]>,
    files: Record<string, FileDescriptor>,
    run: RunRecord,
    address: string,
  ): Promise<unknown> {
    // A test asked for this run to be held, to fail or to end with nothing (startSandbox's next()).
    const shape = takeRunShape(this.store);
    if (shape && "held" in shape) await new Promise((resolve) => setTimeout(resolve, shape.held * 1000));
    if (shape && "failed" in shape) {
      const { errorType, externalMessage, error } = shape.failed;
      throw new RunFailure(422, error ?? externalMessage, errorType, externalMessage);
    }
    if (shape && "noOutcome" in shape) return NO_OUTCOME;
    const outcome = await runScriptBody({
      content: runnableBody(version.content, version.language),
      args,
      files,
      host: browser.host,
      timeoutMs: this.store.runTimeoutMs,
      caller: this.userId,
    });
    // The trace is finished after the answer has gone: the screenshot of the page as the script left
    // it, and the steps. Reading the trace waits for it.
    finishTrace(
      this.store,
      run.id,
      // A step that cannot end properly (its browser gone) still gets the outcome step.
      browser
        .end({ failed: !outcome.ok })
        .catch((): StepEnd => ({ steps: [], screenshots: [] }))
        .then(async ({ steps, screenshots }) => {
          // The last step says how the body ended: `return`, or the stage it failed at (compile, throw, timeout...).
          steps.push(
            outcome.ok
              ? { index: steps.length, action: "return", ok: true, duration_ms: 0 }
              : { index: steps.length, action: outcome.stage, ok: false, duration_ms: 0, error: outcome.error },
          );
          const kept = await keepScreenshots(this.store, this.origin, run.id, screenshots).catch((error: unknown) => {
            console.error(`sandbox: the screenshots of run ${run.id} could not be kept`, error);
            return [];
          });
          return { steps, screenshots: kept };
        }),
    );
    if (!outcome.ok) throw bodyFailure(outcome.stage, outcome.error, address, this.store.runTimeoutMs / 1000);
    return outcome.value;
  }

  protected async runStep(step: Step, session: BrowserSession): Promise<Outcome> {
    if (step.problem) return { ok: false, error: step.problem, runId: null };
    const run = step.run ?? this.record(step);
    const opened: FileHandle[] = [];
    try {
      const result = await this.perform(step, run, session, opened);
      if (step.resolved!.script.noOutcome || result === NO_OUTCOME) {
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
        error: refusal?.message ?? `sandbox failed: ${(error as Error)?.message ?? String(error)}`,
      });
      if (!refusal) throw error;
      return { ok: false, error: refusal, runId: run.id };
    } finally {
      await Promise.all(opened.map((handle) => handle.close().catch(() => undefined)));
    }
  }
}
