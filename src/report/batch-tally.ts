/**
 * A batch's results file (the journal `reduck batch` and `runMany` write), read line by line into
 * what its report shows: each row's last state, failures grouped by their error, durations. It
 * keeps a few numbers per row and one example per kind of error, never a row's result, so a
 * 100,000-row file is read in a few tens of MiB; a running batch's file (rows still in flight, a
 * last line half written) reads as well as a finished one's.
 */
import { isObject } from "../core/json.js";

/** A row's state: its outcome, or in flight (`sending`, `accepted`), or refused for now (`unsent`). */
export type RowState = "completed" | "failed" | "invalid" | "unknown" | "sending" | "accepted" | "unsent";

const STATES: readonly RowState[] = ["completed", "failed", "invalid", "unknown", "sending", "accepted", "unsent"];
const OUTCOMES = new Set<RowState>(["completed", "failed", "invalid", "unknown"]);

/** One row of the input, as the results file last left it. */
export interface TalliedRow {
  /** Its number in the input (1 = the first row after a CSV header). */
  row: number;
  state: RowState;
  runId: string | undefined;
  /** From its request going out to its outcome, when the file has both times. */
  durationMs: number | undefined;
  /** Its error's group (an index into `groups`), for rows that did not complete. */
  group: number | undefined;
  /** When its last request went out (ms since the epoch). */
  sentAt: number | undefined;
}

/** Rows that ended with the same error (ids and long numbers aside). */
export interface ErrorGroup {
  status: string;
  errorType: string | undefined;
  /** The first message seen, whole up to 2,000 characters. */
  example: string;
  /** Whether other rows' messages differ from the example (in ids or numbers). */
  varies: boolean;
}

/** The batch's own line: what every row ran with. */
export interface TalliedHeader {
  script: string | undefined;
  versionId: string | undefined;
  shared: unknown;
}

/** One results file as its last process left it: the rows it was to run, and whether it stopped early. */
export interface TalliedFile {
  /** Its name, as given to `startFile`. */
  source: string | undefined;
  /** Rows its input holds (its shard's), from its last `started` line, when that says. */
  rows: number | undefined;
  shard: string | undefined;
  /** Whether any process recorded its start (journals written before these lines do not). */
  started: boolean;
  /** Its last process stopped before every row ended (a later start clears it). */
  stopped: { at: string | undefined; why: string; resume: string | undefined } | undefined;
}

/** Distinct errors kept; the ones after fall into one "other errors" group. */
const MAX_GROUPS = 1_000;
/** Warnings kept (lines that are not journal lines); the rest are counted. */
const MAX_WARNINGS = 20;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** What makes two errors the same: ids, hex and numbers do not count (`timeout on row 11` and `on row 22` are one kind). */
function errorKey(status: string, errorType: string | undefined, message: string): string {
  const general = message
    .slice(0, 500)
    .replace(UUID, "<id>")
    .replace(/\b[0-9a-f]{16,}\b/gi, "<hex>")
    .replace(/\d+/g, "<n>");
  return `${status}\u0000${errorType ?? ""}\u0000${general}`;
}

const str = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);
/** A run id as the file gives it, bounded (an id is 36 characters; a longer one is no id to keep whole). */
const runIdOf = (value: unknown): string | undefined => str(value)?.slice(0, 100);

function timeOf(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}

/**
 * A batch's results, line by line. Give it each line of a results file (`addLine`, text) or each
 * journal line or `runMany` outcome as a value (`add`); read the rows and groups at any point.
 * Never throws: a line that is not a journal line is counted and named in `warnings`.
 *
 * @example
 * const tally = new BatchTally();
 * for await (const line of readline.createInterface({ input: createReadStream("people.results.jsonl") })) tally.addLine(line);
 * console.log(tally.counts());
 */
export class BatchTally {
  header: TalliedHeader | undefined;
  /** Lines read. */
  lines = 0;
  /** Lines that are not journal lines. */
  ignored = 0;
  readonly warnings: string[] = [];
  readonly groups: ErrorGroup[] = [];
  /** Rows that fell past MAX_GROUPS distinct errors share this group. */
  private otherGroup: number | undefined;
  private readonly groupIds = new Map<string, number>();
  private readonly byKey = new Map<string, TalliedRow>();
  /** The results files read, in order (one, unnamed, when lines come without `startFile`). */
  readonly files: TalliedFile[] = [];

  /**
   * Starts reading another results file (one shard's, say): its lines follow. A row found in
   * several files (the same key) is counted once, as the last file read leaves it.
   */
  startFile(source?: string): void {
    this.files.push({ source, rows: undefined, shard: undefined, started: false, stopped: undefined });
  }

  private file(): TalliedFile {
    if (!this.files.length) this.startFile();
    return this.files[this.files.length - 1]!;
  }

  /** Reads one line of a results file (a torn or foreign line is counted, not fatal). */
  addLine(line: string): void {
    this.lines++;
    if (typeof line !== "string" || !line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.ignore(`line ${this.lines} is not JSON (a line still being written, or not a results file)`);
      return;
    }
    this.takeSafely(value);
  }

