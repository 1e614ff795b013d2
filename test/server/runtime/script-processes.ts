// The processes script bodies run in (isolation/script-process.ts), seen from the server: started ahead of
// time (two wait, warm, so a run does not pay a process start), at most MAX_RUNNING running at once
// (more runs wait for one to end). A run that fails by its time limit, its memory or a crash has
// its process killed. A run that ended by itself (a result, or the body's own error) may leave its
// process for the next run of the same body by the same caller, which gets a fresh realm in it
// (its worker reused only when none of the earlier run's code can run again, see
// isolation/script-worker.ts). So a body never shares a process with another caller's run or
// another script: whatever it could leave in its process (only by escaping its realm) meets
// nothing but its own later runs, with the same arguments' owner. A process serves at most
// MAX_RUNS_PER_PROCESS runs, and none once it has grown 32 MiB past its first ready size. CPU
// time: a process and its worker take about 80 ms to start, a worker 26, a simple run a few.
//
// Places are shared fairly between callers (accounts): one caller holds at most MAX_PER_CALLER of
// them, so however many runs it starts (six `while (true) {}` bodies, say), a place stays for
// another caller's run; and when a place frees, the waiting caller holding the fewest places gets
// it (the longest-waiting one among equals), so a caller's queue of runs cannot starve another's.
//
// Memory: a run's budget (128 MiB, `--run-memory`) bounds its worker's heap, and, through
// RLIMIT_DATA set on the process once it is ready (its data memory then, plus the budget), the
// heap and every ArrayBuffer together: `new Uint8Array(4 * 2 ** 30)` fails inside the script. The
// process's resident memory is also watched from here (/proc) and the process killed past its
// ready size plus the budget, whatever the allocation was. A worker's resourceLimits alone bound
// neither: measured, `new Uint8Array(4 * 2 ** 30)` succeeded in a worker limited to 128 MB
// (ArrayBuffer memory is outside the heap limit), and a string of ~500 million characters
// returned by a body aborted the whole process with V8's fatal heap-limit error.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Socket } from "node:net";
import { scriptProcessFile } from "./isolation/build.js";
import { FrameReader, frame } from "./isolation/frames.js";
import type { ServerMessage } from "./isolation/messages.js";

/** A run's memory budget in MiB, unless the sandbox was given `--run-memory`. */
export const DEFAULT_RUN_MEMORY_MIB = 128;
/** Script processes running at once; a run beyond waits (its time limit starts once its body does). */
export const MAX_RUNNING = 6;
/** Places one caller may hold at once: one always stays for another caller. */
export const MAX_PER_CALLER = MAX_RUNNING - 1;
/** Largest message a script process may send (a call or a result is refused well before, inside it). */
const MAX_FRAME_BYTES = 8 * 1024 * 1024;
/** How often a running process's resident memory is read. */
const WATCH_MS = 100;

let runMemoryMiB = DEFAULT_RUN_MEMORY_MIB;

/**
 * Sets the memory budget of the runs that start from now on (the sandbox's `--run-memory`).
 *
 * @example
 * setRunMemory(256);
 */
export function setRunMemory(mib: number): void {
  runMemoryMiB = mib;
  for (const waiting of [...spares.splice(0), ...kept.splice(0)]) waiting.kill();
}

/** The memory budget of a run, in MiB. */
export function runMemory(): number {
  return runMemoryMiB;
}

/** Why a script process ended before its run did, in words for the run's error. */
export type Ending = { kind: "memory"; text: string } | { kind: "crash"; text: string };

/**
 * One script process. `send` hands it a message; `onMessage` gets the worker's messages; `ended`
 * says, once it has died (or was killed), why.
 */
export class ScriptProcess {
  readonly child: ChildProcess;
  private readonly channel: Socket;
  private readonly reader: FrameReader<{ type: string; [key: string]: unknown }>;
  private stderr = "";
  private watch?: NodeJS.Timeout;
  private readyRss = 0;
  private memoryKill?: string;
  private listener: (message: { type: string; [key: string]: unknown }) => void = () => {};
  private endListener: (ending: Ending) => void = () => {};
  /** Resolves once the process is ready for a run, its memory limited (false: it died first). */
  ready: Promise<boolean>;
  private readied: (ok: boolean) => void = () => {};
  exited = false;
  /** Runs this process has served (it serves more than one only for one script and one caller). */
  runs = 0;
  /** The caller and script of its runs, once it has served one. */
  key?: string;
  ending?: Ending;

