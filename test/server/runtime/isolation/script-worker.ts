// The worker thread script bodies run in. script-process.ts starts it, in a process of its own
// that the server kills when a run times out (or fails by memory or crash); it hands it a run, and
// after a run that ended by itself, may hand it the next run of the same script by the same caller
// (a worker costs about 26 ms of CPU to start, the rest of a simple run a few). Built to plain
// JavaScript by build.ts (Node loads it with no loader).
//
// Each run's body runs in a fresh `vm` context, a realm of its own. A context alone is no boundary: any
// object of this (outer) realm that reaches the body leads back here through its constructor
// (`x.constructor.constructor("return process")()`). So no outer object ever enters the context:
// - `page`, `builtins`, `args` and `files` are built by the code in inside/, bundled by build.ts
//   into one script text (INSIDE_SCRIPT) and evaluated in the context, so every object it makes is
//   the context's own; the web globals (URL, TextEncoder...) come from the same text;
// - that code talks to this realm through three functions (post, postSync, random, host-calls.ts)
//   it keeps in its closure, never shows the body, and calls only inside try/catch that drops
//   whatever they threw (an outer error, even a stack overflow raised on entering them);
// - both ways carry strings (JSON) and numbers only, and this side only checks their `typeof`
//   (what JSON has no form for crosses as marker objects: a function given to page.evaluate as its
//   source text, taken with the context's own Function.prototype.toString, which runs in the browser
//   page; a regular expression as its source and flags; a locator as the calls that made it);
// - the context cannot compile code from strings (no eval, no Function), so every line it runs is
//   the body checked before it runs: `import()` is refused (body-check.ts, checked by the process
//   that started this worker), because on Node 20 the host's answer to `import()` (even when a
//   callback is set) can be an outer error object.
//
// A run ends ("reset", once the server has its outcome) with its timers cancelled, its three
// functions dead and its replies no longer delivered. This thread reads "reset" only once the
// realm's promise jobs have all run (a body that keeps queuing them holds it off, and the process
// replaces this worker after a while), so from then on the realm's code can run again only through
// a callback the language itself schedules, a FinalizationRegistry's or Atomics.waitAsync's: a run
// that asked for one is not clean, and its worker is replaced.
import vm from "node:vm";
import { type MessagePort, parentPort as maybeParentPort, workerData as data } from "node:worker_threads";
import { type HostCalls, hostCalls } from "./host-calls.js";
import type { InsideScript } from "./inside/index.js";
import type { PageMessage, ReplyMessage, ResetMessage, RunMessage, WorkerData } from "./messages.js";
import { Pages } from "./pages.js";

/** The bundle of inside/ as one script text, put here by build.ts (esbuild's `define`). */
declare const INSIDE_SCRIPT: string;

const parentPort = maybeParentPort as MessagePort;
const workerData = data as WorkerData;

/** Largest text a call or the result may be (characters of JSON), and how it is said. */
const maxText = Number(workerData.maxText) || 1024 * 1024;
const maxTextLabel = maxText % (1024 * 1024) === 0 ? `${maxText / (1024 * 1024)} MiB` : `${maxText} characters`;

/** The current run's context's describe(thrown), deliver(id, text) and usedDeferred(), once it exists. */
let describe: (thrown: unknown) => string = () => "Error: the script failed";
let deliver: (id: number, text: string) => unknown = () => undefined;
let usedDeferred: () => unknown = () => false;
/** The current run's side of the calls bridge. */
let calls: HostCalls | undefined;
/** The current run's simulated page, if its sandbox runs scripts there. */
let pages: Pages | undefined;

// A rejection nobody handled fails the run with its reason, as it would end a Node process. Node's
// own handling would crash the worker and inspect the reason from this realm (calling a custom
// inspect function of the body's with this realm's objects), so it never gets the chance: the reason
// is only ever described by the context's own code. Anything else uncaught ends the run unread.
process.on("unhandledRejection", (reason, promise) => {
  // A page's own rejection (its script's, or an evaluate function's) is the page's, as in a browser.
  if (pages?.owns(promise)) return;
  let text: unknown;
  try {
    text = describe(reason);
  } catch {
    text = undefined;
  }
  done({ ok: false, stage: "throw", error: typeof text === "string" ? text : "Error: the script failed" });
});
process.on("uncaughtException", () => done({ ok: false, stage: "crash", error: "script stopped unexpectedly" }));

const flag = new Int32Array(workerData.flag);

const PARAMETERS = "page, args, files, builtins";

/**
 * The body as the service runs it: the body of an async function of page, args, files and builtins.
 * Throws V8's SyntaxError for a body that does not compile.
 */
function compile(content: string): vm.Script {
  // Line 1 of the body is line 1 of the script, so V8's messages point at the right line.
  return new vm.Script(`(async function (${PARAMETERS}) {\n${content}\n})`, { filename: "script.js", lineOffset: -1 });
}

function done(outcome: { ok: false; stage: string; error: string }): void {
  parentPort.postMessage({ type: "done", id: 0, text: JSON.stringify(outcome) });
}

function run({ content, runText, refused }: RunMessage): void {
  // The run's own timers fire into its own context only, even were one left uncancelled.
  let ownFire: (id: number) => unknown = () => undefined;
  const mine = hostCalls(parentPort, flag, workerData.replies, (id) => ownFire(id));
  calls = mine;
  pages = new Pages(parentPort, mine.random, maxText, maxTextLabel);
  let script: vm.Script;
  try {
    script = compile(content);
  } catch (error) {
    const { name, message } = error as Error;
    return done({ ok: false, stage: "compile", error: `${name}: ${message}` });
  }
  // V8's own message first, for a body that fails both checks; a missing verdict refuses.
  if (refused !== null) return done({ ok: false, stage: "compile", error: typeof refused === "string" ? refused : "SyntaxError: the script was not checked" });

  const context = vm.createContext(Object.create(null), { name: "script", codeGeneration: { strings: false, wasm: false } });
  const inside = vm.runInContext(INSIDE_SCRIPT, context) as InsideScript;
  inside.webGlobals();
  const entries = inside.inside(mine.post, mine.postSync, mine.random, maxText, maxTextLabel);
  const { start } = entries;
  ownFire = entries.fire;
  describe = entries.describe;
  deliver = entries.deliver;
  usedDeferred = entries.usedDeferred;
  try {
    parentPort.postMessage({ type: "started", id: 0, text: "" });
    start(runText, script.runInContext(context));
  } catch {
    done({ ok: false, stage: "throw", error: "Error: the script could not start" });
  }
}

/** Ends the current run; says whether it is clean (none of its code can run again; see the top). */
function reset(): boolean {
  let clean: unknown = false;
  try {
    clean = usedDeferred() === false;
  } catch {
    clean = false;
  }
  calls?.end();
  calls = undefined;
  const pagesClean = pages?.end() ?? true;
  pages = undefined;
  describe = () => "Error: the script failed";
  deliver = () => undefined;
  usedDeferred = () => false;
  return clean === true && pagesClean;
}

parentPort.on("message", (message: RunMessage | ReplyMessage | ResetMessage | PageMessage) => {
  if (message?.type === "run") return run(message);
  if (message?.type === "page") return pages?.handle(message);
  if (message?.type === "reset") return parentPort.postMessage({ type: "reset", clean: reset() });
  if (message?.type !== "reply" || typeof message.id !== "number" || typeof message.text !== "string") return;
  try {
    deliver(message.id, message.text);
  } catch {
    // A reply the body's own code made throw: its run, its outcome.
  }
});
