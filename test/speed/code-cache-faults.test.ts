/**
 * The code caches bin/run.js keeps (one per file of the CLI it loads) never change what a command
 * does: a cache cut short, unreadable, or in a home folder that cannot be written only costs a
 * compile, silently; CLIs starting together while caches are written each read a whole cache or
 * none. (A cache of another Node: test/speed/node-versions.slow.test.ts.)
 */
import { chmod, mkdir, readdir, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { runCli } from "../support/cli.js";
import { temporaryFolder } from "../support/files.js";
import { nodeBoundByPermissions } from "../support/permissions.js";
import { cliEnv } from "../support/sandbox.js";
import type { FaultServer } from "../faults/fault-server.js";
import { startFakeService } from "./fake-service.js";

let server: FaultServer;
let home: string;
let user: Record<string, string>;

beforeAll(async () => {
  server = await startFakeService();
  home = temporaryFolder("reduck-cache-faults-");
  user = cliEnv({ url: server.url, home, apiKey: "rk_test_key_for_cache_faults" }).env;
});
afterAll(() => server?.close());

const LIST = ["scripts", "list", "reduck", "--json"];
const ANSWER = { data: [], hasNextPage: false, totalCount: 0 };

/** Every file under `dir`, with its size and time. */
async function filesUnder(dir: string) {
  const names = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  const found = [];
  for (const name of names) {
    const info = await stat(path.join(dir, name));
    if (info.isFile()) found.push({ name, size: info.size, mtimeMs: info.mtimeMs });
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/** `reduck scripts list reduck --json` with its caches in `dir`: it must answer as always, and say nothing else. */
async function listWith(dir: string, options: { node?: string; env?: Record<string, string> } = {}) {
  const result = await runCli(LIST, { env: { ...user, REDUCK_CACHE_DIR: dir, ...options.env }, node: options.node });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout)).toEqual(ANSWER);
  return result;
}

/** A cache folder made by one run, and its index.cjs cache file. */
async function madeCaches(name: string) {
  const dir = path.join(home, name);
  await listWith(dir);
  const files = await filesUnder(dir);
  const index = files.find((f) => path.basename(f.name).startsWith("index.cjs-"))!;
  expect(index.size).toBeGreaterThan(1_000);
  return { dir, files, index: path.join(dir, index.name), size: index.size };
}

test("a cache cut short is refused, the command answers as always, and the cache is written whole again", async () => {
  const { dir, index, size } = await madeCaches("truncated");
  // V8's caches of the same run differ by a few bytes: whole is about the size it was.
  await truncate(index, Math.floor(size / 2));
  await listWith(dir);
  expect((await stat(index)).size).toBeGreaterThan(size * 0.9);
  // Empty too.
  await truncate(index, 0);
  await listWith(dir);
  expect((await stat(index)).size).toBeGreaterThan(size * 0.9);
});

test("a cache that cannot be read (mode 000, permissions applying even to root) is left aside, and replaced", async () => {
  const { dir, index, size } = await madeCaches("unreadable");
  await chmod(index, 0o000);
  const node = await nodeBoundByPermissions(home);
  await listWith(dir, { node });
  // Renamed over the unreadable one, the new cache is the user's own to read (0600).
  const info = await stat(index);
  expect(info.mode & 0o777).toBe(0o600);
  expect(info.size).toBeGreaterThan(size * 0.9);
  await listWith(dir, { node });
});

test("a cache folder that is a file, or a cache that is a folder, only leaves the cache out", async () => {
  const { dir, index } = await madeCaches("wrong-kinds");
  // A folder where index.cjs's cache should be: unreadable as a file, and not replaced.
  await rm(index);
  await mkdir(index);
  await listWith(dir);
  expect((await stat(index)).isDirectory()).toBe(true);
  // Nothing left behind from the write that could not be put in place.
  expect((await filesUnder(dir)).filter((f) => !f.name.endsWith(".v8"))).toEqual([]);
  // A file where the cache folder should be.
  const blocker = path.join(home, "a-file");
  await writeFile(blocker, "not a folder");
  await listWith(blocker);
  expect(await readFile(blocker, "utf8")).toBe("not a folder");
});

test("a read-only home folder: the command answers as always, says nothing of the cache, and writes none", async () => {
  const readOnly = path.join(home, "read-only-home");
  await mkdir(readOnly);
  await chmod(readOnly, 0o555);
  const node = await nodeBoundByPermissions(home);
  // No REDUCK_CACHE_DIR or XDG_CACHE_HOME: the cache would go under HOME/.cache/reduck.
  const env = { ...user, HOME: readOnly };
  delete (env as Record<string, string | undefined>).XDG_CACHE_HOME;
  for (let i = 0; i < 2; i++) {
    const result = await runCli(LIST, { env: { ...env, REDUCK_CACHE_DIR: "" }, node });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(ANSWER);
  }
  expect(await readdir(readOnly)).toEqual([]);
  // A read-only cache folder (made, then locked) is the same.
  const locked = path.join(home, "locked-cache");
  await mkdir(locked);
  await chmod(locked, 0o555);
  await listWith(locked, { node });
  expect(await readdir(locked)).toEqual([]);
});

test("CLIs starting together while the caches are written: each answers, and each cache is whole", async () => {
  const dir = path.join(home, "together");
  // Four at once on an empty folder: all compile, all write at exit.
  await Promise.all(Array.from({ length: 4 }, () => listWith(dir)));
  const written = await filesUnder(dir);
  expect(written.length).toBeGreaterThan(0);
  expect(written.filter((f) => !f.name.endsWith(".v8"))).toEqual([]);
  // Four more while a fifth writes afresh (its index cache removed): every cache they read was whole.
  const index = written.find((f) => path.basename(f.name).startsWith("index.cjs-"))!;
  await rm(path.join(dir, index.name));
  await Promise.all(Array.from({ length: 4 }, () => listWith(dir)));
  // Whole caches are accepted by V8: a later start rewrites none of them.
  const settled = await filesUnder(dir);
  await listWith(dir);
  expect(await filesUnder(dir)).toEqual(settled);
  expect(settled.map((f) => f.name)).toEqual(written.map((f) => f.name));
  expect((await readFile(path.join(dir, index.name))).length).toBeGreaterThan(index.size * 0.9);
});
