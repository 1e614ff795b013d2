// Runs one script body away from the server's own powers: in a worker thread of its own (see
// script-worker.mjs), inside a `vm` context that holds only page, args, files, builtins and plain
// JavaScript. The page stays here, in the server's thread: the body's calls arrive as JSON, are
// answered by the host (the simulated page, or a real browser page through ../browser/bridge.ts),
// and the trace is recorded here. A run that outlives its time limit, or whose worker dies, fails
// that run only: the worker is terminated, whatever it was doing (an endless loop included).
//
// One worker per run, never reused, so nothing a body leaves running can touch the next run. To
// keep its start-up off the run's path, the next run's worker starts as soon as a run ends.
//
// A call is `{ on, method, args, chain? }` in JSON, answered `{ ok, value | error }`. `on` names the
// object (page, builtins, keyboard, mouse, locator); a locator call carries the chain of calls that
// built the locator (`page.locator(sel).filter({ hasText }).first()`), replayed here before the
// action; functions (`page.evaluate(fn, arg)`), regular expressions and locators inside the
// arguments arrive as one-key marker objects (see script-worker.mjs), for the host to interpret.
import { MessageChannel, Worker, type MessagePort } from "node:worker_threads";
import { formatBytes } from "../../../src/run/limits.js";
import { MAX_NESTING, nestingProblem } from "../nesting.js";

const WORKER_FILE = new URL("./script-worker.mjs", import.meta.url);

/** Heap of one run's worker: a body that allocates without end fails its run, not the server. */
export const SCRIPT_MEMORY_MB = 128;
/**
 * Calls to page and builtins in one run, and the JSON size of one call or of the result: each call
 * is a trace step kept here, so a body calling in a loop must not fill the server's memory.
 */
export const MAX_PAGE_CALLS = 10_000;
export const MAX_MESSAGE_BYTES = 1024 * 1024;

/** How a body calls a method: answered at once (as Playwright's `page.url()`), or with a promise. */
export type CallKind = "sync" | "async";

/** What a body sees of the host: per object, its methods. Only `page` and `builtins` are required. */
export interface Surface {
  page: Record<string, CallKind>;
  builtins: Record<string, CallKind>;
  keyboard?: Record<string, CallKind>;
  mouse?: Record<string, CallKind>;
  /** The actions of a locator (all async); with it, `builders` says how locators are made. */
  locator?: Record<string, CallKind>;
  /** Methods that make a locator without asking the host (as Playwright's do): on page, on a locator. */
  builders?: { page: string[]; locator: string[] };
}

/** One call of the body, parsed: `on` and `method` are on the host's surface; `args` are JSON. */
export interface HostCall {
  on: string;
  method: string;
  args: unknown[];
  /** For `locator`: the builder calls that made it, `[[method, ...args], ...]`, from the page on. */
  chain?: unknown;
}

/**
 * What a body's `page` and `builtins` are backed by, here in the server's thread: the surface the
 * body is shown, and `call`, which answers one call (a JSON value, or throws an Error whose name
 * and message the body gets).
 */
export interface ScriptHost {
  surface: Surface;
  call(call: HostCall): unknown;
}

/**
 * A host over plain objects whose own function properties are the methods (the simulated page):
 * `syncPageMethods` answer at once, every other method returns a promise.
 *
 * @example
 * const host = objectHost(page, builtins, new Set(["url"]));
 */
export function objectHost(page: object, builtins: object, syncPageMethods: ReadonlySet<string>): ScriptHost {
  const methods = (object: object, sync: ReadonlySet<string>): Record<string, CallKind> =>
    Object.fromEntries(
      Object.entries(object)
        .filter(([, value]) => typeof value === "function")
        .map(([name]) => [name, sync.has(name) ? "sync" : "async"]),
    );
  return {
    surface: { page: methods(page, syncPageMethods), builtins: methods(builtins, new Set()) },
    call({ on, method, args }) {
      const target = (on === "page" ? page : builtins) as Record<string, (...args: unknown[]) => unknown>;
      return target[method].apply(target, args);
    },
  };
}

