/**
 * What a polled run costs (`npx tsx bench/polling.ts`, or `benchPolling()` from bench/run.ts):
 * the library's runScript with the same 2 s sandbox script, once with a hold long enough for the
 * first answer to be the outcome (waitForSeconds 5), once with a hold it outlives
 * (waitForSeconds 1: a 202, then polls). Paired, again and again, on one sandbox started as
 * `npm run sandbox` starts it (`--browser simulated`: the client's figure, not a browser's).
 *
 * Aim: the polled run ends at most one poll interval (the retryAfterMs the sandbox gives) after
 * the one that came back in the first answer: the wait costs the service's own pacing, nothing more.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createReduckClient, runScript, type ReduckClient } from "../src/index.js";
import { startSandboxProcess } from "@reduck-client/sandbox";
import { median } from "./measure.js";

const SCRIPT = { handle: "sandbox", host: "sandbox.test", slug: "sleep", args: { seconds: 2 } };

async function timeRun(client: ReduckClient, waitForSeconds: number): Promise<number> {
  const started = performance.now();
  const { error } = await runScript({ client, script: SCRIPT, waitForSeconds });
  if (error) throw new Error(`the benchmark's run failed: ${error.error}`);
  return performance.now() - started;
}

export async function benchPolling(pairs = 5): Promise<Array<[string, string, string]>> {
  const work = await mkdtemp(path.join(os.tmpdir(), "reduck-bench-polling-"));
  const sandbox = await startSandboxProcess(work, { browser: "simulated" });
  try {
    const client = createReduckClient({ apiKey: sandbox.env.REDUCK_API_KEY!, baseUrl: sandbox.env.REDUCK_API_URL! });
    // The poll interval the sandbox asks for, read from a run's first (pending) answer.
    const first = await runScript({ client, script: SCRIPT, waitForSeconds: 1, wait: false });
    const interval = first.data && "retryAfterMs" in first.data && typeof first.data.retryAfterMs === "number" ? first.data.retryAfterMs : 2_000;
    await timeRun(client, 5); // warm-up
    const direct: number[] = [];
    const polled: number[] = [];
    for (let i = 0; i < pairs; i++) {
      direct.push(await timeRun(client, 5));
      polled.push(await timeRun(client, 1));
    }
    const extra = median(polled.map((t, i) => t - direct[i]!));
    const ms = (t: number) => `${t.toFixed(0)} ms`;
    return [
      ["a 2 s run, outcome in the first answer", ms(median(direct)), ""],
      [
        "the same run polled (waitForSeconds 1)",
        ms(median(polled)),
        `+${ms(extra)}, aim <= one poll interval (${ms(interval)}): ${extra <= interval ? "ok" : "MISSED"}`,
      ],
    ];
  } finally {
    sandbox.stop();
    await sandbox.exited;
    await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await benchPolling();
  for (const [what, value, note] of rows) console.log(`${what.padEnd(40)}  ${value.padStart(8)}  ${note}`);
}
