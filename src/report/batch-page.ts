/**
 * A batch's report: one self-contained HTML file made from its results file. Counts by status, a
 * histogram of durations, the failures grouped by their error (with the rows of each group), and
 * every row, findable by its row number or run id (the browser's find). Built to stay usable at
 * 100,000 rows: the rows are plain text in blocks the browser lays out only when seen, groups and
 * lists are capped, and what is left out is said.
 */
import { isObject } from "../core/json.js";
import { batchStatus, type BatchStatus } from "./batch-status.js";
import { BatchTally, type ErrorGroup, hasEnded, type RowState, type TalliedRow } from "./batch-tally.js";
import { count } from "../core/words/count.js";
import { Budget, cut, duration, jsonBlock, page, text, when } from "./html.js";

export interface BatchReportOptions {
  /** The results file's name, shown as where the report comes from (a name, not a path: the page may travel). */
  source?: string;
  /** When the report was made (default: now). */
  generatedAt?: Date;
}

/** Rows listed one by one; past this the page says how many more the results file holds. */
const MAX_LISTED_ROWS = 150_000;
/** Rows per block of the list: the browser lays out a block only when it comes into view. */
const BLOCK_ROWS = 1_000;
/** Error groups shown; the rest are summed up. */
const MAX_GROUPS_SHOWN = 100;
/** Row numbers and run ids named per group. */
const GROUP_ROWS = 1_000;
const GROUP_RUN_IDS = 10;
/** Row numbers shown before a group's list folds. */
const INLINE_ROWS = 30;

const STATE_WORDS: Record<RowState, string> = {
  completed: "completed",
  failed: "failed",
  invalid: "invalid",
  unknown: "unknown",
  sending: "in flight",
  accepted: "in flight",
  unsent: "waiting",
};

const BUCKETS: Array<[number, string]> = [
  [1_000, "under 1 s"],
  [2_000, "1&ndash;2 s"],
  [5_000, "2&ndash;5 s"],
  [10_000, "5&ndash;10 s"],
  [20_000, "10&ndash;20 s"],
  [30_000, "20&ndash;30 s"],
  [60_000, "30&ndash;60 s"],
  [120_000, "1&ndash;2 min"],
  [300_000, "2&ndash;5 min"],
  [600_000, "5&ndash;10 min"],
  [Number.POSITIVE_INFINITY, "10 min or more"],
];

const pct = (x: number) => `${Math.max(0, Math.min(100, x)).toFixed(3)}%`;

/** `3, 5&ndash;9, 12`: sorted row numbers with runs drawn together, as HTML. */
function ranges(rows: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < rows.length; ) {
    let j = i;
    while (j + 1 < rows.length && rows[j + 1] === rows[j]! + 1) j++;
    parts.push(j > i ? `${rows[i]}&ndash;${rows[j]}` : String(rows[i]));
    i = j + 1;
  }
  return parts.join(", ");
}

function isIterable(value: unknown): value is Iterable<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === "function";
}

function tallyOf(results: unknown): BatchTally {
  if (results instanceof BatchTally) return results;
  const tally = new BatchTally();
  if (typeof results === "string") {
    for (const line of results.split("\n")) tally.addLine(line);
  } else if (Array.isArray(results)) {
    for (const value of results) tally.add(value);
  } else if (isIterable(results)) {
    for (const value of results) tally.add(value);
  } else if (results !== undefined && results !== null) tally.add(results);
  return tally;
}

