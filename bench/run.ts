/**
 * `npm run bench`: the figures docs/performance.md gives, each beside its aim.
 *
 * Every comparison is paired: the two sides run one after the other, again and again, and the
 * figure is the median of the per-pair ratios (a machine shared with other work slows both sides
 * of a pair alike). Times are whole processes, start to exit, as a user waits for them.
 * NODE_EXTRA_CA_CERTS is unset on both sides: with it, every Node start parses a CA bundle
 * (about 50 ms here), which would hide our own cost.
 *
 * 1. CLI start-up: `reduck --version` beside `node -e 0`, with NODE_EXTRA_CA_CERTS set on both
 *    sides as this machine's users have it, and unset (then counted by instructions too);
 *    `reduck scripts list --help` beside the same.
 * 2. `reduck run ... file:document=<50 MB>` beside `curl -F` sending the same multipart run; then
 *    Node's own floor for that run (bench/bare-upload.cjs: node:http and nothing else) beside the
 *    same curl, the same with the script's contract read first (what a client that checks the
 *    arguments before it uploads cannot skip), and the CLI beside that.
 * 2b. A run with a 1 KB file to a service 40 ms away over https (bench/far-path.mjs in front of the
 *    sandbox) beside curl sending it: what a user far from the service waits.
 * 3. The library's `runScript` from a path (a small node program) beside the same curl.
 * 4. The same run framed by the npm `form-data` package (bench/form-data-upload.mjs) beside
 *    ours (the library's): the comparison that kept our own framing.
 * 5. `reduck scripts list reduck --json` beside a bare node:http GET that prints the body.
 * 6. The sandbox's real browser (bench/browser.ts): first run, warm runs beside the simulated
 *    page, memory after 20 and 200 runs.
 * 7. A run polled after a 202 beside one whose first answer was the outcome (bench/polling.ts).
 * 8. The sandbox under the worst script-body attacks (bench/sandbox-attacks.ts).
 * 9. `reduck batch` beside a shell loop of `reduck run`, --dry-run's memory, the journal (bench/batch.ts).
 * 10. The sandbox's own speed (bench/sandbox-speed.ts): start-up to its first answer, an ordinary
 *     run one after another, runs per second 8 at a time, and its CPU time per run.
 * 11. The pages (bench/pages.ts): a 5,000-step trace rendered, a 100,000-row batch report built.
 * 12. Scripts as files (bench/scripts-as-files.ts): pull of 200 scripts, offline status of 200.
 *
 * Options: `--pairs N` (default 31 for `--version`, 15 for the rest); `--only a,b` runs only those
 * of version, help, run, far, library, form-data, list, browser, polling, attacks, batch, sandbox-speed,
 * pages, folders.
 */
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, open, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { startSandboxProcess } from "@reduck-client/sandbox";
import { MAX_FILE_BYTES } from "../src/run/limits.js";
import { benchBatch } from "./batch.js";
import { benchBrowser } from "./browser.js";
import { benchPolling } from "./polling.js";
import { benchSandboxAttacks } from "./sandbox-attacks.js";
import { benchSandboxSpeed } from "./sandbox-speed.js";
import { benchPages } from "./pages.js";
import { benchScriptsAsFiles } from "./scripts-as-files.js";
import { cleanEnv, instructions, median } from "./measure.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MiB = 2 ** 20;
// REDUCK_BENCH_CLI: another build's bin/run.js, to measure before and after a change.
const cli = process.env.REDUCK_BENCH_CLI ?? path.join(root, "bin", "run.js");
const node = process.execPath;
const pairsArg = process.argv.indexOf("--pairs");
const pairsGiven = pairsArg > 0 ? Number(process.argv[pairsArg + 1]) : undefined;
const onlyArg = process.argv.indexOf("--only");
const only = onlyArg > 0 ? new Set(process.argv[onlyArg + 1]!.split(",")) : undefined;
const wanted = (name: string) => !only || only.has(name);
/** The CA bundle this machine's users have in NODE_EXTRA_CA_CERTS (Debian's, if it is unset here). */
const caCerts = process.env.NODE_EXTRA_CA_CERTS || "/etc/ssl/certs/ca-certificates.crt";

