/**
 * The upload bar while a run's files are sent, on the one status line (shell/status-line.ts):
 * `Uploading [######------] 12.0 MB / 50.0 MB`.
 */
import { formatBytes } from "../../core/bytes.js";
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
