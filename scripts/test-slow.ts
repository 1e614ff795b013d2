/**
 * `npm run test:slow`: the slow test files (*.slow.test.ts), in two vitest runs side by side.
 *
 * Most slow files run one at a time (vitest.slow.config.ts): they measure memory and time, or
 * load the machine on their own (npm installs, TypeScript, Chromium). A few spend nearly all their
 * time waiting on the clock instead: runs held for a minute, clients that trickle or idle until
 * the sandbox's own timeouts end them. Those (WAITING_BESIDE of test/support/waiting-files.ts)
 * run in a second vitest run beside the first, so their minutes of waiting overlap the rest. Its
 * output follows the first run's; the command fails if either run does.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { testBuild, testBuildFolder } from "../test/support/test-build.js";
import { WAITING_BESIDE } from "../test/support/waiting-files.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs");
/** What the caller passed on (`npm run test:slow -- ...`). */
const args = process.argv.slice(2);

// The slow suite's build, made once here: each run's globalSetup then finds it made.
await testBuild(testBuildFolder({ types: true }));

/** One vitest run of the slow config; resolves with its exit code. */
function vitestRun(extra: string[], output: "inherit" | "pipe"): { done: Promise<number>; text: () => string } {
  let text = "";
  const child = spawn(process.execPath, [vitest, "run", "--config", "vitest.slow.config.ts", ...extra, ...args], {
    cwd: root,
    stdio: ["ignore", output, output],
  });
  if (output === "pipe") {
    child.stdout!.on("data", (chunk: Buffer) => (text += chunk));
    child.stderr!.on("data", (chunk: Buffer) => (text += chunk));
  }
  const done = new Promise<number>((resolve) => {
    child.once("error", (err) => {
      text += `${err.message}\n`;
      resolve(1);
    });
    child.once("close", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
  return { done, text: () => text };
}

if (args.length) {
  // Files or options of the caller's (`npm run test:slow -- test/x.slow.test.ts`): one run, as asked.
  process.exitCode = await vitestRun([], "inherit").done;
} else {
  const waiting = vitestRun(WAITING_BESIDE, "pipe");
  const rest = vitestRun(
    WAITING_BESIDE.flatMap((file) => ["--exclude", file]),
    "inherit",
  );
  const restCode = await rest.done;
  const waitingCode = await waiting.done;
  process.stdout.write(`\n=== The slow files that mostly wait, run beside the others: ${WAITING_BESIDE.join(", ")}\n${waiting.text()}`);
  process.exitCode = restCode || waitingCode;
}