interface Side {
  cmd: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/**
 * One run of `side`: its wall time as a user waits for it, and the CPU time (user and system) it
 * used, which other work on a shared machine disturbs far less. Run under bash, which reads both
 * (`$EPOCHREALTIME` around the command, `times` for its children) without starting anything else.
 */
function timeOnce({ cmd, args, env }: Side): { wall: number; cpu: number } {
  const script = 's=$EPOCHREALTIME; "$@" >/dev/null </dev/null || exit $?; e=$EPOCHREALTIME; echo "$s $e"; times';
  const out = execFileSync("bash", ["-c", script, "bash", cmd, ...args], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * MiB }).toString();
  const [times, , children] = out.trim().split("\n");
  const [start, end] = times!.split(" ").map(Number);
  const seconds = (t: string) => {
    const [, m, sec] = /^(\d+)m([\d.]+)s$/.exec(t)!;
    return Number(m) * 60 + Number(sec);
  };
  const [user, system] = children!.trim().split(/\s+/).map(seconds);
  return { wall: (end! - start!) * 1000, cpu: (user! + system!) * 1000 };
}

interface Paired {
  ours: number;
  floor: number;
  ratio: number;
  /** The median per-pair ratio of CPU time. */
  cpuRatio: number;
}

/** `pairs` paired runs (after one warm-up of each): both medians and the median per-pair ratio. */
function paired(ours: Side, floor: Side, pairs: number): Paired {
  timeOnce(ours);
  timeOnce(floor);
  const a: Array<{ wall: number; cpu: number }> = [];
  const b: Array<{ wall: number; cpu: number }> = [];
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
  return {
    ours: median(a.map((t) => t.wall)),
    floor: median(b.map((t) => t.wall)),
    ratio: median(a.map((t, i) => t.wall / b[i]!.wall)),
    cpuRatio: median(a.map((t, i) => t.cpu / Math.max(b[i]!.cpu, 1))),
  };
}

const rows: Array<[string, string, string]> = [];
const verdict = (ok: boolean) => (ok ? "ok" : "MISSED");
const ms = (t: number) => `${t.toFixed(0)} ms`;
const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;

/** A ratio to two places, or three where two would read as the aim itself (1.50x, MISSED). */
const beside = (ratio: number, aim: number) => (ratio.toFixed(2) === aim.toFixed(2) ? ratio.toFixed(3) : ratio.toFixed(2));

function compare(label: string, floorLabel: string, result: Paired, aim: number, extra = "") {
  rows.push([floorLabel, ms(result.floor), ""]);
  rows.push([
    label,
    ms(result.ours),
    `${beside(result.ratio, aim)}x, aim <= ${aim.toFixed(2)}x: ${verdict(result.ratio <= aim)} (CPU time ${result.cpuRatio.toFixed(2)}x)${extra}`,
  ]);
}

/** A row under a comparison: the same two sides counted by instructions, which the load does not move. */
function byInstructions(ours: number, floor: number, floorName: string, aim: number): [string, string, string] {
  const ratio = ours / floor;
  return [
    "  the same, by instructions (callgrind)",
    `${(ours / 1e6).toFixed(1)}M`,
    `${beside(ratio, aim)}x ${floorName} ${(floor / 1e6).toFixed(1)}M, aim <= ${aim.toFixed(2)}x: ${verdict(ratio <= aim)}`,
  ];
}

/** Peak resident memory of one run of `side` (node only), read by a preloaded module at exit. */
async function peakRss(side: Side, file: string): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    execFileSync(side.cmd, ["--require", path.join(root, "bench", "report-rss.cjs"), ...side.args], {
      cwd: root,
      env: { ...side.env, REDUCK_BENCH_RSS_FILE: file },
      stdio: ["ignore", "ignore", "pipe"],
    });
    runs.push(Number(await readFile(file, "utf8")));
  }
  return median(runs);
}

