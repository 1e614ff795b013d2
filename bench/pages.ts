/**
 * The pages' figures (`npx tsx bench/pages.ts`, or `benchPages()` from bench/run.ts), on the built
 * package (`npm run build` first):
 *
 * 1. A 5,000-step trace rendered by `renderTraceHtml` from `reduck-client/report`, in a fresh
 *    process each time (bench/render-trace.mjs): the first render (cold, as `reduck runs trace
 *    --html` does it once), its CPU time, and a warm render; medians of `runs` processes. Aim: the
 *    cold render within 500 ms.
 * 2. `reduck batch report` on a 100,000-row results file (written as `reduck batch` writes one,
 *    test/support/big-results.ts): wall time, peak resident memory and the page's size; medians of
 *    `runs` runs. Aims: a few seconds, at most 200 MiB, a page of at most 15 MiB.
 *
 * NODE_EXTRA_CA_CERTS and NODE_OPTIONS are unset for the measured processes.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writeBigResults } from "../test/support/big-results.js";
import { cleanEnv, median } from "./measure.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MiB = 2 ** 20;

export async function benchPages(runs = 5): Promise<Array<[string, string, string]>> {
  const rows: Array<[string, string, string]> = [];
  const renders = Array.from(
    { length: runs },
    () =>
      JSON.parse(execFileSync(process.execPath, [path.join(root, "bench", "render-trace.mjs")], { cwd: root, env: cleanEnv() }).toString()) as {
        cold: number;
        warm: number;
        cpu: number;
      },
  );
  const cold = median(renders.map((r) => r.cold));
  rows.push([
    "renderTraceHtml, a 5,000-step trace, first render in a fresh process",
    `${cold.toFixed(0)} ms`,
    `CPU ${median(renders.map((r) => r.cpu)).toFixed(0)} ms, warm ${median(renders.map((r) => r.warm)).toFixed(0)} ms; aim <= 500 ms: ${cold <= 500 ? "ok" : "MISSED"}`,
  ]);

  const work = await mkdtemp(path.join(os.tmpdir(), "reduck-bench-pages-"));
  try {
    const results = path.join(work, "people.results.jsonl");
    await writeBigResults(results, 100_000);
    const page = path.join(work, "report.html");
    const rssFile = path.join(work, "rss");
    const times: number[] = [];
    const peaks: number[] = [];
    for (let i = 0; i < Math.max(3, Math.min(runs, 5)); i++) {
      const started = performance.now();
      execFileSync(
        process.execPath,
        ["--require", path.join(root, "bench", "report-rss.cjs"), path.join(root, "bin", "run.js"), "batch", "report", results, "--html", page],
        {
          cwd: root,
          env: cleanEnv({ REDUCK_BENCH_RSS_FILE: rssFile }),
          stdio: ["ignore", "ignore", "pipe"],
        },
      );
      times.push(performance.now() - started);
      peaks.push(Number(await readFile(rssFile, "utf8")));
    }
    const time = median(times);
    const peak = median(peaks);
    const size = (await stat(page)).size;
    rows.push([
      `reduck batch report, 100,000 rows (a ${((await stat(results)).size / MiB).toFixed(0)} MiB results file)`,
      `${(time / 1000).toFixed(1)} s`,
      `peak ${(peak / MiB).toFixed(0)} MiB (aim <= 200: ${peak <= 200 * MiB ? "ok" : "MISSED"}), page ${(size / MiB).toFixed(1)} MiB (aim <= 15: ${size <= 15 * MiB ? "ok" : "MISSED"})`,
    ]);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return rows;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [what, figure, note] of await benchPages()) console.log(`${what}\n  ${figure}  ${note}`);
}
