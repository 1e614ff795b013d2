/**
 * The batch loop's one wake-up call: whoever waits for something to change (the scheduler, the
 * consumer of the outcomes) is woken by any change, and then looks again at what changed.
 */
export class WakeUp {
  private readonly waiters = new Set<() => void>();

  /** Wakes every waiter. */
  notify(): void {
    for (const w of [...this.waiters]) w();
    this.waiters.clear();
  }

  /** Resolves at the next change. */
  changed(): Promise<void> {
    return new Promise<void>((resolve) => this.waiters.add(resolve));
  }
}
