/**
 * Scripts as files measured as a user meets them (`npx tsx bench/scripts-as-files.ts`, or
 * `benchScriptsAsFiles()` from bench/run.ts), against a sandbox started as `npm run sandbox`
 * starts it, holding 200 of the demo user's scripts (made through the API before timing).
 *
 * 1. `reduck scripts pull --dir DIR` of the 200 into an empty folder (aim: at most 10 s; 8 calls
 *    in flight).
 * 2. `reduck scripts status --dir DIR` of the 200, offline (aim: at most 1 s).
 *
 * Whole processes, start to exit; medians of `--pairs N` runs (default 3), NODE_EXTRA_CA_CERTS unset.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startSandboxProcess } from "@reduck-client/sandbox";
import { createReduckClient, createScript, listScripts } from "../src/index.js";
import { cleanEnv, median } from "./measure.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cli = path.join(root, "bin", "run.js");
const SCRIPTS = 200;

function timed(args: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  execFileSync(process.execPath, [cli, ...args], { cwd: root, env, stdio: ["ignore", "ignore", "pipe"] });
  return performance.now() - started;
}

/** Rows of `[what, figure, note]`. */
export async function benchScriptsAsFiles(pairs = 3): Promise<Array<[string, string, string]>> {
  const work = await mkdtemp(path.join(os.tmpdir(), "reduck-bench-folders-"));
  const sandbox = await startSandboxProcess(work, { browser: "simulated" });
  const env = cleanEnv({ ...sandbox.env, REDUCK_CONFIG_DIR: path.join(work, "config") });
  try {
    const client = createReduckClient({ apiKey: sandbox.env.REDUCK_API_KEY, baseUrl: sandbox.env.REDUCK_API_URL });
    const have = (await listScripts({ client, path: { handle: "@demo" }, query: { archived: "false", pageSize: 1 } })).totalCount ?? 0;
    const make = Array.from({ length: SCRIPTS - have }, (_, i) => i);
    for (let at = 0; at < make.length; at += 8) {
      await Promise.all(
        make.slice(at, at + 8).map(async (i) => {
          const made = await createScript({
            client,
            path: { handle: "@demo" },
            body: {
              host: `site${i % 20}.example`,
              slug: `script_${i}`,
              description: `Bench script ${i}`,
              content: `await page.goto(args.url);\n${"// a line of code\n".repeat(40)}return { n: ${i} };\n`,
              language: "typescript",
              input_schema: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
              output_schema: { type: "object", properties: { n: { type: "number" } } },
              side_effects: "none",
            },
          });
          if (made.error) throw new Error(`creating bench script ${i}: ${made.error.error}`);
        }),
      );
    }
    const pulls: number[] = [];
    const statuses: number[] = [];
    for (let p = 0; p < pairs; p++) {
      const dir = path.join(work, `tree-${p}`);
      pulls.push(timed(["scripts", "pull", "--dir", dir], env));
      for (let s = 0; s < 3; s++) statuses.push(timed(["scripts", "status", "--dir", dir], env));
    }
    const pull = median(pulls);
    const status = median(statuses);
    return [
      [`reduck scripts pull, ${SCRIPTS} scripts`, `${(pull / 1000).toFixed(2)} s`, `aim <= 10 s: ${pull <= 10_000 ? "met" : "MISSED"}`],
      [`reduck scripts status, ${SCRIPTS} scripts, offline`, `${Math.round(status)} ms`, `aim <= 1 s: ${status <= 1000 ? "met" : "MISSED"}`],
    ];
  } finally {
    sandbox.stop();
    await rm(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await benchScriptsAsFiles()) console.log(row.join("  "));
}
