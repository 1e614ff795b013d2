/**
 * What every bench shares: the environment a measured process runs in, the median that every
 * figure is, and an instruction count where the load would blur a time.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * The environment of a measured process: ours, without the CA bundle every Node start would
 * parse and without NODE_OPTIONS (a test runner's hooks), then `extra` (which may set either again).
 *
 * @example
 * execFileSync(node, [cli, "--version"], { env: cleanEnv({ REDUCK_CONFIG_DIR: work }) });
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.NODE_OPTIONS;
  return { ...env, ...extra };
}

/**
 * The middle value (the mean of the two middle ones for an even count).
 *
 * @example
 * median([3, 1, 2, 10]); // 2.5
 */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The instructions one run of `node <args>` executes, counted by valgrind's callgrind, or
 * undefined where valgrind is not installed (or the run fails). Unlike a time, the count does not
 * move with the machine's load: with V8's random seed fixed and its collector on one thread it is
 * the same from run to run. The command runs once with the same flags first, so that a code cache
 * it keeps was written under them (V8 refuses one made with other flags).
 *
 * @example
 * instructions(process.execPath, [cli, "scripts", "list", "--json"], cleanEnv()); // 234942256
 */
export function instructions(node: string, args: string[], env: NodeJS.ProcessEnv): number | undefined {
  const flags = ["--random-seed=1", "--single-threaded-gc"];
  const work = mkdtempSync(path.join(os.tmpdir(), "reduck-bench-callgrind-"));
  try {
    const warm = spawnSync(node, [...flags, ...args], { env, stdio: "ignore" });
    if (warm.status !== 0) return undefined;
    const out = path.join(work, "callgrind.out");
    const counted = spawnSync("valgrind", ["--tool=callgrind", `--callgrind-out-file=${out}`, node, ...flags, ...args], { env, stdio: "ignore" });
    if (counted.error || counted.status !== 0) return undefined;
    const total = /^(?:summary|totals): (\d+)/m.exec(readFileSync(out, "utf8"))?.[1];
    return total === undefined ? undefined : Number(total);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
