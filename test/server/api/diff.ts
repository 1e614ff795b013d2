// The `diff` the service returns with a created or patched draft: a line diff of the code and the
// contract fields that changed, relative to the version the draft builds on.
import type { components } from "../contract/openapi-types.js";
import type { VersionRecord } from "../store/records.js";

type VersionDiff = components["schemas"]["VersionDiff"];

/**
 * A unified-style line diff ("-old" / "+new" / " same") from a longest-common-subsequence table.
 * Scripts are small, so the quadratic table is fine.
 */
export function lineDiff(before: string, after: string): string {
  const a = before.split("\n");
  const b = after.split("\n");
  // lcs[i][j], flattened: the length of the longest common subsequence of a[i..] and b[j..]. The
  // last row and column (an empty suffix) stay 0.
  const width = b.length + 1;
  const lcs = new Array<number>((a.length + 1) * width).fill(0);
  const common = (i: number, j: number): number => lcs[i * width + j] ?? 0;
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j] ? common(i + 1, j + 1) + 1 : Math.max(common(i + 1, j), common(i, j + 1));
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(" " + a[i++]);
      j++;
    } else if (j < b.length && (i === a.length || common(i, j + 1) >= common(i + 1, j))) {
      out.push("+" + b[j++]);
    } else {
      out.push("-" + a[i++]);
    }
  }
  return out.join("\n");
}

type Contract = Pick<VersionRecord, "content" | "language" | "inputSchema" | "outputSchema" | "loggedIn" | "sideEffects">;

// Wire name -> how to read it as a string for `{ from, to }`.
const CONTRACT_FIELDS: Record<string, (v: Contract) => string> = {
  language: (v) => v.language,
  input_schema: (v) => JSON.stringify(v.inputSchema),
  output_schema: (v) => JSON.stringify(v.outputSchema),
  logged_in: (v) => String(v.loggedIn),
  side_effects: (v) => v.sideEffects,
};

/** True when code and contract are the same (the note does not count). */
export function sameCodeAndContract(a: Contract, b: Contract): boolean {
  return a.content === b.content && Object.values(CONTRACT_FIELDS).every((read) => read(a) === read(b));
}

/** The diff of `version` against its parent (no parent: everything is new, compared with empty). */
export function versionDiff(parent: Contract | undefined, version: Contract): VersionDiff {
  const fields: VersionDiff["fields"] = {};
  for (const [name, read] of Object.entries(CONTRACT_FIELDS)) {
    const from = parent ? read(parent) : "";
    const to = read(version);
    if (from !== to) fields[name] = { from, to };
  }
  const diff: VersionDiff = { fields };
  const before = parent?.content ?? "";
  if (before !== version.content) diff.code = lineDiff(before, version.content);
  return diff;
}
