/**
 * A sandbox stops when told, with everything it started. Started as a user starts it
 * (`npm run sandbox`, `npx reduck-sandbox`, or `startSandboxProcess`'s own node), with a real
 * headless Chromium, it is sent SIGTERM or SIGINT the way a user sends them: SIGTERM to the pid they
 * started (`kill PID`: npm → sh → node passes it on to no one by itself), SIGINT to that pid alone
 * (npx's sh holds it) or, as Ctrl-C does, to its whole process group. Every process that was below it, counted from /proc
 * before the signal (Chromium, in a process group of its own, included), must be gone within 5 s.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const BIN = fileURLToPath(new URL("../bin/reduck-sandbox.mjs", import.meta.url));
const STOP_WITHIN_MS = 5_000;

interface Proc {
  ppid: number;
  comm: string;
  /** Start time in clock ticks since boot: a pid reused by another process has another. */
  start: string;
}

function processTable(): Map<number, Proc> {
  const table = new Map<number, Proc>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      table.set(Number(name), { ppid: Number(rest[1]), comm: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), start: rest[19]! });
    } catch {
      // Ended while the table was read.
    }
  }
  return table;
}

/** The processes below `root` now, with what identifies each. */
function below(root: number): Map<number, Proc> {
  const table = processTable();
  const found = new Map<number, Proc>();
  const pids = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, info] of table) {
      if (!pids.has(pid) && pids.has(info.ppid)) {
        pids.add(pid);
        found.set(pid, info);
        grew = true;
      }
    }
  }
  return found;
}

/** Which of `seen` still run (the same process: same pid, same start time), and are not zombies waiting for a parent's wait. */
function stillRunning(seen: Map<number, Proc>): string[] {
  const table = processTable();
  return [...seen].filter(([pid, info]) => table.get(pid)?.start === info.start && !isZombie(pid)).map(([pid, info]) => `${pid} ${info.comm}`);
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

/** Resolves once `check` returns true, looking again every 100 ms; rejects after `ms` with `what`. */
async function until(check: () => boolean, ms: number, what: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(what());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** npm's CLI script (the npm running this suite, or the one installed with this node), run through this node. */
function npmCli(name: "npm-cli.js" | "npx-cli.js"): string {
  const execpath = process.env.npm_execpath;
  if (execpath && /np[mx]-cli\.js$/.test(execpath)) return path.join(path.dirname(execpath), name);
  // Not started by npm: the npm installed with this node.
  return path.join(path.dirname(realpathSync(process.execPath)), "..", "lib", "node_modules", "npm", "bin", name);
}

/** npm's own variables of an outer `npm test` removed, so the inner npm behaves as a user's. */
function userEnv(home: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_") || k.toLowerCase() === "npm_config_cache"));
  return {
    ...env,
    PATH: [path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter),
    HOME: home,
  };
}

const WAYS = {
  "npm run sandbox": () => [process.execPath, npmCli("npm-cli.js"), "run", "sandbox", "--", "--port", "0"],
  "npx reduck-sandbox": () => [process.execPath, npmCli("npx-cli.js"), "--no", "--", "reduck-sandbox", "--port", "0"],
  startSandboxProcess: () => [process.execPath, BIN, "--port", "0"],
} as const;

let started: ChildProcess | undefined;
let home: string | undefined;
afterEach(() => {
  // A failed test leaves nothing running behind it.
  if (started?.pid) for (const pid of [...below(started.pid).keys(), started.pid]) tryKill(pid, "SIGKILL");
  started = undefined;
  if (home) rmSync(home, { recursive: true, force: true });
  home = undefined;
});

function tryKill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Gone already.
  }
}

/** Starts the sandbox one way, in a process group of its own, and waits for its URL and its Chromium. */
async function startWith(way: keyof typeof WAYS): Promise<{ leader: number; seen: Map<number, Proc> }> {
  const [command, ...args] = WAYS[way]();
  home = mkdtempSync(path.join(os.tmpdir(), "reduck-stops-home-"));
  const child = spawn(command!, args, { cwd: ROOT, env: userEnv(home), detached: true, stdio: ["ignore", "pipe", "pipe"] });
  started = child;
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => (stdout += chunk));
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  await until(
    () => /^REDUCK_API_URL=/m.test(stdout),
    120_000,
    () => `${way} printed no REDUCK_API_URL:\n${stdout}\n${stderr}`,
  );
  const seen = new Map<number, Proc>();
  const look = () => {
    for (const [pid, info] of below(child.pid!)) seen.set(pid, info);
    return [...seen.values()].some((info) => /chrom/i.test(info.comm));
  };
  await until(look, 120_000, () => `${way}: no Chromium started below it:\n${stderr}`);
  return { leader: child.pid!, seen };
}

describe.each(Object.keys(WAYS) as Array<keyof typeof WAYS>)("%s", (way) => {
  // For npx, a signal to its pid alone reaches the sandbox only through `sh -c` (npx → sh → node):
  // SIGTERM ends sh, and sh holds a SIGINT until its child ends (process-tree.ts).
  const signals: Array<[string, (leader: number) => void]> = [
    ["SIGTERM to its pid", (leader) => process.kill(leader, "SIGTERM")],
    ["SIGINT to its pid", (leader) => process.kill(leader, "SIGINT")],
    ["SIGINT to its process group (Ctrl-C)", (leader) => process.kill(-leader, "SIGINT")],
  ];

  test.each(signals)("%s: it and every process it started end within 5 s", { timeout: 300_000 }, async (_, send) => {
    const { leader, seen } = await startWith(way);
    const all = new Map(seen);
    all.set(leader, { ppid: 0, comm: way, start: processTable().get(leader)!.start });
    expect([...seen.values()].filter((info) => /chrom/i.test(info.comm)).length).toBeGreaterThan(0);
    send(leader);
    await until(
      () => stillRunning(all).length === 0,
      STOP_WITHIN_MS,
      () => `still running ${STOP_WITHIN_MS / 1000} s after the signal: ${stillRunning(all).join(", ")}`,
    );
  });
});
