/**
 * How fast a batch sends: a 429 or 503 pauses and slows the whole batch (never fails a row), and
 * each group the service answers lets one more row back in flight, up to `concurrency`.
 */
export class SlowDown {
  /** How many rows may be in flight now. */
  allowed: number;
  /** 429s and 503s in a row: each doubles the pause when the service names none. */
  private throttles = 0;
  /** No request goes out before this time (ms since the epoch). */
  private pauseUntil = 0;

  constructor(private readonly concurrency: number) {
    this.allowed = concurrency;
  }

  /** A group was answered: the batch speeds up again, one row at a time. */
  answered(): void {
    this.throttles = 0;
    this.allowed = Math.min(this.concurrency, this.allowed + 1);
  }

  /** A 429 or 503: half as many rows in flight, and a pause (the service's, else growing). Returns the pause, in ms. */
  throttled(retryAfterMs: number | undefined): number {
    this.throttles++;
    this.allowed = Math.max(1, Math.floor(this.allowed / 2));
    const pause = retryAfterMs ?? Math.min(30_000, 500 * 2 ** (this.throttles - 1));
    this.pauseUntil = Math.max(this.pauseUntil, Date.now() + pause);
    return pause;
  }

  /** How long until the next request may go out (0 or less: now). */
  pauseLeft(): number {
    return this.pauseUntil - Date.now();
  }

  /** When the pause ends, while the batch is paused (what progress reports). */
  pausedUntil(): number | undefined {
    return this.pauseUntil > Date.now() ? this.pauseUntil : undefined;
  }
}
