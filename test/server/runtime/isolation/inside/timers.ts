// setTimeout and clearTimeout, as scripts wait with them (`await new Promise((r) => setTimeout(r, 500))`):
// the timer runs on the host's side, which calls fire(id) when it is due.
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

/** Puts setTimeout and clearTimeout on the context's globalThis. */
export function installTimers(): void {
  Object.defineProperty(globalThis, "setTimeout", { value: setTimeout, writable: true, configurable: true });
  Object.defineProperty(globalThis, "clearTimeout", { value: clearTimeout, writable: true, configurable: true });
}
