/**
 * The built CLI against answers that never end: it stops at the stated limit (32 MiB) or the
 * stated timeout, says which in one line, and holds no more than the limit in memory while it
 * reads (an endless answer once grew it to 800 MiB). A slow file: it measures a process's peak
 * memory, which the slow suite's one-file-at-a-time keeps from the load of other tests.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, test } from "vitest";
import { runCli } from "../support/cli.js";
import { temporaryFolder } from "../support/files.js";
import { waitFor } from "../support/wait.js";
import { startFaultServer, type Fault, type FaultServer } from "./fault-server.js";

const MiB = 2 ** 20;
const peakMemory = fileURLToPath(new URL("./peak-memory.mjs", import.meta.url));
const servers: FaultServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(fault: Fault): Promise<FaultServer> {
  const server = await startFaultServer({ "*": fault });
  servers.push(server);
  return server;
}

/** Runs the CLI with its peak resident memory recorded. */
async function measured(args: string[], env: Record<string, string>) {
  const peakFile = path.join(temporaryFolder("reduck-peak-"), "peak");
  const result = await runCli(args, { env: { ...env, NODE_OPTIONS: `--import=${peakMemory}`, REDUCK_TEST_PEAK_FILE: peakFile } });
  return { ...result, peak: Number(await readFile(peakFile, "utf8")) };
}

test("whoami against an answer that never ends: cut off at 32 MiB, once, with the CLI's memory bounded", async () => {
  const server = await serve("endless-body");
  const { code, stdout, stderr, peak } = await measured(["whoami"], { REDUCK_API_URL: server.url, REDUCK_API_KEY: "rk_test_key_for_endless" });
  expect(code).toBe(1);
  expect(stdout).toBe("");
  expect(stderr).toBe(`Error: the answer went past 32 MiB, the most the client reads of one, and was cut off (from ${server.url})\n`);
  expect(server.count("GET /api/me")).toBe(1);
  // Measured at about 97 MiB: Node and the CLI, the answer's 32 MiB, and what the garbage collector
  // has not yet taken back. Without the limit it grew past 400 MiB within 10 s.
  expect(peak).toBeLessThan(128 * MiB);
});

test("runs list against an answer announcing 64 MiB: refused by its Content-Length, before reading it", async () => {
  const server = await serve("huge-content-length");
  const { code, stderr } = await runCli(["runs", "list"], { env: { REDUCK_API_URL: server.url, REDUCK_API_KEY: "rk_test_key_for_endless" } });
  expect(code).toBe(1);
  expect(stderr).toContain("the answer is 64 MiB by its Content-Length, over the 32 MiB the client reads of one; nothing of it was read");
});

test("whoami against an answer that trickles forever stops at the timeout (each of its tries)", async () => {
  const server = await serve("trickle-forever");
  const { code, stdout, stderr } = await runCli(["whoami"], {
    env: { REDUCK_API_URL: server.url, REDUCK_API_KEY: "rk_test_key_for_endless", REDUCK_TIMEOUT_MS: "500" },
  });
  expect(code).toBe(1);
  expect(stdout).toBe("");
  expect(stderr).toBe(`Error: the answer from ${server.url} did not finish arriving within 500 ms\n`);
  // Two retries, as for a server that never answers: then it ends.
  await waitFor("the third request to reach the server", () => server.count("GET /api/me") >= 3);
  expect(server.count("GET /api/me")).toBe(3);
});
