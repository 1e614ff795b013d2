/** Human output: aligned tables and key/value blocks. JSON output needs no helper. */

export interface Column<T> {
  header: string;
  get: (row: T) => unknown;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return "-";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value).replace(/\s+/g, " ");
}

export function renderTable<T>(rows: T[], columns: Column<T>[]): string {
  const body = rows.map((row) => columns.map((c) => cell(c.get(row))));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((text, i) => (i === cells.length - 1 ? text : text.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(columns.map((c) => c.header.toUpperCase())), ...body.map(line)].join("\n");
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
