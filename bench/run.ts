/**
 * `npm run bench`: the figures issue 11 asks for, each beside its aim.
 *
 * Every comparison is paired: the two sides run one after the other, again and again, and the
 * figure is the median of the per-pair ratios (a machine shared with other work slows both sides
 * of a pair alike). Times are whole processes, start to exit, as a user waits for them.
 * NODE_EXTRA_CA_CERTS is unset on both sides: with it, every Node start parses a CA bundle
 * (about 50 ms here), which would hide our own cost.
 *
 * 1. CLI start-up: `reduck --version` beside `node -e 0`.
 * 2. `reduck run ... file:document=<50 MB>` beside `curl -F` sending the same multipart run.
 * 3. The library's `runScript` from a path (a small node program) beside the same curl.
 * 4. `reduck scripts list reduck --json` beside a bare node:http GET that prints the body.
 * 5. The sandbox's real browser (bench/browser.ts): first run, warm runs beside the simulated
 *    page, memory after 20 and 200 runs.
 *
 * Options: `--pairs N` (default 7 for uploads, 15 for the rest).
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, open, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import { benchBatch } from "./batch.js";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startSandboxProcess } from "../test/server/sandbox-process.js";
import { MAX_FILE_BYTES } from "../src/run/limits.js";
import { benchBrowser } from "./browser.js";
import { benchPolling } from "./polling.js";
import { benchSandboxAttacks } from "./sandbox-attacks.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MiB = 2 ** 20;
const cli = path.join(root, "bin", "run.js");
const node = process.execPath;
const pairsArg = process.argv.indexOf("--pairs");
const pairsGiven = pairsArg > 0 ? Number(process.argv[pairsArg + 1]) : undefined;

/** The environment of every measured process: ours, without the CA bundle every Node start would parse. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.NODE_OPTIONS;
  return env;
}

interface Side {
  cmd: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

function timeOnce({ cmd, args, env }: Side): number {
  const started = performance.now();
  execFileSync(cmd, args, { cwd: root, env, stdio: ["ignore", "ignore", "pipe"], maxBuffer: 64 * MiB });
  return performance.now() - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** `pairs` paired runs (after one warm-up of each): both medians and the median per-pair ratio. */
function paired(ours: Side, floor: Side, pairs: number): { ours: number; floor: number; ratio: number } {
  timeOnce(ours);
  timeOnce(floor);
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < pairs; i++) {
    // Alternate which side goes first, so neither always meets a warmer machine.
    if (i % 2) {
      b.push(timeOnce(floor));
      a.push(timeOnce(ours));
    } else {
      a.push(timeOnce(ours));
      b.push(timeOnce(floor));
    }
  }
  return { ours: median(a), floor: median(b), ratio: median(a.map((t, i) => t / b[i]!)) };
}