/**
 * The run every upload row sends: docusign's upload_document of `document`, named `name`. Its
 * spec as a file (for curl and the bare upload), the path of the script's contract (for the bare
 * upload that reads it first), curl sending it (with `curlArgs` for its answer and trust), and the
 * CLI sending it (in `cliEnv`).
 */
async function uploadRun(options: {
  work: string;
  name: string;
  document: string;
  url: string;
  env: NodeJS.ProcessEnv;
  cliEnv: NodeJS.ProcessEnv;
  curlArgs: string[];
}) {
  const { work, name, document, url, env, cliEnv, curlArgs } = options;
  const specFile = path.join(work, `${name}.spec.json`);
  const script = { handle: "reduck", host: "docusign.com", slug: "upload_document" };
  const address = `${script.handle}/${script.host}/${script.slug}`;
  await writeFile(specFile, JSON.stringify({ browser: "extension", script: { ...script, args: { documentName: name } } }));
  const curl: Side = {
    cmd: "curl",
    args: [
      "-sS",
      "-f",
      ...curlArgs,
      "-X",
      "POST",
      `${url}/run`,
      "-H",
      `X-API-Key: ${env.REDUCK_API_KEY}`,
      "-F",
      `spec=<${specFile};type=application/json`,
      "-F",
      `0:document=@${document}`,
    ],
    env,
  };
  const cliRun: Side = {
    cmd: node,
    args: [cli, "run", "--script", address, "--browser", "extension", `documentName=${name}`, `file:document=${document}`],
    env: cliEnv,
  };
  return { specFile, contractPath: `/api/scripts/${address}`, curl, cliRun };
}

/**
 * A run with a 1 KB file to a service 40 ms away over https (bench/far-path.mjs in front of the
 * sandbox), beside curl sending it: curl waits three round trips (TCP, TLS, the run), reduck run
 * four (the contract's read takes three, and the run's connection is opened meanwhile, so the run
 * itself takes one). The CLI trusts the path's certificate through NODE_EXTRA_CA_CERTS, curl
 * through --cacert; with that variable Node parses its own certificate authorities at start (as
 * any Node process does at its first TLS connection without it), which curl, given the one
 * certificate, does not.
 */
async function farRun(sandboxUrl: string, work: string, env: NodeJS.ProcessEnv, pairs: number): Promise<Array<[string, string, string]>> {
  const RTT = 40;
  const far = spawn(node, [path.join(root, "bench", "far-path.mjs"), sandboxUrl, String(RTT), work], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    // Its first line says where it serves; a path that could not start (no openssl, say) ends first.
    const ended = once(far, "exit").then(([code]) => Promise.reject(new Error(`bench/far-path.mjs ended (exit ${code}) before it served`)));
    const [line] = (await Promise.race([once(createInterface({ input: far.stdout! }), "line"), ended])) as [string];
    const { url, certFile } = JSON.parse(line) as { url: string; certFile: string };
    const small = path.join(work, "small.pdf");
    await writeFile(small, Buffer.alloc(1024, 7));
    const { curl, cliRun } = await uploadRun({
      work,
      name: "small.pdf",
      document: small,
      url,
      env,
      cliEnv: { ...env, REDUCK_API_URL: url, NODE_EXTRA_CA_CERTS: certFile },
      curlArgs: ["-o", "/dev/null", "--cacert", certFile],
    });
    const result = paired(cliRun, curl, pairs);
    const more = result.ours - result.floor;
    return [
      [`curl -F, a 1 KB run over https, ${RTT} ms away`, ms(result.floor), "three round trips: TCP, TLS, the run"],
      [
        "reduck run, the same",
        ms(result.ours),
        `${ms(more)} more: one round trip more than curl's three (the contract's read; the run goes on a connection opened meanwhile), and the CLI's start`,
      ],
    ];
  } finally {
    far.kill();
  }
}

/** Node starting and doing nothing: what a command's start is set beside. */
const nodeAlone: Side = { cmd: node, args: ["-e", "0"], env: cleanEnv() };

