/**
 * Timeouts and aborts that always fire.
 *
 * On Node 20 and 22 a signal that reaches fetch through `new Request(request, { signal })` or
 * `request.clone()` stops aborting once that Request is garbage-collected (nodejs/undici#4068),
 * and `AbortSignal.timeout()` holds its signal only weakly. So each attempt owns a plain timer
 * and an AbortController, both held strongly (by the timer and by the listener on the caller's
 * signal) until the attempt ends; fetch gets the controller's signal in its own `init`; and the
 * attempt is raced against that abort, so it ends on time even if fetch never noticed.
 */

/** Why an attempt was cut short. */
export type AbortCause =
  | { kind: "timeout"; ms: number }
  /** The caller's signal; `reason` is its own (a TimeoutError from `AbortSignal.timeout()`...). */
  | { kind: "aborted"; reason?: unknown }
  | { kind: "failed"; error: unknown };

/** Thrown by `AttemptGuard.race` when the attempt was cut short. */
export class AttemptAborted extends Error {
  override name = "AttemptAborted";
  constructor(override readonly cause: AbortCause) {
    super(cause.kind === "timeout" ? `no answer within ${cause.ms} ms` : cause.kind === "aborted" ? "aborted" : "failed");
  }
}

const noop = () => undefined;

export class AttemptGuard {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  private readonly ended: Promise<never>;
  private end!: (error: AttemptAborted) => void;
  private readonly onCallerAbort = () => this.abort({ kind: "aborted", reason: this.callerSignal?.reason });
  cause: AbortCause | undefined;

  /** `timeoutMs` 0 (or not finite): no timeout, only the caller's signal. */
  constructor(
    timeoutMs: number,
    private readonly callerSignal?: AbortSignal,
  ) {
    this.ended = new Promise<never>((_, reject) => (this.end = reject));
    this.ended.catch(noop);
    this.startTimer(timeoutMs);
    if (callerSignal?.aborted) this.onCallerAbort();
    else callerSignal?.addEventListener("abort", this.onCallerAbort, { once: true });
  }

  /**
   * Starts the timeout now, unless one is running (or the attempt is over): for an attempt
   * whose first part may take as long as it takes (a run, until its answer begins).
   */
  startTimer(timeoutMs: number): void {
    if (this.timer !== undefined || this.disposed || !(timeoutMs > 0 && Number.isFinite(timeoutMs))) return;
    this.timer = setTimeout(() => this.abort({ kind: "timeout", ms: timeoutMs }), timeoutMs);
  }

  /** The signal to hand to fetch in its own init. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Ends the attempt now: `race` rejects and fetch is told to abort. The first cause wins. */
  abort(cause: AbortCause): void {
    if (this.cause) return;
    this.cause = cause;
    this.end(new AttemptAborted(cause));
    this.controller.abort(cause.kind === "failed" ? cause.error : new AttemptAborted(cause));
    this.dispose();
  }

  /** `work`'s outcome, unless the attempt is cut short first. */
  race<T>(work: Promise<T>): Promise<T> {
    // Whatever `work` does after losing the race must not become an unhandled rejection.
    work.catch(noop);
    return Promise.race([work, this.ended]);
  }

  /** Stops the timer and lets go of the caller's signal. */
  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.callerSignal?.removeEventListener("abort", this.onCallerAbort);
  }
}

/** Waits `ms`, or rejects with `AttemptAborted` the moment the caller aborts (and stops waiting). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new AttemptAborted({ kind: "aborted", reason: signal.reason }));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AttemptAborted({ kind: "aborted", reason: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