  constructor(
    readonly memoryMiB: number,
    maxText: number,
  ) {
    // Built on first use (isolation/build.ts): the child runs plain JavaScript, with no loader.
    this.child = spawn(process.execPath, ["--max-old-space-size=64", scriptProcessFile(), String(memoryMiB), String(maxText)], {
      stdio: ["ignore", "ignore", "pipe", "pipe"],
      // Nothing of the server's environment (API keys, loaders) goes to a script's process.
      env: {},
    });
    this.channel = this.child.stdio[3] as Socket;
    this.reader = new FrameReader(
      MAX_FRAME_BYTES,
      (message) => this.listener(message),
      (bytes) => {
        this.memoryKill = `script stopped: it sent a message of ${bytes} bytes, over the ${MAX_FRAME_BYTES / 2 ** 20} MiB a run may send`;
        this.kill();
      },
    );
    this.channel.on("data", (chunk: Buffer) => this.reader.push(chunk));
    this.channel.on("error", () => {});
    this.child.stderr!.on("data", (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-4096)));
    // Once up: its data memory now, plus the budget, is all it may ever hold.
    this.ready = this.awaitReady().then(async (ok) => ok && (await this.limitData(), !this.exited));
    this.child.once("exit", (code, signal) => {
      this.exited = true;
      clearInterval(this.watch);
      this.reader.stop();
      this.readied(false);
      this.ending = this.describeExit(code, signal);
      this.endListener(this.ending);
    });
    this.child.on("error", () => {});
    this.unref();
  }

  private awaitReady(): Promise<boolean> {
    const ready = new Promise<boolean>((resolve) => (this.readied = resolve));
    this.listener = (message) => {
      if (message.type === "ready") this.readied(true);
    };
    return ready;
  }

  /**
   * Readies the process for another run (a fresh realm in it), after a run that ended by itself.
   * Nothing of the run before reaches the listener of the next: the process drops its old worker's
   * messages, and whatever it sent before "ready" arrives here before it.
   */
  recycle(): void {
    clearInterval(this.watch);
    this.endListener = () => {};
    this.ready = this.awaitReady().then((ok) => ok && !this.exited);
    this.send({ type: "next" });
  }

  /** Its resident memory now, in bytes, and what it was when first ready. */
  async memory(): Promise<{ rss: number; readyRss: number }> {
    return { rss: await rssOf(this.child.pid), readyRss: this.readyRss };
  }

  /** A waiting process must not keep the server's (or a test's) process alive. */
  unref(): void {
    this.child.unref();
    this.channel.unref();
    (this.child.stderr as Socket).unref?.();
  }

  ref(): void {
    this.child.ref();
    this.channel.ref();
  }

  send(message: ServerMessage): void {
    if (!this.exited) this.channel.write(frame(message));
  }

  onMessage(listener: (message: { type: string; [key: string]: unknown }) => void): void {
    this.listener = listener;
  }

  onEnd(listener: (ending: Ending) => void): void {
    this.endListener = listener;
    if (this.ending) listener(this.ending);
  }

  /** Reads the resident memory while a run is on, and kills the process past ready + budget. */
  startWatch(): void {
    const limit = this.readyRss + this.memoryMiB * 2 ** 20;
    this.watch = setInterval(() => {
      void rssOf(this.child.pid).then((rss) => {
        if (rss > limit && !this.exited) {
          this.memoryKill = `script ran out of memory: its process passed ${Math.round(limit / 2 ** 20)} MiB resident (a run may use ${this.memoryMiB} MiB; the sandbox's --run-memory)`;
          this.kill();
        }
      });
    }, WATCH_MS);
    this.watch.unref();
  }

  kill(): void {
    clearInterval(this.watch);
    if (!this.exited) this.child.kill("SIGKILL");
  }

  private async limitData(): Promise<void> {
    const pid = this.child.pid;
    if (!pid) return;
    const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
    this.readyRss = kilobytes(status, "VmRSS");
    const data = kilobytes(status, "VmData");
    if (!data) return;
    const limit = data + this.memoryMiB * 2 ** 20;
    // prlimit (util-linux) sets another process's limit; without it, the watch above still holds.
    await new Promise<void>((resolve) => execFile("prlimit", ["--pid", String(pid), `--data=${limit}:${limit}`], () => resolve()));
  }

  private describeExit(code: number | null, signal: NodeJS.Signals | null): Ending {
    if (this.memoryKill) return { kind: "memory", text: this.memoryKill };
    if (/out of memory|allocation failed|heap limit/i.test(this.stderr)) {
      return { kind: "memory", text: `script ran out of memory (a run may use ${this.memoryMiB} MiB; the sandbox's --run-memory)` };
    }
    return { kind: "crash", text: `script stopped unexpectedly: its process ${signal ? `was ended by ${signal}` : `exited with code ${code}`}` };
  }
}

function kilobytes(status: string, field: string): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) * 1024;
}

async function rssOf(pid: number | undefined): Promise<number> {
  if (!pid) return 0;
  return kilobytes(await readFile(`/proc/${pid}/status`, "utf8").catch(() => ""), "VmRSS");
}

/**
 * Processes started ahead of time. Two, so that runs one after the other (a batch, a test suite)
 * each find one ready: a process takes longer to start (100-150 ms on a busy machine) than a
 * simple run takes.
 */
