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
import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { http, HttpResponse, type RequestHandler } from "msw";
import { authenticate, withChallenge } from "../auth.js";
import { withDirectRoute } from "../direct-routes.js";
import { takeRequestShape } from "./shapes.js";
import { ApiError } from "../errors.js";
import { scratchFolder } from "../../store/scratch.js";
import { present } from "../../contract/present.js";
import { validateResponse } from "../../contract/openapi.js";
import { API_AUDIENCE, MCP_AUDIENCE } from "../../store/records.js";
import { isFinished, type SandboxStore } from "../../store/store.js";
import { readJsonBody, readMultipartBody } from "./body.js";
import { openSession, type BrowserSession } from "../../runtime/sessions.js";
import { batchStatus, type RunEnvelope } from "./batches.js";
import { logRequest } from "../request-log.js";
import { DEFAULT_WAIT_SECONDS, JSON_TYPE, MULTIPART_TYPE, envelopeOf, notRun, sourceOf, withRunId, type Outcome, type RunReply, type Step } from "./steps.js";
import { StepExecution } from "./step-execution.js";

export { DEFAULT_WAIT_SECONDS, MANAGED_BROWSER } from "./steps.js";

/** One POST /run request, from its spec to its answer (layers: request-session.ts, step-execution.ts). */
class RunSession extends StepExecution {
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

  /** The background work broke (a bug of the sandbox's): what has not ended fails with it. */
  private failUnfinished(error: unknown): void {
    console.error("sandbox: a run went wrong after its 202", error);
    const text = `sandbox failed: ${(error as Error)?.message ?? String(error)}`;
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

  /** The one step of a run of one `script` (its spec made exactly one). */
  private onlyStep(): Step {
    return present(this.steps[0], "the step of a run of one script");
  }

  /** The 200 once everything has ended: one `script`'s result (or its failure), or every envelope in order. */
  private finalReply(): RunReply {
    if (this.single) {
      const outcome = this.onlyStep().outcome!;
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
    const ended = await Promise.race([done.then(() => true), new Promise<false>((resolve) => (timer = setTimeout(resolve, waitMs, false)))]).finally(() =>
      clearTimeout(timer),
    );
    if (ended) return { reply: this.finalReply(), done };
    const settled = done.catch((error: unknown) => this.failUnfinished(error));
    if (this.single) return { reply: { status: 202, body: this.envelopeNow(this.onlyStep()) }, done: settled };
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

async function handle(store: SandboxStore, request: Request): Promise<RunReply> {
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
export async function answerRun(store: SandboxStore, request: Request): Promise<Response> {
  // Logged here, where both doors (msw in-process, the HTTP adapter's direct route) arrive.
  logRequest(store, request);
  // A test asked for this request to be refused or cut (startSandbox's next()).
  const shape = takeRequestShape(store);
  if (shape && "reset" in shape) return Response.error();
  if (shape && "rateLimited" in shape) {
    const seconds = shape.rateLimited.retryAfterSeconds;
    return new Response(JSON.stringify({ error: `Too many requests: try again in ${seconds} s` }), {
      status: 429,
      headers: { "content-type": "application/json", "retry-after": String(seconds) },
    });
  }
  let reply: { status: number; body: unknown };
  try {
    reply = await handle(store, request);
  } catch (error) {
    if (!(error instanceof ApiError)) {
      console.error("sandbox: runScript failed", error);
      return json(500, { error: `sandbox failed in runScript: ${(error as Error)?.message ?? String(error)}` });
    }
    reply = withRunId(error, undefined);
  }
  const mismatch = validateResponse("runScript", reply.status, reply.body);
  if (mismatch) {
    const message = `sandbox answered outside openapi.json: ${mismatch}`;
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
export function runHandler(store: SandboxStore): RequestHandler {
  return withDirectRoute(
    http.post("*/run", ({ request }) => (isRunPath(new URL(request.url).pathname) ? answerRun(store, request) : undefined)),
    { method: "POST", matches: isRunPath, respond: (request) => answerRun(store, request) },
  );
}