export type BodyStage = "compile" | "throw" | "return" | "timeout" | "limit" | "crash";

/** How a body ended: its JSON result, or the stage it failed at and the run's error text. */
export type BodyOutcome = { ok: true; value: unknown } | { ok: false; stage: BodyStage; error: string };

export interface BodyRun {
  /** The script's source: the body of an async function of page, args, files and builtins. */
  content: string;
  args: unknown;
  files: unknown;
  host: ScriptHost;
  timeoutMs: number;
}

interface Slot {
  worker: Worker;
  /** Set to 1 (and notified) when the answer to a sync call is on `replies`. */
  flag: Int32Array;
  replies: MessagePort;
  exited: boolean;
  failure?: Error;
}

let spare: Slot | undefined;

function spawn(): Slot {
  const shared = new SharedArrayBuffer(4);
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(WORKER_FILE, {
    workerData: { flag: shared, replies: port2 },
    transferList: [port2],
    // No loader (tsx, vitest) in the worker: it runs plain JavaScript, and the body's realm has no
    // use for the server's environment either.
    execArgv: [],
    env: {},
    resourceLimits: { maxOldGenerationSizeMb: SCRIPT_MEMORY_MB, maxYoungGenerationSizeMb: 16 },
  });
  const slot: Slot = { worker, flag: new Int32Array(shared), replies: port1, exited: false };
  worker.once("error", (error) => (slot.failure = error));
  worker.once("exit", () => (slot.exited = true));
  // A waiting worker must not keep a process (a test run, a CLI) alive.
  worker.unref();
  return slot;
}

/** The waiting worker, or a new one when none waits (runs at the same time each start their own). */
function take(): Slot {
  const slot = spare && !spare.exited ? spare : spawn();
  spare = undefined;
  return slot;
}

/**
 * Starts a worker for the next run, unless one waits already. Called after each run (once it has
 * ended, so the start-up does not compete with it), and by the sandbox once it listens.
 */
export function warmScriptRunner(): void {
  if (!spare || spare.exited) spare = spawn();
}

function hostError(error: unknown): { name: string; message: string } {
  return error instanceof Error ? { name: error.name || "Error", message: error.message } : { name: "Error", message: String(error) };
}

function refusal(name: string, message: string): string {
  return JSON.stringify({ ok: false, error: { name, message } });
}

/** Answers one call of the body (a JSON request) with a JSON reply. Never throws. */
async function answerCall(host: ScriptHost, text: string): Promise<string> {
  let call: { on?: unknown; method?: unknown; args?: unknown; chain?: unknown };
  try {
    call = JSON.parse(text);
  } catch {
    return refusal("Error", "the call could not be read");
  }
  const { on, method, args, chain } = call;
  const name = `${String(on)}.${String(method)}`;
  const methods = typeof on === "string" && Object.hasOwn(host.surface, on) ? (host.surface as unknown as Record<string, Record<string, CallKind>>)[on] : undefined;
  if (!methods || typeof method !== "string" || !Object.hasOwn(methods, method) || !Array.isArray(args)) {
    return refusal("TypeError", `${name} is not a function`);
  }
  if (text.length > MAX_MESSAGE_BYTES) return refusal("RangeError", `${name}: its arguments are over ${formatBytes(MAX_MESSAGE_BYTES)} as JSON`);
  if (nestingProblem(args) || nestingProblem(chain)) return refusal("RangeError", `${name}: its arguments nest deeper than ${MAX_NESTING} levels`);
  let reply: string;
  try {
    const value: unknown = await host.call({ on: on as string, method, args, chain });
    reply = JSON.stringify(value === undefined ? { ok: true } : { ok: true, value });
  } catch (error) {
    return JSON.stringify({ ok: false, error: hostError(error) });
  }
  // What the page hands back (page.evaluate's result, say) is bounded like what the body sends.
  if (reply.length > MAX_MESSAGE_BYTES) return refusal("RangeError", `${name}: its result is over ${formatBytes(MAX_MESSAGE_BYTES)} as JSON`);
  if (nestingProblem(JSON.parse(reply))) return refusal("RangeError", `${name}: its result nests deeper than ${MAX_NESTING} levels`);
  return reply;
}