function quantile(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** A stopped batch, said first and not in green: how far it got, why it stopped, the command that carries on. */
function stoppedCallout(status: BatchStatus, budget: Budget): string {
  if (status.state !== "stopped") return "";
  const stops = status.stops.map(
    (s) =>
      `<p>${s.source && status.stops.length > 1 ? `<code>${text(cut(s.source, 300, budget))}</code>: ` : ""}${text(cut(s.why, 2_000, budget))}${
        s.at ? ` <span class="muted">(${text(when(s.at))})</span>` : ""
      }</p>${s.resume ? `<p>To carry on: <code>${text(cut(s.resume, 4_000, budget))}</code></p>` : ""}`,
  );
  const said = status.summary.charAt(0).toUpperCase() + status.summary.slice(1);
  return `<div class="callout stopped" id="stopped"><b>${text(said)}.</b>${stops.join("")}</div>`;
}

function countsSection(counts: ReturnType<BatchTally["counts"]>, status: BatchStatus, budget: Budget): string {
  const inFlight = counts.sending + counts.accepted;
  // The input's rows when the journal records them: a stopped batch's unsent rows count too.
  const total = Math.max(counts.total, status.inputRows ?? 0);
  const neverSent = status.neverSent === undefined ? 0 : status.neverSent - counts.unsent;
  const tiles: Array<[string, number, string]> = [
    ["rows", total, ""],
    ["completed", counts.completed, "c-completed"],
    ["failed", counts.failed, "c-failed"],
    ["invalid", counts.invalid, "c-invalid"],
    ["unknown", counts.unknown, "c-unknown"],
    ["in flight", inFlight, "c-inflight"],
    ["waiting to be sent again", counts.unsent, "c-unknown"],
    ["never sent", neverSent, "c-never"],
  ];
  const shown = tiles.filter(([label, value]) => label === "rows" || label === "completed" || label === "failed" || value > 0);
  const stack = total
    ? `<div class="stack" title="rows by status">${tiles
        .slice(1)
        .filter(([, value]) => value > 0)
        .map(([label, value, cls]) => `<span class="${cls}" style="width:${pct((value / total) * 100)}" title="${label}: ${count(value)}"></span>`)
        .join("")}</div>`
    : "";
  const running =
    status.state !== "stopped" && (inFlight || counts.unsent)
      ? `<p class="muted">${count(inFlight + counts.unsent)} row${inFlight + counts.unsent === 1 ? " was" : "s were"} not finished when this report was made: the batch may still be running, or was stopped (<code>--resume</code> carries on).</p>`
      : "";
  const notYet =
    status.state === "unfinished" && neverSent > 0
      ? `<p class="muted">${count(neverSent)} of the input's ${count(total)} rows are not in the results file yet: the batch may still be running, or stopped without a word (a crash; <code>--resume</code> carries on).</p>`
      : "";
  return `${stoppedCallout(status, budget)}<h2 id="counts">Rows by status</h2><div class="tiles">${shown
    .map(([label, value]) => `<div class="tile"><b>${count(value)}</b>${label}</div>`)
    .join("")}</div>${stack}${running}${notYet}`;
}

function durationsSection(rows: TalliedRow[]): string {
  const ended = rows.filter((r) => hasEnded(r.state) && r.state !== "invalid");
  const values = new Float64Array(ended.length);
  let n = 0;
  for (const row of ended) if (row.durationMs !== undefined) values[n++] = row.durationMs;
  const sorted = values.subarray(0, n).sort();
  const missing = ended.length - n;
  const head = `<h2 id="durations">How long rows took</h2>`;
  if (!n) {
    return `${head}<p class="muted">No durations: the results file does not record when rows ended${
      ended.length ? "" : " (no row has ended yet)"
    }. Files written by this version of reduck do.</p>`;
  }
  const buckets = BUCKETS.map(([upTo, label]) => ({ upTo, label, rows: 0 }));
  for (const value of sorted) buckets.find((b) => value < b.upTo)!.rows++;
  const first = buckets.findIndex((b) => b.rows > 0);
  const last = buckets.length - 1 - [...buckets].reverse().findIndex((b) => b.rows > 0);
  const most = Math.max(...buckets.map((b) => b.rows));
  const bars = buckets
    .slice(first, last + 1)
    .map(
      (b) =>
        `<span>${b.label}</span><span class="track"><span class="bar" style="left:0;width:${pct((b.rows / most) * 100)}"></span></span><span class="dur">${count(b.rows)}</span>`,
    )
    .join("");
  const stats: Array<[string, number]> = [
    ["median", quantile(sorted, 0.5)],
    ["90th percentile", quantile(sorted, 0.9)],
    ["99th percentile", quantile(sorted, 0.99)],
    ["longest", sorted[n - 1]!],
  ];
  return `${head}<p class="muted">From a row's request going out to its outcome (rows sent together share their request), for ${count(n)} row${
    n === 1 ? "" : "s"
  }${missing ? `; ${count(missing)} ended without both times in the file and are not counted` : ""}.</p><dl class="facts">${stats
    .map(([k, v]) => `<dt>${k}</dt><dd>${duration(v)}</dd>`)
    .join("")}</dl><div class="hist">${bars}</div>`;
}

/** A group's rows: the first few in the line, all of them (up to GROUP_ROWS) a click away. */
function rowsOfGroup(rows: number[], more: number): string {
  const first = rows.slice(0, INLINE_ROWS);
  const rest = more > 0 ? ` <span class="muted">and ${count(more)} more (in the list of rows below)</span>` : "";
  if (first.length === rows.length) return `<p>Rows: <span class="mono">${ranges(rows)}</span>${rest}</p>`;
  return `<details><summary>Rows: <span class="mono">${ranges(first)}</span> &hellip; (${count(rows.length + more)} in all)</summary><p class="mono">${ranges(rows)}</p>${
    rest ? `<p>${rest}</p>` : ""
  }</details>`;
}

interface GroupRows {
  group: ErrorGroup;
  id: number;
  rows: number[];
  total: number;
  runIds: string[];
}

function failuresSection(tally: BatchTally, rows: TalliedRow[], budget: Budget, finished: boolean): string {
  const byGroup = new Map<number, GroupRows>();
  for (const row of rows) {
    if (row.group === undefined || !hasEnded(row.state)) continue;
    let entry = byGroup.get(row.group);
    if (!entry) byGroup.set(row.group, (entry = { group: tally.groups[row.group]!, id: row.group, rows: [], total: 0, runIds: [] }));
    entry.total++;
    if (entry.rows.length < GROUP_ROWS) entry.rows.push(row.row);
    if (row.runId && entry.runIds.length < GROUP_RUN_IDS) entry.runIds.push(row.runId);
  }
  const head = `<h2 id="failures">Failures by error</h2>`;
  if (!byGroup.size) return `${head}<p class="muted">No row failed${finished ? "" : " of those that ended"}.</p>`;
  // The most common first; groups of as many rows in the order of their first row (rows are
  // listed by number, so `rows[0]` is each group's first), never in the order the file met them.
  const groups = [...byGroup.values()].sort((a, b) => b.total - a.total || a.rows[0]! - b.rows[0]! || a.id - b.id);
  const shown = groups.slice(0, MAX_GROUPS_SHOWN);
  const items = shown.map((g) => {
    const label = `<span class="status ${g.group.status === "failed" ? "bad" : "warn"}">${text(g.group.status)}</span>${
      g.group.errorType ? ` <code>${text(cut(g.group.errorType, 200, budget))}</code>` : ""
    }`;
    const more = g.total - g.rows.length;
    return `<li id="error-${g.id + 1}" class="step"><h3>#${g.id + 1} &middot; ${count(g.total)} row${g.total === 1 ? "" : "s"} &middot; ${label}</h3>
<pre>${text(cut(g.group.example, 2_000, budget))}</pre>${g.group.varies ? `<p class="muted">The rows' messages differ from this one in ids or numbers.</p>` : ""}
${rowsOfGroup(g.rows, more)}${
  g.runIds.length
    ? `<p class="muted">Runs: <span class="mono">${g.runIds.map((id) => text(cut(id, 100, budget))).join(" ")}</span>${g.total > g.runIds.length ? " &hellip;" : ""}</p>`
    : ""
}</li>`;
  });
  const hidden = groups.slice(MAX_GROUPS_SHOWN);
  const hiddenRows = hidden.reduce((sum, g) => sum + g.total, 0);
  return `${head}<p class="muted">${count(groups.length)} kind${groups.length === 1 ? "" : "s"} of error, the most common first. Look at a run with <code>reduck runs trace RUN_ID --open</code>.</p><ol class="steps">${items.join(
    "",
  )}</ol>${hidden.length ? `<p class="muted">${count(hidden.length)} rarer kinds of error (${count(hiddenRows)} rows) are left out here; their rows are in the list below.</p>` : ""}`;
}

function rowsSection(rows: TalliedRow[]): string {
  if (!rows.length) return `<h2 id="rows">Every row</h2><p class="muted">The results file holds no row yet.</p>`;
  const listed = rows.slice(0, MAX_LISTED_ROWS);
  const width = String(listed[listed.length - 1]!.row).length;
  const blocks: string[] = [];
  for (let i = 0; i < listed.length; i += BLOCK_ROWS) {
    const lines: string[] = [];
    for (const row of listed.slice(i, i + BLOCK_ROWS)) {
      // ASCII only, so the list (most of a big report) stays a one-byte string in memory.
      const id = row.runId ? text(row.runId) : "-";
      const took = row.durationMs === undefined ? "" : `  ${duration(row.durationMs)}`;
      const error = row.group === undefined ? "" : `  error #${row.group + 1}`;
      lines.push(`row ${String(row.row).padEnd(width)}  ${STATE_WORDS[row.state].padEnd(9)}  ${id}${took}${error}`);
    }
    const size = lines.length;
    // content-visibility: a block is laid out only when scrolled to, yet found by the browser's find.
    blocks.push(`<pre class="rows" style="contain-intrinsic-size:auto ${(size * 1.45).toFixed(1)}em">${lines.join("\n")}</pre>`);
  }
  const more = rows.length - listed.length;
  return `<h2 id="rows">Every row</h2><p class="muted">Find a row with your browser's find (Ctrl+F, &#8984;F): <code>row 42 </code> or a run id. ${count(
    rows.length,
  )} row${rows.length === 1 ? "" : "s"}, by number.</p><div class="rowlist">${blocks.join("")}</div>${
    more > 0
      ? `<p class="muted">${count(more)} more rows are not listed here (the page lists ${count(MAX_LISTED_ROWS)}): they are in the results file.</p>`
      : ""
  }`;
}

function reportBody(tally: BatchTally, options: BatchReportOptions, budget: Budget): { title: string; body: string } {
  const rows = tally.rows();
  const counts = tally.counts();
  const header = tally.header;
  const script = header?.script;
  const generated = options.generatedAt instanceof Date && !Number.isNaN(options.generatedAt.getTime()) ? options.generatedAt : new Date();
  const shards = tally.files.flatMap((f) => (f.shard ? [f.shard] : []));
  const facts: Array<[string, string | undefined]> = [
    ["Script", script && `<code>${text(cut(script, 300, budget))}</code>`],
    ["Version", header?.versionId && `<code>${text(cut(header.versionId, 100, budget))}</code>`],
    ["Results file", typeof options.source === "string" && options.source ? `<code>${text(cut(options.source, 300, budget))}</code>` : undefined],
    ["Shards", shards.length ? text(cut(shards.join(", "), 300, budget)) : undefined],
    ["Lines read", `${count(tally.lines)}${tally.ignored ? `, ${count(tally.ignored)} not journal lines (ignored)` : ""}`],
    ["Made", text(when(generated.toISOString()))],
  ];
  const shared =
    header && header.shared !== undefined && !(isObject(header.shared) && !Object.keys(header.shared).length)
      ? `<h3>Arguments given for every row</h3>${jsonBlock(header.shared, budget, { depth: 6, entries: 100, string: 2_000, total: 20_000 })}`
      : "";
  const warnings = tally.warnings.length
    ? `<h2 id="warnings">Lines left out</h2><ul>${tally.warnings.map((w) => `<li>${text(w)}</li>`).join("")}</ul>${
        tally.ignored > tally.warnings.length ? `<p class="muted">and ${count(tally.ignored - tally.warnings.length)} more.</p>` : ""
      }`
    : "";
  // The title is text (page() escapes it): a middle dot as itself, not as an entity.
  const status = batchStatus(tally);
  const title = `Batch report${script ? `: ${script}` : ""} \u00b7 ${count(Math.max(counts.total, status.inputRows ?? 0))} rows${status.state === "stopped" ? " \u00b7 stopped" : ""}`;
  const body = [
    `<h1>${text(cut(`Batch report${script ? `: ${script}` : ""}`, 320, budget))}</h1>`,
    `<dl class="facts two">${facts
      .filter((f): f is [string, string] => Boolean(f[1]))
      .map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`)
      .join("")}</dl>`,
    shared,
    countsSection(counts, status, budget),
    durationsSection(rows),
    failuresSection(tally, rows, budget, status.state === "finished"),
    rowsSection(rows),
    warnings,
    `<p class="muted" style="margin-top:40px">Made by reduck-client. This page makes no requests: all it shows is inside it.</p>`,
  ];
  return { title, body: body.filter(Boolean).join("\n") };
}

/**
 * A batch's report, as one self-contained HTML document (a string), from its results: the text of
 * a results file (JSONL), its lines as values (or `runMany`'s outcomes), or a `BatchTally` fed line
 * by line (for a file too large to hold as text). Like the run's page it makes no request, runs no
 * script, shows every string as text, and never throws. At 100,000 rows it is about 7 MB.
 *
 * @example
 * ```ts
 * import { createReadStream, writeFileSync } from "node:fs";
 * import { createInterface } from "node:readline";
 * import { BatchTally, renderBatchReportHtml } from "reduck-client/report";
 *
 * const tally = new BatchTally();
 * for await (const line of createInterface({ input: createReadStream("people.results.jsonl") })) tally.addLine(line);
 * writeFileSync("report.html", renderBatchReportHtml(tally, { source: "people.results.jsonl" }));
 * ```
 */
export function renderBatchReportHtml(results: string | Iterable<unknown> | BatchTally, options: BatchReportOptions = {}): string {
  const budget = new Budget(4_000_000);
  try {
    const { title, body } = reportBody(tallyOf(results), isObject(options) ? options : {}, budget);
    return page(title, body);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return page("Batch report", `<h1>Batch report</h1><p>The results could not be shown: ${text(cut(why, 2_000, new Budget(10_000)))}</p>`);
  }
}
