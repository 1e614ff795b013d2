/** Human output: tables that fit where they go, and key/value blocks. JSON output needs no helper. */

export interface Column<T> {
  header: string;
  get: (row: T) => unknown;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return "-";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value).replace(/\s+/g, " ");
}

/**
 * How a table is laid out: on a terminal, aligned columns that fit its width (the widest
 * column is cut short with `…`); anywhere else (a pipe, a file), tab-separated values with no
 * padding, no truncation and no header row, so `cut` and `awk` read them as they are (as `gh`
 * does).
 */
export type TableLayout = { kind: "terminal"; width: number } | { kind: "plain" };

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

/** Length in characters (code points), not UTF-16 units. */
function length(text: string): number {
  return [...text].length;
}

function fit(text: string, width: number): string {
  const chars = [...text];
  return chars.length <= width ? text : `${chars.slice(0, Math.max(0, width - 1)).join("")}…`;
}

/** Column widths that fit `width`: the widest column gives way first, one character at a time. */
function fitWidths(natural: number[], floors: number[], width: number): number[] {
  const widths = [...natural];
  let total = widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1);
  while (total > width) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) {
      if (widths[i]! > floors[i]! && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
    }
    if (widest < 0) break; // every column at its floor: nothing more can give
    widths[widest]!--;
    total--;
  }
  return widths;
}

/**
 * Rows as a table, laid out for where it is going (see TableLayout).
 *
 * @example
 * this.log(renderTable(runs, [{ header: "run id", get: (r) => r.id }, { header: "status", get: (r) => r.status }]));
 */
export function renderTable<T>(
  rows: T[],
  columns: Column<T>[],
  layout: TableLayout = stdoutLayout(),
): string {
  const body = rows.map((row) => columns.map((c) => cell(c.get(row))));
  const headers = columns.map((c) => c.header.toUpperCase());
  if (layout.kind === "plain") {
    return body.map((cells) => cells.join("\t")).join("\n");
  }
  const natural = columns.map((_, i) => Math.max(length(headers[i]!), ...body.map((r) => length(r[i]!))));
  const floors = headers.map((h, i) => Math.min(natural[i]!, Math.max(MIN_WIDTH, length(h))));
  const widths = fitWidths(natural, floors, layout.width);
  const line = (cells: string[]) =>
    cells
      .map((text, i) => {
        const shown = fit(text, widths[i]!);
        return i === cells.length - 1 ? shown : shown + " ".repeat(widths[i]! - length(shown));
      })
      .join(" ".repeat(GAP))
      .trimEnd();
  return [line(headers), ...body.map(line)].join("\n");
}

export function renderFields(fields: Array<[string, unknown]>): string {
  const width = Math.max(...fields.map(([k]) => k.length));
  return fields.map(([k, v]) => `${`${k}:`.padEnd(width + 1)} ${cell(v)}`).join("\n");
}

/** The note under a list when more pages exist. */
export function morePagesNote(shown: number, total: number | undefined, page: number, hasNextPage: boolean): string | undefined {
  if (!hasNextPage) return undefined;
  const of = total !== undefined ? ` of ${total}` : "";
  return `Showing ${shown}${of}. More with --page ${page + 1}, or everything with --all.`;
}
