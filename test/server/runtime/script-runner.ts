// Runs one script body away from the server's own powers: in a process of its own (see
// script-processes.ts and isolation/script-process.ts), in a worker thread there, inside a `vm` context that
// holds only page, args, files, builtins and plain JavaScript. The page stays here, in the server's
// thread: the body's calls arrive as JSON, are answered by the host (the simulated page, or a real
// browser page through ../browser/bridge.ts), and the trace is recorded here. A run that outlives
// its time limit, goes past its memory, or whose process dies, fails that run only: the process is
// killed, whatever it was doing (an endless loop, a fatal V8 error included).
//
// One realm per run, never reused, and nothing a body leaves running reaches the next run (its
// timers are cancelled, and its worker is replaced unless none of its code can run again); its
// process and worker are reused only for the next run of the same body by the same caller (see
// script-processes.ts and isolation/script-worker.ts). To keep start-up off the run's path,
// processes start ahead of time.
//
// A call is `{ on, method, args, chain? }` in JSON, answered `{ ok, value | error }`. `on` names the
// object (page, builtins, keyboard, mouse, locator); a locator call carries the chain of calls that
// built the locator (`page.locator(sel).filter({ hasText }).first()`), replayed here before the
// action; functions (`page.evaluate(fn, arg)`), regular expressions and locators inside the
// arguments arrive as one-key marker objects (see isolation/inside/markers.ts), for the host to interpret.
import { formatBytes } from "../contract/service-rules.js";
import { MAX_NESTING, nestingProblem } from "../contract/nesting.js";
import { releaseScriptProcess, scriptKey, takeScriptProcess, warmScriptProcess, type ScriptProcess } from "./script-processes.js";

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
 * The simulated page of the run's own process (isolation/pages.ts), for a host to drive: `send`
 * hands it one operation (JSON text; `code` to compile in its realm; `fresh` for a new document)
 * and resolves with its answer's text. It rejects once the run has ended.
 */
export interface PageChannel {
  send(text: string, options?: { code?: string; fresh?: boolean }): Promise<string>;
}

/**
 * What a body's `page` and `builtins` are backed by, here in the server's thread: the surface the
 * body is shown, and `call`, which answers one call (a JSON value, or throws an Error whose name
 * and message the body gets); a host that runs the page in the run's process drives it through `page`.
 */
export interface ScriptHost {
  surface: Surface;
  call(call: HostCall, page: PageChannel): unknown;
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
      const target = (on === "page" ? page : builtins) as Record<string, unknown>;
      const fn = target[method];
      // The surface lists only functions, so a body cannot ask for anything else; say so if one does.
      if (typeof fn !== "function") throw new TypeError(`${on}.${method} is not a function`);
      return fn.apply(target, args);
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
  /** The run's time limit, from the moment its body starts: wall-clock time, and CPU time of its process. */
  timeoutMs: number;
  /** Who runs it (an account): places are shared fairly between callers (script-processes.ts). */
  caller?: string;
}

/** How long a run's process may take to be ready and start the body (its time limit starts then). */
export const START_LIMIT_MS = 60_000;

/**
 * How long after the sandbox listens the processes for its first runs start: started at once, they
 * compete for the CPU with its first requests (measured on a loaded 2-core machine: about 100 ms
 * more before the first answer). A run that comes sooner starts a process of its own.
 */
const WARM_AFTER_MS = 300;

/**
 * Starts the processes the first runs take, WARM_AFTER_MS from now. Called by the sandbox (its
 * command and startSandbox) once it listens; after each run they are topped up at once
 * (script-processes.ts).
 */
export function warmScriptRunner(): void {
  setTimeout(() => warmScriptProcess(MAX_MESSAGE_BYTES), WARM_AFTER_MS).unref();
}

function hostError(error: unknown): { name: string; message: string } {
  return error instanceof Error ? { name: error.name || "Error", message: error.message } : { name: "Error", message: String(error) };
}

function refusal(name: string, message: string): string {
  return JSON.stringify({ ok: false, error: { name, message } });
}

