// The process one script body runs in. ../script-processes.ts starts it (built to plain JavaScript
// by build.ts: Node runs it with no loader, and with nothing of the server's environment) and kills
// it when its run ends; everything a body can do to its process (exhaust the heap, allocate
// gigabytes of ArrayBuffer, crash V8) ends here, in a failed run, never in the server.
//
// Inside, the body runs in a worker thread (script-worker.ts) whose heap is limited to the run's
// memory; this thread only relays the worker's messages to the server over fd 3 (framed, see
// frames.ts) and the server's answers back, and answers the worker's synchronous calls
// (page.url()) by waking it on the shared flag. The server limits this whole process's data
// memory (heap and ArrayBuffers together, RLIMIT_DATA) to what it uses when ready plus the run's
// budget, and watches its resident memory.
//
// argv: memory budget in MiB, largest text (characters) a call or result may carry.
import net from "node:net";
import { MessageChannel, Worker } from "node:worker_threads";
import { FrameReader, frame } from "./frames.js";
import type { ServerMessage, WorkerData } from "./messages.js";

const memoryMiB = Number(process.argv[2]) || 128;
const maxText = Number(process.argv[3]) || 1024 * 1024;
/** How often this process tells the server its CPU time. */
const CPU_REPORT_MS = 100;

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

const shared = new SharedArrayBuffer(4);
const flag = new Int32Array(shared);
const { port1: replies, port2 } = new MessageChannel();
const workerData: WorkerData = { flag: shared, replies: port2, maxText };
// Built beside this file (build.ts writes both into one folder).
const worker = new Worker(new URL("./script-worker.mjs", import.meta.url), {
  workerData,
  transferList: [port2],
  execArgv: [],
  env: {},
  resourceLimits: { maxOldGenerationSizeMb: memoryMiB, maxYoungGenerationSizeMb: 16 },
});
/** This process's CPU time so far (every thread's, the worker's included), in microseconds. */
const cpuMicros = (): number => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
worker.once("online", () => send({ type: "ready" }));
// "started" carries the CPU time spent before the body began, so the server counts the body's own.
worker.on("message", (message: { type?: string }) => send(message?.type === "started" ? { ...message, cpu: cpuMicros() } : message));

worker.once("error", (error: Error & { code?: string }) => send({ type: "error", code: error?.code ?? "", message: String(error?.message ?? error) }));
worker.once("exit", (code) => {
  send({ type: "exit", code });
  channel.end(() => process.exit(0));
});

// The server is trusted; its largest message is a run (the body is at most a few MiB).
const reader = new FrameReader<ServerMessage>(
  64 * 1024 * 1024,
  (message) => {
    if (message.type === "run") {
      // The body's CPU time, reported from this thread (a body spinning in the worker cannot stop
      // it): the server ends a run whose body has used up its time limit in CPU time.
      setInterval(() => send({ type: "cpu", cpu: cpuMicros() }), CPU_REPORT_MS).unref();
      return worker.postMessage({ content: message.content, runText: message.runText });
    }
    if (message.type === "reply") return worker.postMessage({ type: "reply", id: message.id, text: message.text });
    if (message.type === "syncReply") {
      replies.postMessage(message.text);
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    }
  },
  () => process.exit(1),
);
channel.on("data", (chunk: Buffer) => reader.push(chunk));