  /** Takes one journal line (or a `runMany` outcome) as a value. */
  add(value: unknown): void {
    this.lines++;
    this.takeSafely(value);
  }

  private takeSafely(value: unknown): void {
    try {
      this.take(value);
    } catch (err) {
      this.ignore(`line ${this.lines} could not be read (${err instanceof Error ? err.message : String(err)})`);
    }
  }

  private ignore(why: string): void {
    this.ignored++;
    if (this.warnings.length < MAX_WARNINGS) this.warnings.push(why);
  }

  private take(value: unknown): void {
    if (!isObject(value)) return this.ignore(`line ${this.lines} is not a journal line`);
    const status = value.status;
    if (status === "batch") {
      this.header ??= { script: str(value.script), versionId: str(value.versionId), shared: value.shared };
      return;
    }
    if (status === "started") {
      const rows = typeof value.rows === "number" && Number.isSafeInteger(value.rows) && value.rows >= 0 ? value.rows : undefined;
      Object.assign(this.file(), { started: true, rows, shard: str(value.shard)?.slice(0, 40), stopped: undefined });
      return;
    }
    if (status === "stopped") {
      const why = str(value.why)?.slice(0, 2_000) ?? "stopped";
      this.file().stopped = { at: str(value.at), why, resume: str(value.resume)?.slice(0, 4_000) };
      return;
    }
    const row = value.row;
    if (typeof status !== "string" || !STATES.includes(status as RowState) || typeof row !== "number" || !Number.isSafeInteger(row)) {
      return this.ignore(`line ${this.lines} is not a journal line`);
    }
    const key = typeof value.key === "string" && value.key ? value.key : `row ${row}`;
    let entry = this.byKey.get(key);
    if (!entry) {
      entry = { row, state: status as RowState, runId: undefined, durationMs: undefined, group: undefined, sentAt: undefined };
      this.byKey.set(key, entry);
    }
    entry.row = row;
    const state = status as RowState;
    switch (state) {
      case "sending":
        // Sent (again): in flight, whatever it was before.
        entry.state = "sending";
        entry.sentAt = timeOf(value.at);
        entry.runId = undefined;
        entry.durationMs = undefined;
        entry.group = undefined;
        return;
      case "accepted":
        entry.state = "accepted";
        entry.runId = runIdOf(value.runId) ?? entry.runId;
        return;
      case "unsent":
        entry.state = "unsent";
        return;
      default: {
        entry.state = state;
        entry.runId = runIdOf(value.runId);
        const ended = timeOf(value.at);
        entry.durationMs = ended !== undefined && entry.sentAt !== undefined && ended >= entry.sentAt ? ended - entry.sentAt : undefined;
        entry.group = state === "completed" ? undefined : this.groupOf(state, str(value.errorType), value.error);
      }
    }
  }

  private groupOf(status: string, errorType: string | undefined, error: unknown): number {
    const message = typeof error === "string" ? saidOnce(error) : error === undefined || error === null ? "(no error given)" : safeJson(error);
    const key = errorKey(status, errorType, message);
    const known = this.groupIds.get(key);
    if (known !== undefined) {
      const group = this.groups[known]!;
      if (!group.varies && message.slice(0, 2_000) !== group.example) group.varies = true;
      return known;
    }
    if (this.groups.length >= MAX_GROUPS) {
      if (this.otherGroup === undefined) {
        this.otherGroup = this.groups.length;
        this.groups.push({
          status: "other",
          errorType: undefined,
          example: `Errors past the first ${MAX_GROUPS} kinds, together`,
          varies: true,
        });
      }
      return this.otherGroup;
    }
    const id = this.groups.length;
    this.groups.push({ status, errorType, example: message.slice(0, 2_000), varies: false });
    this.groupIds.set(key, id);
    return id;
  }

  /** Every row the file names, by row number (a row edited between runs may appear twice). */
  rows(): TalliedRow[] {
    return [...this.byKey.values()].sort((a, b) => a.row - b.row);
  }

  /** How many rows are in each state. */
  counts(): Record<RowState, number> & { total: number } {
    const counts = Object.fromEntries(STATES.map((s) => [s, 0])) as Record<RowState, number>;
    for (const row of this.byKey.values()) counts[row.state]++;
    return { ...counts, total: this.byKey.size };
  }
}

/** Whether a row's state is an outcome (it ended), not in flight. */
export function hasEnded(state: RowState): boolean {
  return OUTCOMES.has(state);
}

/**
 * An error journaled by an earlier version as `X (its service's words)` when those words held X
 * whole (`Error: Out of stock (reduck/x.com/y failed on the site: Out of stock)`): the words
 * alone, as rows journaled now say it.
 */
function saidOnce(message: string): string {
  if (message.length > 4_000 || !message.endsWith(")")) return message;
  const open = message.indexOf(" (");
  if (open < 0) return message;
  const [error, words] = [message.slice(0, open).replace(/^\w*Error: /, ""), message.slice(open + 2, -1)];
  return words === error || words.endsWith(`: ${error}`) ? words : message;
}

function safeJson(value: unknown): string {
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, 2_000);
  } catch {
    return "(an error that is not JSON)";
  }
}