const SPARES = 2;
const spares: ScriptProcess[] = [];
let running = 0;
/** Places held, per caller. */
const held = new Map<string, number>();
/** Runs waiting for a place, in the order they came. */
const waiting: Array<{ caller: string; take: () => void }> = [];

function holding(caller: string): number {
  return held.get(caller) ?? 0;
}

/** Hands free places to waiting runs: per place, the caller holding fewest, first come among equals. */
function grant(): void {
  while (running < MAX_RUNNING) {
    let chosen = -1;
    for (let i = 0; i < waiting.length; i++) {
      const count = holding(waiting[i]!.caller);
      if (count >= MAX_PER_CALLER) continue;
      if (chosen === -1 || count < holding(waiting[chosen]!.caller)) chosen = i;
    }
    if (chosen === -1) return;
    const [next] = waiting.splice(chosen, 1);
    running += 1;
    held.set(next!.caller, holding(next!.caller) + 1);
    next!.take();
  }
}

/**
 * Runs one process may serve before it is replaced, and the memory it may have grown by since it
 * was first ready (its resident size read after a run) and still serve another.
 */
export const MAX_RUNS_PER_PROCESS = 100;
const REUSE_MARGIN_BYTES = 32 * 2 ** 20;
/** Processes kept after a run for the next run of the same script by the same caller, oldest first. */
const MAX_KEPT = MAX_RUNNING;
const kept: ScriptProcess[] = [];

function usable(candidate: ScriptProcess): boolean {
  return !candidate.exited && candidate.memoryMiB === runMemoryMiB;
}

/**
 * A process for one run of `caller` (an account): a warm one when one waits, else a new one; waits
 * for a place (see the fairness rule at the top). Give it back with `releaseScriptProcess(process,
 * maxText, caller)` when the run ends (it is killed then).
 */
export async function takeScriptProcess(maxText: number, caller = "", script?: string): Promise<ScriptProcess> {
  await new Promise<void>((take) => {
    waiting.push({ caller, take });
    grant();
  });
  const key = script === undefined ? undefined : `${caller}\n${script}`;
  if (key !== undefined) {
    const index = kept.findIndex((candidate) => candidate.key === key && usable(candidate));
    if (index !== -1) return kept.splice(index, 1)[0]!;
  }
  for (let spare = spares.shift(); spare; spare = spares.shift()) {
    if (usable(spare)) return spare;
    spare.kill();
  }
  return new ScriptProcess(runMemoryMiB, maxText);
}

/** A stable name for a script body: processes are shared only between runs of the same body. */
export function scriptKey(content: string): string {
  return createHash("sha256").update(content).digest("hex");
}

/** The processes kept for later runs: each one's pid and the caller and script it serves (for tests). */
export function keptScriptProcesses(): Array<{ pid: number; caller: string; script: string }> {
  return kept
    .filter((candidate) => !candidate.exited && candidate.key !== undefined)
    .map((candidate) => {
      const [caller, script] = candidate.key!.split("\n");
      return { pid: candidate.child.pid ?? 0, caller: caller!, script: script! };
    });
}

/** How many runs hold a place now, and how many wait for one (for tests and the sandbox's log). */
export function scriptPlaces(): { running: number; waiting: number } {
  return { running, waiting: waiting.length };
}

/**
 * Lets the next run (a waiting one first) have the place of a run that has ended, and ends its
 * process, or, when `keep` names the run's caller and script and the run ended by itself (a result
 * or the body's own error: not a time limit, a memory limit or a crash), keeps the process for the
 * next run of that script by that caller, in a fresh realm (see the top of this file).
 */
export function releaseScriptProcess(used: ScriptProcess, maxText: number, caller = "", keep?: string): void {
  used.runs += 1;
  if (keep === undefined || used.runs >= MAX_RUNS_PER_PROCESS || !usable(used)) used.kill();
  else void keepForNext(used, `${caller}\n${keep}`);
  running -= 1;
  const count = holding(caller) - 1;
  if (count > 0) held.set(caller, count);
  else held.delete(caller);
  grant();
  // The next runs' processes start once this one has ended, so the two do not compete.
  setImmediate(() => warmScriptProcess(maxText));
}

async function keepForNext(used: ScriptProcess, key: string): Promise<void> {
  const { rss, readyRss } = await used.memory();
  if (!usable(used) || !readyRss || rss > readyRss + REUSE_MARGIN_BYTES) return used.kill();
  used.key = key;
  used.unref();
  used.recycle();
  kept.push(used);
  while (kept.length > MAX_KEPT) kept.shift()!.kill();
}

/** Starts the processes the next runs take, up to SPARES waiting. */
export function warmScriptProcess(maxText: number): void {
  for (let i = spares.length - 1; i >= 0; i--) {
    if (!usable(spares[i]!)) spares.splice(i, 1)[0]!.kill();
  }
  while (spares.length < SPARES) spares.push(new ScriptProcess(runMemoryMiB, maxText));
}
