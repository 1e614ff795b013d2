// The process script bodies run in. ../script-processes.ts starts it (built to plain JavaScript
// by build.ts: Node runs it with no loader, and with nothing of the server's environment) and kills
// it when a run fails by time, memory or crash; everything a body can do to its process (exhaust
// the heap, allocate gigabytes of ArrayBuffer, crash V8) ends here, in a failed run, never in the
// server. After a run that ended by itself, the server may keep the process for the next run of
// the same script by the same caller ("next"): that run gets a fresh realm, in the same worker
// when the run before left it clean (see script-worker.ts), else in a fresh worker.
//
// Inside, bodies run in a worker thread (script-worker.ts) whose heap is limited to the run's
// memory; this thread relays the worker's messages to the server over fd 3 (framed, see frames.ts)
// and the server's answers back, answers the worker's synchronous calls (page.url()) by waking it
// on the shared flag, and checks a body before the worker runs it (body-check.ts's refusal), once
// per body: acorn is loaded and compiled here once for the process's life. The server limits this
// whole process's data memory (heap and ArrayBuffers together, RLIMIT_DATA) to what it uses when
// ready plus the run's budget, and watches its resident memory.
//
// argv: memory budget in MiB, largest text (characters) a call or result may carry.
import net from "node:net";
import { MessageChannel, type MessagePort, Worker } from "node:worker_threads";
import { refusal } from "./body-check.js";
import { FrameReader, frame } from "./frames.js";
import type { RunMessage, ServerMessage, WorkerData } from "./messages.js";

const memoryMiB = Number(process.argv[2]) || 128;
const maxText = Number(process.argv[3]) || 1024 * 1024;
/** How often this process tells the server its CPU time. */
const CPU_REPORT_MS = 100;
/** Runs one worker serves at most (each in a realm of its own), before a fresh worker takes over. */
const RUNS_PER_WORKER = 20;
/**
 * How long a worker may take to end its run after "next" (it reads that only once the run's
 * promise jobs are all done), before it is replaced instead.
 */
const RESET_MS = 1000;

const channel = new net.Socket({ fd: 3, readable: true, writable: true });
const send = (message: unknown): void => {
  try {
    channel.write(frame(message));
  } catch {
    process.exit(1);
  }
};
// The server went away (or killed its end): nothing left to run for.
channel.on("close", () => process.exit(0));
channel.on("error", () => process.exit(0));

/** This process's CPU time so far (every thread's, the worker's included), in microseconds. */
const cpuMicros = (): number => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/** A worker, with its side of the synchronous calls, the runs it was given, and who waits for its "reset" answer. */
type Held = { worker: Worker; flag: Int32Array; replies: MessagePort; runs: number; onReset?: (clean: boolean) => void };
/** The worker of the current run (none between a run's end and the next "ready"). */
let current: Held | undefined;
let cpuReports: NodeJS.Timeout | undefined;
/** The last body checked, and why it may not run (null: it may). */
let checked: { content: string; refused: string | null } | undefined;

/** The last page codes checked (a page's scripts come again at each visit), and why each may not run. */
const pageChecks = new Map<string, string | null>();

function pageCodeRefusal(code: string): string | null {
  let refused = pageChecks.get(code);
  if (refused === undefined) {
    refused = refusal(code);
    if (pageChecks.size >= 32) pageChecks.delete(pageChecks.keys().next().value!);
    pageChecks.set(code, refused);
  }
  return refused;
}

/**
 * Starts a fresh worker (a new V8 isolate, nothing of an earlier run's in it) and says "ready" once
 * it is online. Messages of a worker that is not the current one are dropped (and between a run's
 * end and the next "ready" there is none), so nothing of an earlier run reaches the server once
 * the next run is ready.
 */
