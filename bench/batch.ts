/**
 * `reduck batch` measured as a user meets it (`npx tsx bench/batch.ts`, or `benchBatch()` from
 * bench/run.ts), against a sandbox started as `npm run sandbox` starts it, scripts running against
 * the simulated page (the figures are the client's; a browser's time would only blur them).
 *
 * 1. 1,000 rows of send_email through `reduck batch --concurrency 8`, beside a shell loop of
 *    `reduck run` over the same rows. The loop runs the first LOOP_ROWS rows only (a process per
 *    row: the whole 1,000 would take minutes per pair) and its time is scaled to 1,000 rows;
 *    aim: batch at least 20x faster. Beside them, the sandbox's own ceiling (bare fetches, 8 at
 *    a time): a batch cannot go faster than the server runs scripts. And the same pair against
 *    a stand-in service that answers at once (bench/instant-service.mjs): the client's own speed-up.
 * 2. `--dry-run` over 10,000 and 100,000 rows: peak resident memory of each (aim: at most
 *    100 MiB, and flat: the second within 1.2x of the first), for two shapes of rows: the CSV of
 *    part 1 (two columns, `to,subject`), and one column (`subject`) with `to=me@example.com`
 *    given once on the command line for every row, whose short rows are more of them per read.
 * 3. The journal's cost: the same 1,000 rows with the journal (fsync'ed line by line) on the
 *    disk beside the input, and with `--out` on a tmpfs (/dev/shm), where fsync costs nothing
 *    (aim: within 10%).
 *
 * Paired runs (the two sides one after the other, alternating which goes first), medians, and
 * NODE_EXTRA_CA_CERTS unset on both sides. `--pairs N` (default 3).
 */
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startSandboxProcess } from "@reduck-client/sandbox";
import { cleanEnv, median } from "./measure.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cli = path.join(root, "bin", "run.js");
const node = process.execPath;
const MiB = 2 ** 20;
const ROWS = 1000;
const LOOP_ROWS = 50;
const SCRIPT = "reduck/mail.google.com/send_email";

function timed(cmd: string, args: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  execFileSync(cmd, args, { cwd: root, env, stdio: ["ignore", "ignore", "pipe"], maxBuffer: 64 * MiB });
  return performance.now() - started;
}

async function csv(file: string, rows: number): Promise<void> {
  const lines = ["to,subject"];
  for (let i = 0; i < rows; i++) lines.push(`user${i}@example.com,"Hello, row ${i}"`);
  await writeFile(file, `${lines.join("\n")}\n`);
}

/** The one-column shape of part 2: `subject` alone (`to` is given once, on the command line). */
async function subjectsCsv(file: string, rows: number): Promise<void> {
  const lines = ["subject"];
  for (let i = 0; i < rows; i++) lines.push(`Hello row ${i}`);
  await writeFile(file, `${lines.join("\n")}\n`);
}

