/** `412/2,000 · 3 failed · 18.2 runs/min · eta 1h27m` on the status line (shell/status-line.ts) while a batch runs. */
import type { BatchCounts } from "../../batch/run-many.js";
import { durationCompact } from "../../core/duration.js";
import { statusLine } from "../shell/status-line.js";
import { count } from "../../core/words/count.js";

/**
 * @example
 * const progress = batchProgressLine(2000, !json);
 * runMany({ ..., onProgress: progress.update });
 */
export function batchProgressLine(total: number, wanted: boolean) {
  const line = statusLine(process.stderr, wanted);
  const started = Date.now();
  return {
    update: (c: BatchCounts) => {
      if (!line.enabled || !line.due(200)) return;
      const ended = c.completed + c.failed + c.invalid + c.unknown;
      const fresh = ended - c.earlier;
      const minutes = (Date.now() - started) / 60_000;
      const rate = fresh > 0 && minutes > 0 ? fresh / minutes : 0;
      const parts = [`${count(ended)}/${count(total)}`];
      if (c.failed) parts.push(`${count(c.failed)} failed`);
      if (c.pausedUntil) parts.push(`slowed by the service`);
      if (rate) parts.push(`${rate.toFixed(1)} runs/min`, `eta ${durationCompact(((total - ended) / rate) * 60_000)}`);
      line.show(parts.join(" · "));
    },
    clear: () => line.clear(),
  };
}
