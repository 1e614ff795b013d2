/**
 * What a run shows on the one status line (shell/status-line.ts) while it goes: the upload bar
 * while its files are sent (`Uploading [######------] 12.0 MB / 50.0 MB`), then how far the
 * service got (`running 3/5 · 1m12s`).
 */
import { formatBytes } from "../../core/bytes.js";
import type { RunStatusUpdate } from "../../run/outcomes.js";
import { statusLine } from "../shell/status-line.js";

/** Bodies smaller than this finish before a bar would help. */
const SHOW_FROM_BYTES = 1_000_000;

export function progressReporter(stream: NodeJS.WriteStream) {
  const line = statusLine(stream);
  return {
    update: ({ sent, total }: { sent: number; total: number }) => {
      if (!line.enabled || total < SHOW_FROM_BYTES) return;
      if (!line.due(100) && sent < total) return;
      const sizes = ` ${formatBytes(sent)} / ${formatBytes(total)}`;
      // The bar shrinks on a narrow terminal: a wrapped line could not be cleared.
      const width = Math.max(5, Math.min(24, line.width() - "Uploading [] ".length - sizes.length));
      const filled = Math.round((sent / total) * width);
      line.show(`Uploading [${"#".repeat(filled)}${"-".repeat(width - filled)}]${sizes}`);
    },
    done: () => line.clear(),
  };
}

/** "1m12s", "8s". */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s` : `${s}s`;
}

/**
 * `running 3/5 · 1m12s` on the status line while a run is polled (shell/status-line.ts), redrawn
 * each second so the time moves between polls.
 */
export function runStatusLine(stream: NodeJS.WriteStream) {
  const line = statusLine(stream);
  let last: RunStatusUpdate | undefined;
  let seenAt = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  const draw = () => {
    if (!last) return;
    const elapsed = last.elapsedMs + (Date.now() - seenAt);
    line.show(`${last.status} ${last.completed + last.failed}/${last.total} · ${formatElapsed(elapsed)}`);
  };
  return {
    update(u: RunStatusUpdate) {
      if (!line.enabled) return;
      last = u;
      seenAt = Date.now();
      draw();
      if (!timer) {
        timer = setInterval(draw, 1000);
        timer.unref();
      }
    },
    done() {
      if (timer) clearInterval(timer);
      timer = undefined;
      line.clear();
      last = undefined;
    },
  };
}
