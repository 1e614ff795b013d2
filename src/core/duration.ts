/**
 * How long something takes, in the two forms the CLI and the library print: words for messages
 * ("no answer within 5 minutes") and a compact form for a progress line that is redrawn ("eta 4m10s").
 */

/**
 * For messages: 200 -> "200 ms", 1500 -> "1.5 seconds", 1000 -> "1 second", 90000 -> "90 seconds",
 * 300000 -> "5 minutes" (whole minutes only; anything else stays in seconds, as it was given).
 */
export function durationInWords(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms < 10_000 ? Number((ms / 1000).toFixed(1)) : Math.round(ms / 1000);
  if (s >= 60 && s % 60 === 0) return s === 60 ? "1 minute" : `${s / 60} minutes`;
  return s === 1 ? "1 second" : `${s} seconds`;
}

/** For a progress line: 12000 -> "12s", 250000 -> "4m10s", 5220000 -> "1h27m". */
export function durationCompact(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${s}s`;
}