// 1. Start-up
if (wanted("version")) {
  const withCa = cleanEnv({ NODE_EXTRA_CA_CERTS: caCerts });
  const startupCa = paired({ cmd: node, args: [cli, "--version"], env: withCa }, { ...nodeAlone, env: withCa }, pairsGiven ?? 15);
  compare("reduck --version, NODE_EXTRA_CA_CERTS set", "node -e 0, NODE_EXTRA_CA_CERTS set", startupCa, 1.5);
  // 31 pairs: a tenth of 25 ms is within what the machine's noise moves a median of 15.
  const version: Side = { cmd: node, args: [cli, "--version"], env: cleanEnv() };
  compare("reduck --version", "node -e 0", paired(version, nodeAlone, pairsGiven ?? 31), 1.1);
  const [ours, floor] = [version, nodeAlone].map((side) => instructions(side.cmd, side.args, side.env));
  if (ours && floor) rows.push(byInstructions(ours, floor, "node -e 0's", 1.1));
}

// 1b. A command's help, into a pipe as an agent reads it (no network).
if (wanted("help")) {
  const help = paired({ cmd: node, args: [cli, "scripts", "list", "--help"], env: cleanEnv() }, nodeAlone, pairsGiven ?? 15);
  compare("reduck scripts list --help", "node -e 0", help, 1.3);
}

// 2-5. Against the sandbox
if (["run", "library", "form-data", "list", "far"].some(wanted)) {
  const work = await mkdtemp(path.join(os.tmpdir(), "reduck-bench-"));
  const big = path.join(work, "big.bin");
  const handle = await open(big, "w");
  await handle.truncate(MAX_FILE_BYTES); // exactly the limit, written sparse and fast
  await handle.close();
  // The simulated page: these figures are the client's, which the browser's time would only blur.
  const sandbox = await startSandboxProcess(work, { browser: "simulated" });
  const env = cleanEnv({ ...sandbox.env, REDUCK_CONFIG_DIR: work });
  try {
    const { specFile, contractPath, curl, cliRun } = await uploadRun({
      work,
      name: "big.bin",
      document: big,
      url: sandbox.env.REDUCK_API_URL!,
      env,
      cliEnv: env,
      curlArgs: ["-o", path.join(work, "curl-answer.json")],
    });
    // 15: with 7, the 50 MB run's median moved by a tenth from one bench to the next.
    const uploads = pairsGiven ?? 15;
    const rssFile = path.join(work, "rss");
    if (wanted("run")) {
      const cliRss = await peakRss(cliRun, rssFile);
      compare(
        "reduck run, 50 MB file",
        "curl -F, the same 50 MB run",
        paired(cliRun, curl, uploads),
        1.5,
        `; peak ${mib(cliRss)}, aim <= 50 MiB: ${verdict(cliRss <= 50 * MiB)}`,
      );
      // What any Node program pays for the same run, so the figure above reads as Node's share
      // and ours: no aim of its own.
      const bare: Side = { cmd: node, args: [path.join(root, "bench", "bare-upload.cjs"), specFile, big], env };
      const floor = paired(bare, curl, uploads);
      rows.push(["  node:http alone, the same run", ms(floor.ours), `${floor.ratio.toFixed(2)}x curl (CPU time ${floor.cpuRatio.toFixed(2)}x): Node's floor`]);
      // And the floor of any client that checks the arguments before it uploads, as the CLI does:
      // the contract's read, then the same run.
      const checking: Side = { ...bare, args: [...bare.args, contractPath] };
      const checkingFloor = paired(checking, curl, uploads);
      rows.push([
        "  node:http, the contract read first",
        ms(checkingFloor.ours),
        `${checkingFloor.ratio.toFixed(2)}x curl (CPU time ${checkingFloor.cpuRatio.toFixed(2)}x): the floor of a client that checks before it sends`,
      ]);
      const above = paired(cliRun, checking, uploads);
      rows.push(["  reduck run beside it", ms(above.ours), `${above.ratio.toFixed(2)}x the contract read first (CPU time ${above.cpuRatio.toFixed(2)}x)`]);
    }

    const library: Side = { cmd: node, args: [path.join(root, "bench", "library-upload.mjs"), big], env };
    if (wanted("library")) {
      const libRss = await peakRss(library, rssFile);
      compare(
        "library runScript, 50 MB from a path",
        "curl -F, the same 50 MB run",
        paired(library, curl, uploads),
        1.8,
        `; peak ${mib(libRss)}, aim <= 56 MiB: ${verdict(libRss <= 56 * MiB)}`,
      );
    }

    if (wanted("form-data")) {
      // form-data's framing would replace ours only if it cost at most 5% more.
      const formData: Side = { cmd: node, args: [path.join(root, "bench", "form-data-upload.mjs"), big], env };
      const fdRss = await peakRss(formData, rssFile);
      const libRss = await peakRss(library, rssFile);
      const result = paired(formData, library, uploads);
      rows.push(["library runScript (our framing), 50 MB", ms(result.floor), `peak ${mib(libRss)}`]);
      rows.push([
        "the same run framed by npm form-data",
        ms(result.ours),
        `${result.ratio.toFixed(2)}x of ours (CPU time ${result.cpuRatio.toFixed(2)}x), form-data kept if <= 1.05x: ${result.ratio <= 1.05 ? "yes" : "no, ours kept"}; peak ${mib(fdRss)}`,
      ]);
    }

    if (wanted("far")) rows.push(...(await farRun(sandbox.env.REDUCK_API_URL!, work, env, pairsGiven ?? 15)));

    if (wanted("list")) {
      const list: Side = { cmd: node, args: [cli, "scripts", "list", "reduck", "--json"], env };
      const bareGet: Side = { cmd: node, args: [path.join(root, "bench", "bare-get.cjs"), `${sandbox.env.REDUCK_API_URL}/api/scripts/reduck`], env };
      compare("reduck scripts list reduck --json", "node:http GET, body printed", paired(list, bareGet, pairsGiven ?? 15), 1.5);
      // The same pair by instructions, which the load does not move (valgrind, where installed).
      const [ours, floor] = [list, bareGet].map((side) => instructions(side.cmd, side.args, side.env));
      if (ours && floor) rows.push(byInstructions(ours, floor, "the GET's", 1.5));
      else rows.push(["  the same, by instructions", "-", "not counted: valgrind is not installed here"]);
    }
  } finally {
    sandbox.stop();
    await rm(work, { recursive: true, force: true });
  }
}

