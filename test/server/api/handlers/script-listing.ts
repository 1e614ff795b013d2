// Filtering, search ranking and sorting shared by listAllScripts and listScripts.
import type { ScriptRecord } from "../../store/records.js";
import type { SandboxStore, ScriptStats } from "../../store/store.js";

export type SortBy = "relevance" | "featured" | "name" | "host" | "runs" | "successRate" | "avgTime" | "lastRunAt" | "createdAt" | "updatedAt";

export type Health = "healthy" | "degraded" | "failing" | "unknown";

export interface ListingQuery {
  host?: string;
  slug?: string;
  q?: string;
  visibility?: "private" | "public";
  /** "true" archived only, "false" active only, undefined both. */
  archived?: "true" | "false";
  status?: Health;
  sortBy?: SortBy;
  order?: "asc" | "desc";
}

/** Health from the success rate of finished runs: no finished run yet is `unknown`. */
export function health(stats: ScriptStats): Health {
  if (stats.success_rate === null) return "unknown";
  if (stats.success_rate >= 0.9) return "healthy";
  if (stats.success_rate >= 0.5) return "degraded";
  return "failing";
}

/**
 * Relevance of a script to a search: every word must appear in host, slug, name or description
 * (case-insensitive); matches in the slug and name weigh more than in the description. 0 = no match.
 */
export function relevance(script: ScriptRecord, q: string): number {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const slug = script.slug.toLowerCase();
  const fields = [
    { text: slug.replace(/[_-]/g, " ") + " " + slug, weight: 5 },
    { text: script.name.toLowerCase(), weight: 4 },
    { text: script.host.toLowerCase(), weight: 3 },
    { text: script.description.toLowerCase(), weight: 1 },
  ];
  let score = 0;
  for (const word of words) {
    const wordScore = fields.reduce((sum, f) => sum + (f.text.includes(word) ? f.weight : 0), 0);
    if (wordScore === 0) return 0;
    score += wordScore;
  }
  if (slug === q.toLowerCase() || script.name.toLowerCase() === q.toLowerCase()) score += 10;
  return score;
}

// Natural direction of each sort key when `order` is not given.
const DEFAULT_ORDER: Record<SortBy, "asc" | "desc"> = {
  relevance: "desc",
  featured: "desc",
  name: "asc",
  host: "asc",
  runs: "desc",
  successRate: "desc",
  avgTime: "asc",
  lastRunAt: "desc",
  createdAt: "desc",
  updatedAt: "desc",
};

/** Applies the filters, then sorts. Without `q` the standard order is by name (then host, slug). */
export function filterAndSort(store: SandboxStore, scripts: ScriptRecord[], query: ListingQuery): ScriptRecord[] {
  const host = query.host?.toLowerCase();
  const rows = scripts
    .filter((s) => !host || s.host.toLowerCase().includes(host))
    .filter((s) => !query.slug || s.slug === query.slug)
    .filter((s) => !query.visibility || s.visibility === query.visibility)
    .filter((s) => query.archived === undefined || (query.archived === "true") === (s.archivedAt !== null))
    .map((script) => ({ script, stats: store.stats(script.id), score: query.q ? relevance(script, query.q) : 0 }))
    .filter((r) => !query.q || r.score > 0)
    .filter((r) => !query.status || health(r.stats) === query.status);

  // relevance means nothing without q: fall back to the standard order.
  const sortBy: SortBy = query.sortBy && !(query.sortBy === "relevance" && !query.q) ? query.sortBy : query.q ? "relevance" : "name";
  const direction = (query.order ?? DEFAULT_ORDER[sortBy]) === "asc" ? 1 : -1;
  type Row = (typeof rows)[number];
  // Nulls (never ran) always go last, whatever the direction.
  const byNullable = (a: number | string | null, b: number | string | null) =>
    a === null && b === null ? 0 : a === null ? Infinity : b === null ? -Infinity : a < b ? -direction : a > b ? direction : 0;
  const key: Record<SortBy, (a: Row, b: Row) => number> = {
    relevance: (a, b) => direction * (a.score - b.score),
    featured: (a, b) =>
      direction * (Number(store.isOfficial(a.script.owner)) - Number(store.isOfficial(b.script.owner))) ||
      direction * (a.stats.execution_count - b.stats.execution_count),
    name: (a, b) => direction * a.script.name.localeCompare(b.script.name),
    host: (a, b) => direction * a.script.host.localeCompare(b.script.host),
    runs: (a, b) => direction * (a.stats.execution_count - b.stats.execution_count),
    successRate: (a, b) => byNullable(a.stats.success_rate, b.stats.success_rate),
    avgTime: (a, b) => byNullable(a.stats.avg_time_ms, b.stats.avg_time_ms),
    lastRunAt: (a, b) => byNullable(a.stats.last_run_at, b.stats.last_run_at),
    createdAt: (a, b) => direction * a.script.createdAt.localeCompare(b.script.createdAt),
    updatedAt: (a, b) => direction * a.script.updatedAt.localeCompare(b.script.updatedAt),
  };
  // Ties break on a stable, direction-independent order so pages never overlap.
  const tieBreak = (a: Row, b: Row) =>
    a.script.name.localeCompare(b.script.name) ||
    a.script.host.localeCompare(b.script.host) ||
    a.script.slug.localeCompare(b.script.slug) ||
    a.script.id.localeCompare(b.script.id);
  return rows.sort((a, b) => key[sortBy](a, b) || tieBreak(a, b)).map((r) => r.script);
}
