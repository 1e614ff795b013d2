/**
 * `npm run bench`: the figures the issues ask for.
 *
 * 1. CLI start-up: `reduck --version` beside a bare `node -e 0` (aim: at most 2.5x).
 * 2. A 50 MB upload through the library from a path: peak memory (aim: under 150 MiB).
 * 3. A 50 MB `reduck run` beside `curl -F` sending the same multipart run to the sandbox
 *    (aim: at most 1.5x the time, under 150 MiB peak memory).
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile, open } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startSandboxProcess } from "../test/server/sandbox-process.js";
import { MAX_FILE_BYTES } from "../src/run/limits.js";
import { benchBrowser } from "./browser.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MiB = 2 ** 20;
const cli = path.join(root, "bin", "run.js");

function timeOnce(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const started = performance.now();
  execFileSync(cmd, args, { cwd: root, env, stdio: ["ignore", "ignore", "pipe"], maxBuffer: 64 * MiB });
  return performance.now() - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function timeMany(cmd: string, args: string[], runs: number, env?: NodeJS.ProcessEnv): number {
  timeOnce(cmd, args, env); // warm the file cache
  return median(Array.from({ length: runs }, () => timeOnce(cmd, args, env)));
}

const rows: Array<[string, string, string]> = [];
const verdict = (ok: boolean) => (ok ? "ok" : "MISSED");

// 1. Start-up
const bare = timeMany(process.execPath, ["-e", "0"], 15);
const version = timeMany(process.execPath, [cli, "--version"], 15);
rows.push(["node -e 0 (median of 15)", `${bare.toFixed(0)} ms`, ""]);
rows.push(["reduck --version (median of 15)", `${version.toFixed(0)} ms`, `${(version / bare).toFixed(2)}x bare node, aim <= 2.5x: ${verdict(version / bare <= 2.5)}`]);

// 2 and 3. A 50 MB upload
const work = await mkdtemp(path.join(os.tmpdir(), "reduck-bench-"));
const big = path.join(work, "big.bin");
const handle = await open(big, "w");
await handle.truncate(MAX_FILE_BYTES); // exactly the limit, written sparse and fast
await handle.close();
// The simulated page: these figures are the client's, which the browser's time would only blur.
const sandbox = await startSandboxProcess(work, { browser: "simulated" });
const env = { ...process.env, ...sandbox.env, REDUCK_CONFIG_DIR: work };
try {
  const lib = JSON.parse(execFileSync(process.execPath, [path.join(root, "bench", "library-upload.mjs"), big], { env, encoding: "utf8" }));
  rows.push([
    "library runScript, 50 MB from a path",
    `${lib.ms.toFixed(0)} ms`,
    `peak ${(lib.maxRss / MiB).toFixed(0)} MiB, aim < 150 MiB: ${verdict(lib.maxRss < 150 * MiB)}`,
  ]);

  const rssFile = path.join(work, "rss");
  const cliArgs = [
    "--import", path.join(root, "bench", "report-rss.mjs"), cli,
    "run", "--script", "reduck/docusign.com/upload_document", "documentName=big.bin", `file:document=${big}`,
  ];
  const cliTimes: number[] = [];
  for (let i = 0; i < 3; i++) cliTimes.push(timeOnce(process.execPath, cliArgs, { ...env, REDUCK_BENCH_RSS_FILE: rssFile }));
  const cliRss = Number(await readFile(rssFile, "utf8"));

  const spec = JSON.stringify({
    browser: "extension",
    script: { handle: "reduck", host: "docusign.com", slug: "upload_document", args: { documentName: "big.bin" } },
  });
  const specFile = path.join(work, "spec.json");
  await writeFile(specFile, spec);
  const curlArgs = [
    "-sS", "-f", "-o", path.join(work, "curl-answer.json"), "-X", "POST", `${sandbox.env.REDUCK_API_URL}/run`,
    "-H", `X-API-Key: ${sandbox.env.REDUCK_API_KEY}`,
    "-F", `spec=<${specFile};type=application/json`, "-F", `0:document=@${big}`,
  ];
  const curlTimes: number[] = [];
  for (let i = 0; i < 3; i++) curlTimes.push(timeOnce("curl", curlArgs));
  const cliMs = median(cliTimes);
  const curlMs = median(curlTimes);
  rows.push(["curl -F, same 50 MB run (median of 3)", `${curlMs.toFixed(0)} ms`, ""]);
  rows.push([
    "reduck run, 50 MB file (median of 3)",
    `${cliMs.toFixed(0)} ms`,
    `${(cliMs / curlMs).toFixed(2)}x curl, aim <= 1.5x: ${verdict(cliMs / curlMs <= 1.5)}; peak ${(cliRss / MiB).toFixed(0)} MiB, aim < 150 MiB: ${verdict(cliRss < 150 * MiB)}`,
  ]);
} finally {
  sandbox.stop();
  await rm(work, { recursive: true, force: true });
}

// 4. The sandbox's real browser (issue 14).
rows.push(...(await benchBrowser()));

const width = Math.max(...rows.map((r) => r[0].length));
const width2 = Math.max(...rows.map((r) => r[1].length));
console.log(`\nreduck-client benchmark (node ${process.version}, ${os.cpus().length} cores)\n`);
for (const [what, value, note] of rows) console.log(`${what.padEnd(width)}  ${value.padStart(width2)}  ${note}`);
