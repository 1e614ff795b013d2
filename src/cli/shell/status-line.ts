/**
 * One line of progress on stderr, redrawn in place (an upload bar, a run's status, a deploy, a
 * batch), when stderr is a terminal; nothing at all otherwise, so pipes, logs and CI stay clean.
 * Each redraw returns to the start of the line and clears it, so a shorter line never leaves the
 * end of a longer one behind; a line is cut to the terminal's width, as a wrapped one could not be
 * cleared.
 */
const CLEAR_LINE = "\r\x1b[K";

export interface StatusLine {
  /** Whether anything is drawn at all (a terminal, not CI, and wanted). */
  readonly enabled: boolean;
  /** The columns a line may take. */
  width(): number;
  /** Whether `ms` have passed since the last draw: for callers that redraw at most so often. */
  due(ms: number): boolean;
  /** Replaces the line with `text`. */
  show(text: string): void;
  /** Clears the line, if one is shown, before other output or at the end. */
  clear(): void;
}

/**
 * @example
 * const line = statusLine(process.stderr, !json);
 * if (line.due(100)) line.show(`Uploading ${sent} / ${total}`);
 * line.clear();
 */
export function statusLine(stream: NodeJS.WriteStream, wanted = true): StatusLine {
  const enabled = wanted && Boolean(stream.isTTY) && !process.env.CI;
  let shown = false;
  let last = 0;
  const width = () => (stream.columns || 80) - 1;
  return {
    enabled,
    width,
    due: (ms) => Date.now() - last >= ms,
    show(text) {
      if (!enabled) return;
      last = Date.now();
      stream.write(`${CLEAR_LINE}${text.slice(0, width())}`);
      shown = true;
    },
    clear() {
      if (shown) stream.write(CLEAR_LINE);
      shown = false;
    },
  };
}
