/**
 * A timeout or an abort always fires, even after a garbage collection: on Node 20 and 22 a signal
 * carried by a Request is lost once that Request is collected (nodejs/undici#4068). Each case runs
 * in a child process with `--expose-gc` that forces a collection every 10 ms while it waits on a
 * server that accepts the connection and never answers.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { BUILD_ROOT } from "../support/cli.js";
import { startFaultServer, type FaultServer } from "./fault-server.js";

const child = fileURLToPath(new URL("./gc-child.mjs", import.meta.url));
let server: FaultServer;

beforeAll(async () => {
  server = await startFaultServer({ "*": "silent" });
});
afterAll(() => server.close());

/** The child's outcome, or "hung" if it is still waiting long after the 500 ms it was given. */
function runChild(which: string): Promise<{ kind?: string; error?: string; elapsedMs?: number } | "hung"> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--expose-gc", child, which, server.url, path.join(BUILD_ROOT, "dist", "index.js")], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    proc.stdout.on("data", (c) => (out += c));
    const guard = setTimeout(() => proc.kill(), 10_000);
    proc.on("error", reject);
    proc.on("close", () => {
      clearTimeout(guard);
      resolve(out ? JSON.parse(out) : "hung");
    });
  });
}

// 500 ms given; the margin is for a loaded machine, the failure it guards against never ends.
const MARGIN_MS = 2_500;

test.each([
  ["catalogue-timeout", "timeout"],
  ["list-timeout", "timeout"],
  ["catalogue-abort", "aborted"],
  ["run-abort", "aborted"],
  ["run-multipart-abort", "aborted"],
])("%s ends as %s despite forced garbage collections", async (which, kind) => {
  const outcome = await runChild(which);
  expect(outcome).not.toBe("hung");
  expect(outcome).toMatchObject({ kind });
  expect((outcome as { elapsedMs: number }).elapsedMs).toBeLessThan(500 + MARGIN_MS);
});