const rows: Array<[string, string, string]> = [];
const verdict = (ok: boolean) => (ok ? "ok" : "MISSED");
const ms = (t: number) => `${t.toFixed(0)} ms`;
const mib = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`;

function compare(label: string, floorLabel: string, result: { ours: number; floor: number; ratio: number }, aim: number, extra = "") {
  rows.push([floorLabel, ms(result.floor), ""]);
  rows.push([label, ms(result.ours), `${result.ratio.toFixed(2)}x, aim <= ${aim.toFixed(1)}x: ${verdict(result.ratio <= aim)}${extra}`]);
}

/** Peak resident memory of one run of `side` (node only), read by a preloaded module at exit. */
async function peakRss(side: Side, file: string): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    execFileSync(side.cmd, ["--import", path.join(root, "bench", "report-rss.mjs"), ...side.args], {
      cwd: root,
      env: { ...side.env, REDUCK_BENCH_RSS_FILE: file },
      stdio: ["ignore", "ignore", "pipe"],
    });
    runs.push(Number(await readFile(file, "utf8")));
  }
  return median(runs);
}

// 1. Start-up
const startup = paired({ cmd: node, args: [cli, "--version"], env: cleanEnv() }, { cmd: node, args: ["-e", "0"], env: cleanEnv() }, pairsGiven ?? 15);
// Not one of issue 11's aims: an earlier one, kept in view.
compare("reduck --version (earlier aim)", "node -e 0", startup, 2.5);

// 2-4. Against the sandbox
const work = await mkdtemp(path.join(os.tmpdir(), "reduck-bench-"));
const big = path.join(work, "big.bin");
const handle = await open(big, "w");
await handle.truncate(MAX_FILE_BYTES); // exactly the limit, written sparse and fast
await handle.close();
// The simulated page: these figures are the client's, which the browser's time would only blur.
const sandbox = await startSandboxProcess(work, { browser: "simulated" });
const env = cleanEnv({ ...sandbox.env, REDUCK_CONFIG_DIR: work });
try {
  const specFile = path.join(work, "spec.json");
  await writeFile(
    specFile,
    JSON.stringify({ browser: "extension", script: { handle: "reduck", host: "docusign.com", slug: "upload_document", args: { documentName: "big.bin" } } }),
  );
  const curl: Side = {
    cmd: "curl",
    args: [
      "-sS", "-f", "-o", path.join(work, "curl-answer.json"), "-X", "POST", `${sandbox.env.REDUCK_API_URL}/run`,
      "-H", `X-API-Key: ${sandbox.env.REDUCK_API_KEY}`,
      "-F", `spec=<${specFile};type=application/json`, "-F", `0:document=@${big}`,
    ],
    env,
  };
  const uploads = pairsGiven ?? 7;
  const rssFile = path.join(work, "rss");

  const cliRun: Side = {
    cmd: node,
    args: [cli, "run", "--script", "reduck/docusign.com/upload_document", "--browser", "extension", "documentName=big.bin", `file:document=${big}`],
    env,
  };
  const cliRss = await peakRss(cliRun, rssFile);
  compare("reduck run, 50 MB file", "curl -F, the same 50 MB run", paired(cliRun, curl, uploads), 2.0, `; peak ${mib(cliRss)}, aim <= 64 MiB: ${verdict(cliRss <= 64 * MiB)}`);

  const library: Side = { cmd: node, args: [path.join(root, "bench", "library-upload.mjs"), big], env };
  const libRss = await peakRss(library, rssFile);
  compare("library runScript, 50 MB from a path", "curl -F, the same 50 MB run", paired(library, curl, uploads), 1.8, `; peak ${mib(libRss)}, aim <= 56 MiB: ${verdict(libRss <= 56 * MiB)}`);

  const list: Side = { cmd: node, args: [cli, "scripts", "list", "reduck", "--json"], env };
  const bareGet: Side = { cmd: node, args: [path.join(root, "bench", "bare-get.mjs"), `${sandbox.env.REDUCK_API_URL}/api/scripts/reduck`], env };
  compare("reduck scripts list reduck --json", "node:http GET, body printed", paired(list, bareGet, pairsGiven ?? 15), 3.0);
} finally {
  sandbox.stop();
  await rm(work, { recursive: true, force: true });
}

rows.push(...(await benchBatch(pairsGiven ?? 3))); // issue 22: reduck batch (bench/batch.ts)

// 4. The sandbox's real browser (issue 14).
rows.push(...(await benchBrowser()));
// 6. A polled run beside one whose first answer was the outcome (issue 21; bench/polling.ts).
rows.push(...(await benchPolling(pairsGiven ?? 5)));
rows.push(...(await benchSandboxAttacks())); // issue 24

const width = Math.max(...rows.map((r) => r[0].length));
const width2 = Math.max(...rows.map((r) => r[1].length));
console.log(`\nreduck-client benchmark (node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(2)})`);
console.log("medians of paired runs; ratios are the median of the per-pair ratios; NODE_EXTRA_CA_CERTS unset on both sides\n");
for (const [what, value, note] of rows) console.log(`${what.padEnd(width)}  ${value.padStart(width2)}  ${note}`);