/** Rows of `[what, figure, note]`. */
export async function benchBatch(pairs = 3): Promise<Array<[string, string, string]>> {
  const rows: Array<[string, string, string]> = [];
  const work = await mkdtemp(path.join(os.tmpdir(), "reduck-bench-batch-"));
  const shm = existsSync("/dev/shm") ? await mkdtemp("/dev/shm/reduck-bench-batch-") : undefined;
  const sandbox = await startSandboxProcess(work, { browser: "simulated" });
  const env = cleanEnv({ ...sandbox.env, REDUCK_CONFIG_DIR: work });
  try {
    const input = path.join(work, "rows.csv");
    await csv(input, ROWS);
    let n = 0;
    const batch = (out: string, against = env) => {
      n++;
      return timed(node, [cli, "batch", "--script", SCRIPT, "--input", input, "--concurrency", "8", "--out", out], against);
    };
    // The loop a user writes today: one `reduck run` process per row.
    const loopScript = path.join(work, "loop.sh");
    await writeFile(
      loopScript,
      `head -n ${LOOP_ROWS + 1} "$1" | tail -n +2 | while IFS=, read -r to subject; do "$2" "$3" run --browser extension --script ${SCRIPT} "to=$to" "subject=$subject" > /dev/null || exit 1; done\n`,
    );
    /** A warm-up batch, then `pairs` batches each beside the loop (alternately first), against the service `against` names. */
    const batchBesideLoop = (against: NodeJS.ProcessEnv) => {
      batch(path.join(work, `warm-${n}.jsonl`), against);
      const b: number[] = [];
      const l: number[] = [];
      for (let i = 0; i < pairs; i++) {
        if (i % 2) l.push(timed("sh", [loopScript, input, node, cli], against));
        b.push(batch(path.join(work, `b-${n}.jsonl`), against));
        if (!(i % 2)) l.push(timed("sh", [loopScript, input, node, cli], against));
      }
      const scaled = l.map((t) => (t * ROWS) / LOOP_ROWS);
      return { b, scaled, speedup: median(scaled.map((t, i) => t / b[i]!)) };
    };

    // 1. batch beside the loop
    const { b, scaled, speedup } = batchBesideLoop(env);
    rows.push([`shell loop of reduck run, ${ROWS} rows (${LOOP_ROWS} run, scaled)`, `${(median(scaled) / 1000).toFixed(1)} s`, ""]);
    rows.push([
      `reduck batch --concurrency 8, ${ROWS} rows`,
      `${(median(b) / 1000).toFixed(1)} s`,
      `${speedup.toFixed(1)}x faster, aim >= 20x: ${speedup >= 20 ? "ok" : "MISSED"}`,
    ]);

    // The sandbox's own ceiling, for scale: bare fetches, 8 runs at a time, nothing else.
    const ceiling = await (async () => {
      const total = 200;
      let next = 0;
      const started = performance.now();
      const worker = async () => {
        while (next < total) {
          const i = next++;
          const answer = await fetch(`${sandbox.env.REDUCK_API_URL}/run`, {
            method: "POST",
            headers: { "X-API-Key": sandbox.env.REDUCK_API_KEY!, "Content-Type": "application/json" },
            body: JSON.stringify({
              browser: "extension",
              script: { handle: "reduck", host: "mail.google.com", slug: "send_email", args: { to: `c${i}@example.com`, subject: "x" } },
            }),
          });
          await answer.arrayBuffer();
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      return total / ((performance.now() - started) / 1000);
    })();
    rows.push([
      "the sandbox's ceiling: bare fetch, 8 runs at a time",
      `${ceiling.toFixed(1)}/s`,
      `reduck batch: ${(ROWS / (median(b) / 1000)).toFixed(1)} runs/s (the server, not the client, sets the pace)`,
    ]);

    // 1b. The same pair against a service that answers at once: the client's own speed-up, with
    // no server setting the pace. After the ceiling's fetches, not before: the timed commands
    // block this process, and a fetch made after a long block can pick up a pooled connection
    // the sandbox has closed meanwhile ("other side closed").
    const headers = { "X-API-Key": sandbox.env.REDUCK_API_KEY! };
    const recordFile = path.join(work, "record.json");
    await writeFile(recordFile, await (await fetch(`${sandbox.env.REDUCK_API_URL}/api/scripts/${SCRIPT}`, { headers })).text());
    // A process of its own: the timed commands block this one while they run.
    const service = spawn(node, [path.join(root, "bench", "instant-service.mjs"), recordFile], { stdio: ["ignore", "pipe", "inherit"] });
    const [firstLine] = (await once(service.stdout!, "data")) as [Buffer];
    const instantUrl = firstLine.toString().trim();
    try {
      const instant = batchBesideLoop(cleanEnv({ REDUCK_API_URL: instantUrl, REDUCK_API_KEY: "rk_instant", REDUCK_CONFIG_DIR: work }));
      rows.push([`the same two against a service that answers at once (bench/instant-service.mjs)`, `${(median(instant.b) / 1000).toFixed(2)} s`, ""]);
      rows.push([
        `  shell loop ${(median(instant.scaled) / 1000).toFixed(1)} s, scaled`,
        `${instant.speedup.toFixed(1)}x`,
        `batch faster by this much when the server is not the bottleneck, aim >= 20x: ${instant.speedup >= 20 ? "ok" : "MISSED"}`,
      ]);
    } finally {
      service.kill();
    }

    // 2. --dry-run memory, 10,000 beside 100,000 rows, for each shape of rows
    const shapes = [
      { name: "to,subject", write: csv, shared: [] as string[] },
      { name: "subject, to=me@example.com", write: subjectsCsv, shared: ["to=me@example.com"] },
    ];
    for (const shape of shapes) {
      const rss = async (count: number) => {
        const file = path.join(work, `dry-${shape.write.name}-${count}.csv`);
        await shape.write(file, count);
        const rssFile = path.join(work, "rss");
        const peaks: number[] = [];
        for (let i = 0; i < pairs; i++) {
          execFileSync(
            node,
            ["--require", path.join(root, "bench", "report-rss.cjs"), cli, "batch", "--script", SCRIPT, "--input", file, "--dry-run", ...shape.shared],
            { cwd: root, env: { ...env, REDUCK_BENCH_RSS_FILE: rssFile }, stdio: ["ignore", "ignore", "pipe"] },
          );
          peaks.push(Number(await readFile(rssFile, "utf8")));
        }
        return median(peaks);
      };
      const small = await rss(10_000);
      const large = await rss(100_000);
      const mib = (x: number) => `${(x / MiB).toFixed(0)} MiB`;
      rows.push([`reduck batch --dry-run, 10,000 rows (${shape.name}): peak`, mib(small), ""]);
      rows.push([
        `reduck batch --dry-run, 100,000 rows (${shape.name}): peak`,
        mib(large),
        `${(large / small).toFixed(2)}x the 10,000, aim <= 100 MiB and flat (<= 1.2x): ${large <= 100 * MiB && large / small <= 1.2 ? "ok" : "MISSED"}`,
      ]);
    }

    // 3. the journal's fsyncs: on disk beside the input, and on a tmpfs
    if (shm) {
      const disk: number[] = [];
      const tmpfs: number[] = [];
      for (let i = 0; i < pairs; i++) {
        if (i % 2) {
          tmpfs.push(batch(path.join(shm, `j-${n}.jsonl`)));
          disk.push(batch(path.join(work, `j-${n}.jsonl`)));
        } else {
          disk.push(batch(path.join(work, `j-${n}.jsonl`)));
          tmpfs.push(batch(path.join(shm, `j-${n}.jsonl`)));
        }
      }
      const ratio = median(disk.map((t, i) => t / tmpfs[i]!));
      rows.push([`reduck batch, ${ROWS} rows, journal on a tmpfs (--out /dev/shm)`, `${(median(tmpfs) / 1000).toFixed(1)} s`, ""]);
      rows.push([
        `reduck batch, ${ROWS} rows, journal on disk (fsync per line)`,
        `${(median(disk) / 1000).toFixed(1)} s`,
        `${ratio.toFixed(2)}x, aim <= 1.10x: ${ratio <= 1.1 ? "ok" : "MISSED"}`,
      ]);
    } else {
      rows.push(["journal on a tmpfs", "-", "no /dev/shm on this machine: not measured"]);
    }
  } finally {
    sandbox.stop();
    await sandbox.exited;
    await rm(work, { recursive: true, force: true });
    if (shm) await rm(shm, { recursive: true, force: true });
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = process.argv.indexOf("--pairs");
  for (const [what, value, note] of await benchBatch(arg > 0 ? Number(process.argv[arg + 1]) : 3))
    console.log(`${what.padEnd(64)}  ${value.padStart(8)}  ${note}`);
}
