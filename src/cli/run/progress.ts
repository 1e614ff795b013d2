/**
 * An upload progress bar on stderr when it is a terminal; nothing otherwise, so logs and
 * pipes stay clean. Each redraw returns to the start of the line and clears it, so a shorter
 * line never leaves the end of a longer one behind.
 */
import { formatBytes } from "../../core/bytes.js";

/** Bodies smaller than this finish before a bar would help. */
const SHOW_FROM_BYTES = 1_000_000;
const CLEAR_LINE = "\r\x1b[K";

export function progressReporter(stream: NodeJS.WriteStream) {
  const enabled = Boolean(stream.isTTY) && !process.env.CI;
  let last = 0;
  let shown = false;
  return {
    update: ({ sent, total }: { sent: number; total: number }) => {
      if (!enabled || total < SHOW_FROM_BYTES) return;
      const now = Date.now();
      if (now - last < 100 && sent < total) return;
      last = now;
      const sizes = ` ${formatBytes(sent)} / ${formatBytes(total)}`;
      // The bar shrinks on a narrow terminal: a wrapped line could not be cleared.
      const width = Math.max(5, Math.min(24, (stream.columns || 80) - "Uploading [] ".length - sizes.length - 1));
      const filled = Math.round((sent / total) * width);
      stream.write(`${CLEAR_LINE}Uploading [${"#".repeat(filled)}${"-".repeat(width - filled)}]${sizes}`);
      shown = true;
    },
    done: () => {
      if (shown) stream.write(CLEAR_LINE);
      shown = false;
    },
  };
}
