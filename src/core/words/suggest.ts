/**
 * "Did you mean ...?": the closest candidates to a mistyped word (a command, a flag, a slug).
 * Distance counts a swap of two neighbouring letters as one edit, so `rnus` is one edit from
 * `runs` (and two from `run`), and `scirpts` one from `scripts`.
 */

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** How far a word may be from a candidate and still look like a typo of it. */
function tolerance(word: string): number {
  return Math.max(2, Math.floor(word.length / 3));
}

/**
 * The candidates that look like typos of `word`, closest first (ties keep the candidates' order).
 *
 * @example
 * closestMatches("rnus", ["run", "runs", "scripts"]); // ["runs", "run"]
 */
export function closestMatches(word: string, candidates: Iterable<string>, max = 3): string[] {
  const limit = tolerance(word);
  return [...new Set(candidates)]
    .map((candidate, order) => ({ candidate, order, distance: editDistance(word.toLowerCase(), candidate.toLowerCase()) }))
    .filter((c) => c.distance <= limit && c.candidate !== word)
    .sort((x, y) => x.distance - y.distance || x.order - y.order)
    .slice(0, max)
    .map((c) => c.candidate);
}

/**
 * The one candidate `word` most likely meant, if any looks like a typo of it.
 *
 * @example
 * closest("scrpts", ["run", "scripts"]); // "scripts"
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  return closestMatches(word, candidates, 1)[0];
}
