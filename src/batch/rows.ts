/**
 * Rows from a file, streamed: a CSV (the header names the inputs) or JSONL (one object per
 * line). Memory stays flat however long the file is: one row at a time.
 *
 * CSV is read by csv-parse (quoted cells, embedded newlines, a BOM, CRLF), never by splitting on
 * commas. An empty CSV cell means "not given", so an optional input can be left blank.
 */
import { createReadStream } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";

/** One row's values by input name; `file:<input>` keys hold paths. */
export type RowValues = Record<string, unknown>;

/** A key under which a row carries why it could not be read (a JSONL line that is not an object). */
export const ROW_PROBLEM = "__reduckRowProblem";

/**
 * The file cannot be read as rows (missing, unknown extension, a CSV broken beyond one row).
 *
 * @example
 * try { for await (const row of readRows("people.csv")) use(row); }
 * catch (err) { if (err instanceof RowsError) console.error(err.message); } // "people.csv line 4: ..."
 */
export class RowsError extends Error {
  override name = "RowsError";
}

/** `csv` or `jsonl`, from the file's extension. */
export function rowsFormat(file: string): "csv" | "jsonl" {
  const ext = path.extname(file).toLowerCase();
  if (ext === ".csv") return "csv";
  if (ext === ".jsonl" || ext === ".ndjson") return "jsonl";
  throw new RowsError(`${file}: name it .csv (a header row, then one row per run) or .jsonl (one JSON object per line)`);
}

/**
 * Streams a CSV or JSONL file into rows, one object per run. A JSONL line that is not a JSON
 * object comes through as a row holding only `ROW_PROBLEM` (so a pre-flight can list it with
 * its row number); a file that cannot be read at all makes the iteration fail with a `RowsError`.
 *
 * @example
 * ```ts
 * import { readRows } from "reduck-client";
 * for await (const row of readRows("people.csv")) console.log(row); // { name: "Ada", "file:photo": "ada.png" }
 * ```
 */
export async function* readRows(file: string): AsyncGenerator<RowValues> {
  const format = rowsFormat(file);
  // 16 KiB reads, not 64: csv-parse turns a whole read into records at once, and each waits in
  // the stream until its turn, long enough to be promoted out of V8's young generation (a read of
  // short rows is thousands of them). Smaller reads keep a 100,000-row pre-flight's memory flat.
  const stream = createReadStream(file, { highWaterMark: 16 * 1024 });
  // An open error (no such file) surfaces here, as a RowsError, before any row.
  await new Promise<void>((resolve, reject) => {
    stream.once("open", () => resolve());
    stream.once("error", (err: NodeJS.ErrnoException) =>
      reject(
        new RowsError(
          err.code === "ENOENT"
            ? `${file} does not exist`
            : err.code === "EISDIR"
              ? `${file} is a folder, not a file`
              : `cannot read ${file} (${err.code ?? err.message})`,
        ),
      ),
    );
  });
  if (format === "jsonl") yield* jsonlRows(stream);
  else yield* csvRows(stream, file);
}

async function* jsonlRows(stream: NodeJS.ReadableStream): AsyncGenerator<RowValues> {
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let number = 0;
  for await (const raw of lines) {
    number++;
    const line = number === 1 ? raw.replace(/^\uFEFF/, "") : raw;
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      yield { [ROW_PROBLEM]: `line ${number} is not JSON (${(err as Error).message})` };
      continue;
    }
    if (!value || typeof value !== "object" || Array.isArray(value)) {
      yield { [ROW_PROBLEM]: `line ${number} must be a JSON object such as {"name": "value"}` };
      continue;
    }
    yield value as RowValues;
  }
}

async function* csvRows(stream: NodeJS.ReadableStream, file: string): AsyncGenerator<RowValues> {
  // Loaded when a CSV is read: a JSONL batch, and every other command, never pays for it.
  const { parse } = await import("csv-parse");
  const parser = stream.pipe(
    parse({
      bom: true,
      skip_empty_lines: true,
      columns: (header: string[]) => {
        const names = header.map((h) => h.trim());
        const seen = new Set<string>();
        for (const name of names) {
          if (!name) throw new RowsError(`${file}: the header has an empty column name: name every column after an input (or file:<input>)`);
          if (seen.has(name)) throw new RowsError(`${file}: the header names ${name} twice`);
          seen.add(name);
        }
        return names;
      },
    }),
  );
  try {
    for await (const record of parser as AsyncIterable<Record<string, string>>) {
      // The record itself, less its empty cells (a copy per row was garbage for nothing).
      for (const name in record) if (record[name] === "") delete record[name];
      yield record;
    }
  } catch (err) {
    if (err instanceof RowsError) throw err;
    const e = err as Error & { lines?: number; code?: string };
    throw new RowsError(`${file}${e.lines ? ` line ${e.lines}` : ""}: ${e.message.replace(/^Invalid Record Length: /, "")}`);
  } finally {
    (stream as unknown as { destroy?: () => void }).destroy?.();
  }
}
