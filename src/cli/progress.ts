import { formatBytes } from "../run/limits.js";

/**
 * An upload progress bar on stderr when it is a terminal; nothing otherwise, so logs and
 * pipes stay clean.
 */
export function progressReporter(stream: NodeJS.WriteStream) {
  const enabled = Boolean(stream.isTTY) && !process.env.CI;
  let last = 0;
  let shown = false;
  return {
    update: ({ sent, total }: { sent: number; total: number }) => {
      if (!enabled || total < 1024 * 1024) return; // small bodies finish before a bar helps
      const now = Date.now();
      if (now - last < 100 && sent < total) return;
      last = now;
      const width = 24;
      const filled = Math.round((sent / total) * width);
      const bar = "#".repeat(filled) + "-".repeat(width - filled);
      stream.write(`\rUploading [${bar}] ${formatBytes(sent)} / ${formatBytes(total)}`);
      shown = true;
    },
    done: () => {
      if (shown) stream.write("\r\x1b[K");
      shown = false;
    },
  };
}
