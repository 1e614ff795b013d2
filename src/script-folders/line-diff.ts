/**
 * A unified diff of two texts by lines (Myers' O(ND) shortest edit script), with three lines of
 * context around each change, as `diff -u` and git print it.
 */

type Edit = { kind: " " | "-" | "+"; line: string };

function lines(text: string): string[] {
  if (text === "") return [];
  const parts = text.split("\n");
  if (parts[parts.length - 1] === "") parts.pop();
  return parts;
}

/** The shortest edit script from a to b, as kept, removed and added lines in order. */
function editScript(a: string[], b: string[]): Edit[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  // Walk the trace back from the end.
  const edits: Edit[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && vd[offset + k - 1]! < vd[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : vd[offset + prevK]!;
    const prevY = d === 0 ? 0 : prevX - prevK;
    while (x > prevX && y > prevY) {
      y--;
      edits.push({ kind: " ", line: a[--x]! });
    }
    if (d === 0) break;
    if (x === prevX) edits.push({ kind: "+", line: b[--y]! });
    else edits.push({ kind: "-", line: a[--x]! });
  }
  return edits.reverse();
}

/**
 * `before` to `after` as unified diff hunks (no file header lines); "" when they are equal.
 *
 * @example
 * unifiedDiff("a\nb\n", "a\nc\n"); // "@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
 */
export function unifiedDiff(before: string, after: string, context = 3): string {
  if (before === after) return "";
  const edits = editScript(lines(before), lines(after));
  let out = "";
  let i = 0;
  while (i < edits.length) {
    if (edits[i]!.kind === " ") {
      i++;
      continue;
    }
    // A hunk: from `context` kept lines before this change to `context` after the last change
    // that is within 2 * context kept lines of the one before it.
    const start = Math.max(0, i - context);
    let end = i;
    let kept = 0;
    for (let j = i; j < edits.length; j++) {
      if (edits[j]!.kind === " ") {
        kept++;
        if (kept > 2 * context) break;
      } else {
        kept = 0;
        end = j;
      }
    }
    const stop = Math.min(edits.length, end + 1 + context);
    let aStart = 0;
    let bStart = 0;
    for (let j = 0; j < start; j++) {
      if (edits[j]!.kind !== "+") aStart++;
      if (edits[j]!.kind !== "-") bStart++;
    }
    const hunk = edits.slice(start, stop);
    const aLen = hunk.filter((e) => e.kind !== "+").length;
    const bLen = hunk.filter((e) => e.kind !== "-").length;
    out += `@@ -${aLen ? aStart + 1 : aStart},${aLen} +${bLen ? bStart + 1 : bStart},${bLen} @@\n`;
    for (const e of hunk) out += `${e.kind}${e.line}\n`;
    i = stop;
  }
  return out;
}