// 9. reduck batch beside a shell loop, --dry-run's memory, the journal's cost (bench/batch.ts).
if (wanted("batch")) rows.push(...(await benchBatch(pairsGiven ?? 3)));

// 6. The sandbox's real browser (bench/browser.ts).
if (wanted("browser")) rows.push(...(await benchBrowser()));
// 7. A polled run beside one whose first answer was the outcome (bench/polling.ts).
if (wanted("polling")) rows.push(...(await benchPolling(pairsGiven ?? 5)));
// 8. The sandbox under attack (bench/sandbox-attacks.ts).
if (wanted("attacks")) rows.push(...(await benchSandboxAttacks()));
// 10. The sandbox's own speed, for a test suite that runs against it (bench/sandbox-speed.ts).
if (wanted("sandbox-speed")) rows.push(...(await benchSandboxSpeed(pairsGiven ?? 3)));

// 11. The pages: a run's page rendered, a batch's report built (bench/pages.ts).
if (wanted("pages")) rows.push(...(await benchPages(pairsGiven ?? 5)));

// 12. Scripts as files: pull and offline status of 200 scripts (bench/scripts-as-files.ts).
if (wanted("folders")) rows.push(...(await benchScriptsAsFiles(pairsGiven ?? 3)));

const width = Math.max(...rows.map((r) => r[0].length));
const width2 = Math.max(...rows.map((r) => r[1].length));
console.log(`\nreduck-client benchmark (node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(2)})`);
console.log("medians of paired runs; ratios are the median of the per-pair ratios; NODE_EXTRA_CA_CERTS unset on both sides unless a row says set\n");
for (const [what, value, note] of rows) console.log(`${what.padEnd(width)}  ${value.padStart(width2)}  ${note}`);
