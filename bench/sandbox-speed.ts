/**
 * The sandbox's own speed, as a user's test suite meets it (`npx tsx bench/sandbox-speed.ts`, or
 * `benchSandboxSpeed()` from bench/run.ts). A sandbox started as `reduck-sandbox --browser
 * simulated` starts (its bin, in a process of its own, NODE_EXTRA_CA_CERTS unset), then:
 *
 * 1. start-up: from spawning the command to the first answered request (`GET /api/scripts/reduck`
 *    polled until it answers 200); aim at most 1 s; beside it, the sandbox's CPU time until then;
 * 2. an ordinary run (`POST /run`, send_email on the simulated page, JSON), one after another:
 *    the median wall time (aim at most 60 ms) and the sandbox's CPU time per run (its process
 *    and the script processes it has reaped, from /proc), which a loaded machine disturbs less;
 * 3. the same run 8 at a time: runs per second (aim at least 25 on 2 cores), and CPU per run.
 *
 * Each figure is the median over `rounds` sandboxes (default 3), started one after the other.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@reduck-client/sandbox/internal";
import { median } from "./measure.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BIN = path.join(root, "test", "server", "bin", "reduck-sandbox.mjs");
const SEQUENTIAL = 30;
const CONCURRENT = 200;
const CONCURRENCY = 8;
const TICKS = 100; // USER_HZ on Linux: /proc's CPU times are in hundredths of a second

/** proc(5)'s stat fields of a process, from its state on (utime is [11], stime [12], cutime [13], cstime [14]). */
function statFields(pid: number | string): string[] {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return [];
  }
}

const ticksOf = (fields: string[], which: number[]) => which.reduce((sum, i) => sum + (Number(fields[i]) || 0), 0);

/**
 * CPU time (ms) of the sandbox: its process, the script processes it has reaped, and those alive
 * now (kept for later runs). A process alive at one reading and reaped by the next moves from one
 * term to the other, so differences stay right.
 */
function treeCpu(pid: number): number {
  let ticks = ticksOf(statFields(pid), [11, 12, 13, 14]);
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const children = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
    for (const child of children ? children.split(" ") : []) ticks += ticksOf(statFields(child), [11, 12, 13, 14]);
  }
  return (ticks * 1000) / TICKS;
}

interface Round {
  startup: number;
  startupCpu: number;
  sequential: number;
  sequentialCpu: number;
  perSecond: number;
  concurrentCpu: number;
}

async function round(): Promise<Round> {
  const desktop = await mkdtemp(path.join(os.tmpdir(), "reduck-bench-speed-"));
  const port = await freePort();
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.NODE_OPTIONS;
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, "--port", String(port), "--desktop", desktop, "--browser", "simulated"], {
    stdio: ["ignore", "pipe", "ignore"],
    env,
  });
  let stdout = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  try {
    // 1. Start-up: the first request that is answered (the key is read from what the sandbox prints).
    let apiKey = "";
    for (;;) {
      apiKey ||= /^REDUCK_API_KEY=(.+)$/m.exec(stdout)?.[1]?.trim() ?? "";
      if (apiKey) {
        const answer = await fetch(`${url}/api/scripts/reduck`, { headers: { "X-API-Key": apiKey } }).catch(() => undefined);
        if (answer) {
          await answer.arrayBuffer();
          if (answer.ok) break;
        }
      }
      if (child.exitCode !== null) throw new Error("the sandbox exited before it answered");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const startup = performance.now() - started;
    const startupCpu = treeCpu(child.pid!);
    let n = 0;
    const run = async () => {
      const i = n++;
      const answer = await fetch(`${url}/run`, {
        method: "POST",
        headers: { "X-API-Key": apiKey, "Content-Type": "application/json" },
        body: JSON.stringify({
          browser: "extension",
          script: { handle: "reduck", host: "mail.google.com", slug: "send_email", args: { to: `s${i}@example.com`, subject: `run ${i}` } },
        }),
      });
      const body = (await answer.json()) as { result?: unknown };
      if (answer.status !== 200 || body.result === undefined) throw new Error(`a benchmark run failed: ${answer.status} ${JSON.stringify(body)}`);
    };
    // A few runs first: the first ones build and load what later ones reuse.
    for (let i = 0; i < 3; i++) await run();

    // 2. One after another.
    const times: number[] = [];
    let cpu = treeCpu(child.pid!);
    for (let i = 0; i < SEQUENTIAL; i++) {
      const t = performance.now();
      await run();
      times.push(performance.now() - t);
    }
    const sequentialCpu = (treeCpu(child.pid!) - cpu) / SEQUENTIAL;

    // 3. Eight at a time.
    cpu = treeCpu(child.pid!);
    let left = CONCURRENT;
    const t = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (left-- > 0) await run();
      }),
    );
    const perSecond = CONCURRENT / ((performance.now() - t) / 1000);
    const concurrentCpu = (treeCpu(child.pid!) - cpu) / CONCURRENT;
    return { startup, startupCpu, sequential: median(times), sequentialCpu, perSecond, concurrentCpu };
  } finally {
    child.kill("SIGTERM");
    if (child.exitCode === null) await once(child, "exit");
    await rm(desktop, { recursive: true, force: true });
  }
}

/** Rows of `[what, figure, note]`. */
export async function benchSandboxSpeed(rounds = 3): Promise<Array<[string, string, string]>> {
  const all: Round[] = [];
  for (let i = 0; i < rounds; i++) all.push(await round());
  const of = (key: keyof Round) => median(all.map((r) => r[key]));
  const range = (key: keyof Round, digits = 0) =>
    all.length > 1 ? ` (${Math.min(...all.map((r) => r[key])).toFixed(digits)}-${Math.max(...all.map((r) => r[key])).toFixed(digits)})` : "";
  const ok = (pass: boolean) => (pass ? "ok" : "MISSED");
  return [
    [
      "sandbox start-up to its first answer (--browser simulated)",
      `${of("startup").toFixed(0)} ms`,
      `aim <= 1000 ms: ${ok(of("startup") <= 1000)}${range("startup")}; sandbox CPU ${of("startupCpu").toFixed(0)} ms until then`,
    ],
    [
      `an ordinary run, one after another (median of ${SEQUENTIAL})`,
      `${of("sequential").toFixed(0)} ms`,
      `aim <= 60 ms: ${ok(of("sequential") <= 60)}${range("sequential")}; sandbox CPU ${of("sequentialCpu").toFixed(0)} ms a run`,
    ],
    [
      `the same run, ${CONCURRENCY} at a time (${CONCURRENT} runs)`,
      `${of("perSecond").toFixed(1)}/s`,
      `aim >= 25/s: ${ok(of("perSecond") >= 25)}${range("perSecond", 1)}; sandbox CPU ${of("concurrentCpu").toFixed(0)} ms a run`,
    ],
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const roundsArg = process.argv.indexOf("--rounds");
  const rows = await benchSandboxSpeed(roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 3);
  console.log(
    `load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}, ${os.cpus().length} cores, node ${process.version}`,
  );
  for (const [what, value, note] of rows) console.log(`${what.padEnd(62)}  ${value.padStart(8)}  ${note}`);
}