function resultOf(text: string): BodyOutcome {
  if (text.length > MAX_MESSAGE_BYTES) {
    return { ok: false, stage: "return", error: `Error: the script's result is over ${formatBytes(MAX_MESSAGE_BYTES)} as JSON` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, stage: "return", error: "Error: the script's result is not JSON" };
  }
  if (nestingProblem(value)) {
    return { ok: false, stage: "return", error: `Error: the script's result nests deeper than ${MAX_NESTING} levels (objects and arrays inside each other)` };
  }
  return { ok: true, value };
}

function crashText(error: Error | undefined, code: number): string {
  if ((error as NodeJS.ErrnoException | undefined)?.code === "ERR_WORKER_OUT_OF_MEMORY") {
    return `script ran out of memory (it may use ${SCRIPT_MEMORY_MB} MB)`;
  }
  return `script stopped unexpectedly: ${error?.message ?? `its worker exited with code ${code}`}`;
}

/**
 * Runs a script body to its end, its failure or its time limit. Never throws.
 *
 * @example
 * const outcome = await runScriptBody({ content: "return { title: await page.title() };", args: {}, files: {},
 *   host: objectHost(page, builtins, new Set(["url"])), timeoutMs: 1000 });
 * // { ok: true, value: { title: "..." } }  or  { ok: false, stage: "timeout", error: "script timed out after 1 s" }
 */
export function runScriptBody(run: BodyRun): Promise<BodyOutcome> {
  const slot = take();
  const { worker } = slot;
  worker.ref();
  return new Promise<BodyOutcome>((resolve) => {
    let settled = false;
    let calls = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = (outcome: BodyOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.removeAllListeners("message");
      void worker.terminate();
      slot.replies.close();
      setImmediate(warmScriptRunner);
      resolve(outcome);
    };
    // The clock runs from the moment the body starts (the worker's start-up, slow on a busy machine,
    // is not the script's time), and bounds the start-up too.
    const startClock = () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish({ ok: false, stage: "timeout", error: `script timed out after ${run.timeoutMs / 1000} s` }), run.timeoutMs);
    };
    startClock();
    const crashed = (code: number) => finish({ ok: false, stage: "crash", error: crashText(slot.failure, code) });
    if (slot.exited) return crashed(1);
    worker.once("error", (error) => (slot.failure = error));
    worker.once("exit", crashed);
    worker.on("message", (message: { type: string; id: number; sync?: boolean; text: string }) => {
      if (message.type === "started") return startClock();
      if (message.type === "done") {
        let outcome: BodyOutcome;
        try {
          const done = JSON.parse(message.text) as { ok: true; result: string } | { ok: false; stage: BodyStage; error: string };
          outcome = done.ok ? resultOf(done.result) : done;
        } catch {
          outcome = { ok: false, stage: "crash", error: "script stopped unexpectedly: its outcome could not be read" };
        }
        return finish(outcome);
      }
      if (++calls > MAX_PAGE_CALLS) {
        return finish({ ok: false, stage: "limit", error: `script made more than ${MAX_PAGE_CALLS.toLocaleString("en-US")} calls to page and builtins` });
      }
      void answerCall(run.host, message.text).then((reply) => {
        if (settled) return;
        if (!message.sync) return worker.postMessage({ type: "reply", id: message.id, text: reply });
        slot.replies.postMessage(reply);
        Atomics.store(slot.flag, 0, 1);
        Atomics.notify(slot.flag, 0);
      });
    });
    worker.postMessage({
      content: run.content,
      runText: JSON.stringify({ args: run.args, files: run.files, surface: run.host.surface }),
    });
  });
}
