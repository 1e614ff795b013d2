/** Human output: tables that fit where they go, and key/value blocks. JSON output needs no helper. */
import { Flags } from "@oclif/core";
import stringWidth from "string-width";
import { terminalLine } from "./terminal-text.js";

export interface Column<T> {
  header: string;
  get: (row: T) => unknown;
  /**
   * Never cut: what a reader copies into the next command (an address, a run id). Left whole even
   * when that makes the line wider than the terminal, which then wraps it.
   */
  keep?: boolean;
  /**
   * Shown whole or not at all: left out when the others cannot fit even cut to their least; lower
   * goes first. A column without it is cut instead.
   */
  drop?: number;
  /**
   * The least a cut column keeps while other columns can still be left out (default: its header,
   * and at least 6), so a cut text still says something; past that, it goes down to that default.
   */
  min?: number;
}

/** `--wide` on the list commands: every column, nothing cut. */
export const wideFlag = {
  wide: Flags.boolean({ description: "On a terminal, show every column in full instead of fitting the table to its width." }),
};

/** A value as one line of a table or a record: text from the service shown, never acting (terminal-text.ts). */
function cell(value: unknown): string {
  if (value === null || value === undefined) return "-";
  return terminalLine(typeof value === "object" ? JSON.stringify(value) : String(value));
}

/**
 * How a table is laid out: on a terminal, aligned columns that fit its width (the widest
 * column is cut short with `…`); anywhere else (a pipe, a file), tab-separated values with no
 * padding, no truncation and no header row, so `cut` and `awk` read them as they are (as `gh`
 * does).
 */
export type TableLayout = { kind: "terminal"; width: number } | { kind: "plain" };

/** Aligned and uncut, whatever the terminal's width (`--wide`); piped output stays plain. */
export function wideLayout(layout: TableLayout = stdoutLayout()): TableLayout {
  return layout.kind === "plain" ? layout : { kind: "terminal", width: Infinity };
}

/**
 * The layout for stdout: its width when it is a terminal (80 when the terminal does not say).
 * Piped, a list is tab-separated; a table inside a document (a script's contract) stays aligned,
 * at full width.
 */
export function stdoutLayout(
  { piped = "tsv" }: { piped?: "tsv" | "aligned" } = {},
  stream: { isTTY?: boolean; columns?: number } = process.stdout,
): TableLayout {
  if (stream.isTTY) return { kind: "terminal", width: stream.columns || 80 };
  return piped === "tsv" ? { kind: "plain" } : { kind: "terminal", width: Infinity };
}

const GAP = 2;
/** A column is never cut below this many characters (or its header). */
const MIN_WIDTH = 6;

/**
 * Columns a text takes on a terminal: a CJK character or most emoji take two, a combining mark
 * or a zero-width joiner none (string-width).
 */
const length = (text: string): number => stringWidth(text);

let graphemes: Intl.Segmenter | undefined;

/** The text cut to `width` columns with `…`, never splitting a character (or an emoji sequence). */
function fitCell(text: string, width: number): string {
  if (length(text) <= width) return text;
  graphemes ??= new Intl.Segmenter();
  let shown = "";
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const w = length(segment);
    if (used + w > width - 1) break;
    shown += segment;
    used += w;
  }
  return `${shown}…`;
}

/** The width of a line with these column widths. */
const total = (widths: number[]) => widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1);

/** Column widths that fit `width`: the widest column gives way first, one character at a time. */
function fitWidths(natural: number[], floors: number[], width: number): number[] {
  const widths = [...natural];
  let sum = total(widths);
  while (sum > width) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) {
      if (widths[i]! > floors[i]! && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
    }
    if (widest < 0) break; // every column at its floor: nothing more can give
    widths[widest]!--;
    sum--;
  }
  return widths;
}

/**
 * Rows as a table, laid out for where it is going (see TableLayout). On a terminal, columns
 * without `keep` are cut (the widest first) to fit its width, and when even that is not enough,
 * `drop` columns are left out; `keep` columns are always whole.
 *
 * @example
 * this.log(renderTable(runs, [{ header: "run id", get: (r) => r.id, keep: true }, { header: "status", get: (r) => r.status }]));
 */
export function renderTable<T>(rows: T[], allColumns: Column<T>[], layout: TableLayout = stdoutLayout()): string {
  if (layout.kind === "plain") {
    return rows.map((row) => allColumns.map((c) => cell(c.get(row))).join("\t")).join("\n");
  }
  let columns = allColumns;
  let body: string[][];
  let headers: string[];
  let widths: number[];
  for (;;) {
    body = rows.map((row) => columns.map((c) => cell(c.get(row))));
    headers = columns.map((c) => c.header.toUpperCase());
    const natural = columns.map((_, i) => Math.max(length(headers[i]!), ...body.map((r) => length(r[i]!))));
    const floors = (least: (c: Column<T>) => number) =>
      columns.map((c, i) => (c.keep || c.drop !== undefined ? natural[i]! : Math.min(natural[i]!, Math.max(least(c), length(headers[i]!)))));
    widths = fitWidths(
      natural,
      floors((c) => c.min ?? MIN_WIDTH),
      layout.width,
    );
    const droppable = columns.filter((c) => c.drop !== undefined);
    if (total(widths) <= layout.width) break;
    if (droppable.length === 0) {
      // Nothing left to leave out: cut below the comfortable least rather than spill over.
      widths = fitWidths(
        natural,
        floors(() => MIN_WIDTH),
        layout.width,
      );
      break;
    }
    const first = droppable.reduce((a, b) => (b.drop! < a.drop! ? b : a));
    columns = columns.filter((c) => c !== first);
  }
  const line = (cells: string[]) =>
    cells
      .map((text, i) => {
        const shown = fitCell(text, widths[i]!);
        return i === cells.length - 1 ? shown : shown + " ".repeat(Math.max(0, widths[i]! - length(shown)));
      })
      .join(" ".repeat(GAP))
      .trimEnd();
  return [line(headers), ...body.map(line)].join("\n");
}

export function renderFields(fields: Array<[string, unknown]>): string {
  const width = Math.max(...fields.map(([k]) => length(k)));
  return fields.map(([k, v]) => `${k}:${" ".repeat(width - length(k))} ${cell(v)}`).join("\n");
}

/** The note under a list when more pages exist. */
export function morePagesNote(shown: number, total: number | undefined, page: number, hasNextPage: boolean): string | undefined {
  if (!hasNextPage) return undefined;
  const of = total !== undefined ? ` of ${total}` : "";
  return `Showing ${shown}${of}. More with --page ${page + 1}, or everything with --all.`;
}
