// setTimeout and clearTimeout, as scripts wait with them (`await new Promise((r) => setTimeout(r, 500))`):
// the timer runs on the host's side, which calls fire(id) when it is due, and cancels it when the
// run ends. The language has two callbacks of its own that come later and that no host can cancel:
// a FinalizationRegistry's (after a garbage collection) and Atomics.waitAsync's (when woken or
// timed out). A body that asks for either is noted (usedDeferred), and its worker is not used for
// another run (../script-process.ts): so once a run has ended, none of its code runs again.
import { ErrorType, StringType, TypeErrorType, apply } from "./intrinsics.js";
import { post } from "./host.js";
import { errorText } from "./errors.js";
import { finish } from "./outcome.js";

type Timer = { callback: (...args: unknown[]) => unknown; rest: unknown[] };
const timers: Record<number, Timer> = Object.create(null);
let nextTimer = 1;

function setTimeout(callback: unknown, delay?: unknown, ...rest: unknown[]): number {
  if (typeof callback !== "function") throw new TypeErrorType("setTimeout: give a function (code in a string is not run)");
  const id = nextTimer++;
  timers[id] = { callback: callback as Timer["callback"], rest };
  const ms = +(delay as number) > 0 ? +(delay as number) : 0;
  let armed = false;
  try {
    armed = post("timer", id, StringType(ms)) === true;
  } catch (_) {
    armed = false;
  }
  if (!armed) {
    delete timers[id];
    throw new ErrorType("setTimeout: no timer available");
  }
  return id;
}

function clearTimeout(id: unknown): void {
  if (typeof id === "number") delete timers[id];
}

/** Runs the timer `id`'s callback, now due. */
export function fire(id: number): void {
  const timer = timers[id];
  if (!timer) return;
  delete timers[id];
  try {
    apply(timer.callback, undefined, timer.rest);
  } catch (error) {
    // Uncaught in a timer, as in Node: the run fails with it.
    finish({ ok: false, stage: "throw", error: errorText(error) });
  }
}

let deferred = false;

/** Whether the body asked for a callback the host cannot cancel (see the top of this file). */
export function usedDeferred(): boolean {
  return deferred;
}

/** Replaces `holder[name]` (a function) by one that notes its use, then does what it did. */
function noteUse(holder: object | undefined, name: string): void {
  const original = holder && (holder as Record<string, unknown>)[name];
  if (typeof original !== "function") return;
  const noted = {
    [name](this: unknown, ...args: unknown[]): unknown {
      deferred = true;
      return apply(original as (...args: unknown[]) => unknown, this, args);
    },
  }[name]!;
  Object.defineProperty(holder, name, { value: noted, writable: true, configurable: true });
}

/**
 * Notes the body's use of the callbacks no host can cancel: FinalizationRegistry's register (only
 * a registered value ever calls back; the constructor's prototype is reachable from the body, so
 * its method is where to watch) and Atomics.waitAsync.
 */
export function watchDeferred(): void {
  noteUse(typeof FinalizationRegistry === "function" ? FinalizationRegistry.prototype : undefined, "register");
  noteUse(typeof Atomics === "object" ? Atomics : undefined, "waitAsync");
}

/** Puts setTimeout and clearTimeout on the context's globalThis. */
export function installTimers(): void {
  Object.defineProperty(globalThis, "setTimeout", { value: setTimeout, writable: true, configurable: true });
  Object.defineProperty(globalThis, "clearTimeout", { value: clearTimeout, writable: true, configurable: true });
}