function startWorker(): void {
  const shared = new SharedArrayBuffer(4);
  const { port1: replies, port2 } = new MessageChannel();
  const workerData: WorkerData = { flag: shared, replies: port2, maxText };
  // Built beside this file (build.ts writes both into one folder).
  const worker = new Worker(new URL("./script-worker.cjs", import.meta.url), {
    workerData,
    transferList: [port2],
    execArgv: [],
    env: {},
    resourceLimits: { maxOldGenerationSizeMb: memoryMiB, maxYoungGenerationSizeMb: 16 },
  });
  const mine: Held = { worker, flag: new Int32Array(shared), replies, runs: 0 };
  current = mine;
  const live = () => current === mine;
  worker.once("online", () => live() && send({ type: "ready" }));
  // "started" carries the CPU time spent before the body began, so the server counts the body's own.
  worker.on("message", (message: { type?: string; clean?: unknown }) => {
    if (message?.type === "reset") return mine.onReset?.(message.clean === true);
    if (live()) send(message?.type === "started" ? { ...message, cpu: cpuMicros() } : message);
  });
  worker.once("error", (error: Error & { code?: string }) => {
    if (live()) send({ type: "error", code: error?.code ?? "", message: String(error?.message ?? error) });
  });
  worker.once("exit", (code) => {
    if (!live()) return;
    send({ type: "exit", code });
    channel.end(() => process.exit(0));
  });
}

startWorker();

/** Ends `old` (waking a body left waiting on a synchronous call, so nothing holds its end) and starts a fresh worker. */
function replace(old: Held): void {
  old.onReset = undefined;
  Atomics.store(old.flag, 0, 1);
  Atomics.notify(old.flag, 0);
  void old.worker.terminate().then(startWorker, () => process.exit(1));
}

/**
 * Readies the next run after a run that ended by itself: in the same worker once it says the run
 * left it clean (within RESET_MS), else in a fresh one. Nothing of the old run is relayed meanwhile.
 */
function next(old: Held): void {
  current = undefined;
  if (old.runs >= RUNS_PER_WORKER) return replace(old);
  const late = setTimeout(() => replace(old), RESET_MS);
  old.onReset = (clean) => {
    clearTimeout(late);
    old.onReset = undefined;
    if (!clean) return replace(old);
    current = old;
    send({ type: "ready" });
  };
  old.worker.postMessage({ type: "reset" });
}

// The server is trusted; its largest message is a run (the body is at most a few MiB).
const reader = new FrameReader<ServerMessage>(
  64 * 1024 * 1024,
  (message) => {
    if (!current) return;
    const held = current;
    const { worker, flag, replies } = held;
    if (message.type === "run") {
      // The body's CPU time, reported from this thread (a body spinning in the worker cannot stop
      // it): the server ends a run whose body has used up its time limit in CPU time.
      clearInterval(cpuReports);
      cpuReports = setInterval(() => send({ type: "cpu", cpu: cpuMicros() }), CPU_REPORT_MS);
      cpuReports.unref();
      if (checked?.content !== message.content) checked = { content: message.content, refused: refusal(message.content) };
      const run: RunMessage = { type: "run", content: message.content, runText: message.runText, refused: checked.refused };
      held.runs += 1;
      return worker.postMessage(run);
    }
    if (message.type === "reply") return worker.postMessage({ type: "reply", id: message.id, text: message.text });
    if (message.type === "page") {
      // Code for the page's realm passes the same check as a body before the worker compiles it.
      const refused = typeof message.code === "string" ? pageCodeRefusal(message.code) : null;
      if (refused !== null)
        return send({
          type: "pageReply",
          id: message.id,
          text: JSON.stringify({ ok: false, error: { name: "SyntaxError", message: refused.replace(/^SyntaxError: /, "") } }),
        });
      return worker.postMessage({ type: "page", id: message.id, text: message.text, code: message.code, fresh: message.fresh === true });
    }
    if (message.type === "syncReply") {
      replies.postMessage(message.text);
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    }
    if (message.type === "next") {
      // The run ended by itself and the server keeps this process for the next run of the same
      // script by the same caller.
      clearInterval(cpuReports);
      next(held);
    }
  },
  () => process.exit(1),
);
channel.on("data", (chunk: Buffer) => reader.push(chunk));
