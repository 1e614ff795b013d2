// The three functions the context's code (inside/) may call on this side: post, postSync and
// random. Each takes and returns strings and numbers only, checks its arguments' `typeof`, and
// never throws: nothing of this realm goes back into the context, not even an error. Made anew for
// each run; `end()` cancels the run's timers and makes its three functions do nothing from then on.
import { randomBytes } from "node:crypto";
import { type MessagePort, receiveMessageOnPort } from "node:worker_threads";

/** Largest delay a Node timer takes. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/** The functions handed into the context (see inside/host.ts for the other side), and the run's end. */
export type HostCalls = {
  post(kind: unknown, id: unknown, text: unknown): boolean;
  postSync(text: unknown): string;
  random(count: unknown): string;
  /** The run is over: its timers are cancelled, and its functions do nothing from now on. */
  end(): void;
};

/**
 * The host side of the calls bridge: messages to the main thread go on `port`; a synchronous call
 * waits on `flag` until the main thread has put its answer on `replies`; a due timer calls
 * `fire(id)` (the context's, once it exists).
 *
 * @example
 * const { post, postSync, random, end } = hostCalls(parentPort, new Int32Array(workerData.flag), workerData.replies, (id) => fire(id));
 */
export function hostCalls(port: MessagePort, flag: Int32Array, replies: MessagePort, fire: (id: number) => void): HostCalls {
  let live = true;
  const timers = new Set<NodeJS.Timeout>();

  /**
   * Arms a timer (`timer`, text = the delay in ms), or passes an asynchronous call (`call`) or the
   * outcome (`done`) to the main thread.
   */
  function post(kind: unknown, id: unknown, text: unknown): boolean {
    try {
      if (!live || typeof id !== "number" || typeof text !== "string") return false;
      if (kind === "timer") {
        const timer = setTimeout(
          () => {
            timers.delete(timer);
            try {
              fire(id);
            } catch {
              // The callback's own failure is the context's to report.
            }
          },
          Math.min(Number(text) || 0, MAX_DELAY_MS),
        );
        timers.add(timer);
        return true;
      }
      if (kind !== "call" && kind !== "done") return false;
      port.postMessage({ type: kind, id, text });
      return true;
    } catch {
      return false;
    }
  }

  /** A call that answers at once (`page.url()`): blocks until the main thread has answered. */
  function postSync(text: unknown): string {
    try {
      if (!live || typeof text !== "string") return "";
      Atomics.store(flag, 0, 0);
      port.postMessage({ type: "call", id: 0, sync: true, text });
      Atomics.wait(flag, 0, 0);
      const received = receiveMessageOnPort(replies);
      return received && typeof received.message === "string" ? received.message : "";
    } catch {
      return "";
    }
  }

  /** Random bytes for the body's `crypto`, as hex. */
  function random(count: unknown): string {
    try {
      return live && typeof count === "number" && Number.isInteger(count) && count >= 0 && count <= 65536 ? randomBytes(count).toString("hex") : "";
    } catch {
      return "";
    }
  }

  function end(): void {
    live = false;
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  }

  return { post, postSync, random, end };
}