/** Answers one call of the body (a JSON request) with a JSON reply. Never throws. */
async function answerCall(host: ScriptHost, text: string, page: PageChannel): Promise<string> {
  let call: { on?: unknown; method?: unknown; args?: unknown; chain?: unknown };
  try {
    call = JSON.parse(text);
  } catch {
    return refusal("Error", "the call could not be read");
  }
  const { on, method, args, chain } = call;
  const name = `${String(on)}.${String(method)}`;
  const methods =
    typeof on === "string" && Object.hasOwn(host.surface, on) ? (host.surface as unknown as Record<string, Record<string, CallKind>>)[on] : undefined;
  if (!methods || typeof method !== "string" || !Object.hasOwn(methods, method) || !Array.isArray(args)) {
    return refusal("TypeError", `${name} is not a function`);
  }
  if (text.length > MAX_MESSAGE_BYTES) return refusal("RangeError", `${name}: its arguments are over ${formatBytes(MAX_MESSAGE_BYTES)} as JSON`);
  if (nestingProblem(args) || nestingProblem(chain)) return refusal("RangeError", `${name}: its arguments nest deeper than ${MAX_NESTING} levels`);
  let reply: string;
  try {
    const value: unknown = await host.call({ on: on as string, method, args, chain }, page);
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

/**
 * Runs a script body to its end, its failure or its time limit. Never throws.
 *
 * @example
 * const outcome = await runScriptBody({ content: "return { title: await page.title() };", args: {}, files: {},
 *   host: objectHost(page, builtins, new Set(["url"])), timeoutMs: 1000 });
 * // { ok: true, value: { title: "..." } }  or  { ok: false, stage: "timeout", error: "script timed out after 1 s" }
 */
export async function runScriptBody(run: BodyRun): Promise<BodyOutcome> {
  const caller = run.caller ?? "";
  let settled = false;
  let timer: NodeJS.Timeout | undefined;
  let slot: ScriptProcess | undefined;
  /** The process's CPU time (microseconds) when the body started; undefined before. */
  let cpuAtStart: number | undefined;
  let resolveOutcome: (outcome: BodyOutcome) => void = () => {};
  const outcome = new Promise<BodyOutcome>((resolve) => (resolveOutcome = resolve));
  const script = scriptKey(run.content);
  /** The page's operations awaiting an answer, by id. */
  const pageOps = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  let nextPageOp = 1;
  const finish = (ended: BodyOutcome) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    for (const op of pageOps.values()) op.reject(new Error("the run has ended"));
    pageOps.clear();
    // A run that ended by itself leaves its process fit for the next run of the same body by the same caller.
    const byItself = ended.ok || ended.stage === "compile" || ended.stage === "throw" || ended.stage === "return";
    if (slot) releaseScriptProcess(slot, MAX_MESSAGE_BYTES, caller, byItself ? script : undefined);
    resolveOutcome(ended);
  };
  const timedOut = () => finish({ ok: false, stage: "timeout", error: `script timed out after ${run.timeoutMs / 1000} s` });
  // Waiting for a place is not the script's time (a caller's runs wait behind its own, or behind
  // others'): no clock runs then. Its process's start-up has a bound of its own; the run's time
  // limit starts with the body.
  const taken = await takeScriptProcess(MAX_MESSAGE_BYTES, caller, script);
  slot = taken;
  taken.ref();
  timer = setTimeout(
    () => finish({ ok: false, stage: "crash", error: `script stopped unexpectedly: its process did not start within ${START_LIMIT_MS / 1000} s` }),
    START_LIMIT_MS,
  );
  if (!(await taken.ready)) {
    finish({ ok: false, stage: "crash", error: taken.ending?.text ?? "script stopped unexpectedly: its process did not start" });
    return outcome;
  }
  if (settled) return outcome;
  let calls = 0;
  const page: PageChannel = {
    send(text, options = {}) {
      if (settled) return Promise.reject(new Error("the run has ended"));
      const id = nextPageOp++;
      return new Promise<string>((resolve, reject) => {
        pageOps.set(id, { resolve, reject });
        taken.send({ type: "page", id, text, ...options });
      });
    },
  };
  taken.onEnd((ending) => finish({ ok: false, stage: ending.kind === "memory" ? "limit" : "crash", error: ending.text }));
  taken.onMessage((message) => {
    const { type, id, sync, text } = message as { type: string; id: number; sync?: boolean; text: string; code?: string };
    if (type === "started") {
      cpuAtStart = Number(message.cpu) || 0;
      clearTimeout(timer);
      timer = setTimeout(timedOut, run.timeoutMs);
      return;
    }
    // A body that computes without end uses its time limit in CPU time (the wall clock alone
    // would let six spinning bodies hold the machine for all of it, and a loaded machine shorten it).
    if (type === "cpu") {
      if (cpuAtStart !== undefined && Number(message.cpu) - cpuAtStart >= run.timeoutMs * 1000) timedOut();
      return;
    }
    if (type === "error") {
      // The worker's heap ran out: its process lives on, but the run is over.
      const memory = message.code === "ERR_WORKER_OUT_OF_MEMORY";
      return finish({
        ok: false,
        stage: memory ? "limit" : "crash",
        error: memory
          ? `script ran out of memory (a run may use ${taken.memoryMiB} MiB; the sandbox's --run-memory)`
          : `script stopped unexpectedly: ${String(message.message)}`,
      });
    }
    if (type === "exit") return finish({ ok: false, stage: "crash", error: "script stopped unexpectedly: its worker exited" });
    if (type === "done") return finish(doneOutcome(text, taken.memoryMiB));
    if (type === "pageReply") {
      const op = pageOps.get(id);
      pageOps.delete(id);
      return op?.resolve(typeof text === "string" ? text : "");
    }
    if (type !== "call" || typeof text !== "string") return;
    if (++calls > MAX_PAGE_CALLS) {
      return finish({ ok: false, stage: "limit", error: `script made more than ${MAX_PAGE_CALLS.toLocaleString("en-US")} calls to page and builtins` });
    }
    void answerCall(run.host, text, page).then((reply) => {
      if (settled) return;
      taken.send(sync ? { type: "syncReply", text: reply } : { type: "reply", id, text: reply });
    });
  });
  taken.startWatch();
  taken.send({
    type: "run",
    content: run.content,
    runText: JSON.stringify({ args: run.args, files: run.files, surface: run.host.surface }),
  });
  return outcome;
}

/** The outcome a script process reported; an ArrayBuffer past the budget says which limit it met. */
function doneOutcome(text: unknown, memoryMiB: number): BodyOutcome {
  let done: { ok: true; result: string } | { ok: false; stage: BodyStage; error: string };
  try {
    done = JSON.parse(String(text));
  } catch {
    return { ok: false, stage: "crash", error: "script stopped unexpectedly: its outcome could not be read" };
  }
  if (done.ok) return resultOf(done.result);
  if (/Array buffer allocation failed/.test(done.error)) {
    return {
      ok: false,
      stage: "limit",
      error: `script ran out of memory: ${done.error} (ArrayBuffers and typed arrays count against the ${memoryMiB} MiB a run may use; the sandbox's --run-memory)`,
    };
  }
  return done;
}
