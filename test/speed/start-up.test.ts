/**
 * How the CLI starts (bin/run.js), checked without timing anything (speed is `npm run bench`'s):
 * `--version` answered without the CLI, each command loading only what it needs, and the code
 * cache that compiles the CLI's bundle: written once, then used, and never in the way when it is
 * broken or cannot be written.
 */
import { execFile } from "node:child_process";
import { copyFile, mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";
import { BUILD_ROOT, runCli } from "../support/cli.js";
import { makeFile, temporaryFolder } from "../support/files.js";
import { cliEnv } from "../support/sandbox.js";
import type { FaultServer } from "../faults/fault-server.js";
import { FAKE_RUN_ID, startFakeService } from "./fake-service.js";

// The package the tests run (test/support/cli.ts): dist/, bin/ and package.json as installed.
const root = BUILD_ROOT;
const bundle = path.join(root, "dist", "cli", "index.cjs");
const preload = fileURLToPath(new URL("./modules-at-exit.mjs", import.meta.url));
let server: FaultServer;
let home: string;
let user: Record<string, string>;

beforeAll(async () => {
  server = await startFakeService();
  home = temporaryFolder("reduck-start-up-");
  user = cliEnv({ url: server.url, home, apiKey: "rk_test_key_for_start_up" }).env;
});
afterAll(() => server?.close());

const env = (extra: Record<string, string> = {}) => ({ ...user, REDUCK_CACHE_DIR: path.join(home, "cache"), ...extra });

/** What `reduck ...args` loaded: Node's built-in modules and the files it required. */
async function loaded(args: string[]) {
  const list = path.join(home, `modules-${Math.random().toString(36).slice(2)}.txt`);
  const result = await runCli(args, { env: env({ NODE_OPTIONS: `--import=${preload}`, REDUCK_TEST_MODULES_FILE: list }) });
  const lines = (await readFile(list, "utf8")).split("\n");
  return {
    ...result,
    builtins: lines.filter((l) => l.startsWith("NativeModule ")).map((l) => l.replace(/^NativeModule /, "")),
    files: lines.filter((l) => l.startsWith("/") || /^[A-Z]:\\/.test(l)).map((f) => path.relative(root, f)),
  };
}

test("reduck --version prints oclif's own version line without loading the CLI, http or a vendor file", async () => {
  const { code, stdout, files, builtins } = await loaded(["--version"]);
  expect(code).toBe(0);
  // The same line oclif prints when it answers (its `--version`, run through the bundle's main).
  const { stdout: oclifLine } = await promisify(execFile)(process.execPath, ["-e", `require(${JSON.stringify(bundle)}).main(["--version"])`], {
    env: { PATH: process.env.PATH ?? "" },
  });
  expect(stdout).toBe(oclifLine);
  expect(stdout).toMatch(/^reduck-client\/\d+\.\d+\.\d+\S* \S+-\S+ node-v\d+/);
  expect(files.filter((f) => f.startsWith("dist"))).toEqual([]);
  for (const module of ["http", "https", "vm", "internal/deps/undici/undici"]) expect(builtins).not.toContain(module);
});

test("--version written straight to its output: whole into a file, and no error when the reader is already gone", async () => {
  const bin = path.join(root, "bin", "run.js");
  const file = path.join(home, "version.txt");
  const shell = (command: string) => promisify(execFile)("/bin/sh", ["-c", command], { env: { ...env(), BIN: bin, NODE: process.execPath, OUT: file } });
  await shell('"$NODE" "$BIN" --version > "$OUT"');
  expect(await readFile(file, "utf8")).toMatch(/^reduck-client\/\S+ \S+ node-v\S+\n$/);
  // A pipe no one reads any more (a FIFO whose only reader closed before the CLI starts): the
  // write fails with EPIPE, as `reduck --version | head -0` can, and that is no error.
  const fifo = path.join(home, "gone-reader");
  const { stderr } = await shell(`mkfifo "${fifo}"; exec 3<>"${fifo}"; exec 4>"${fifo}"; exec 3<&-; "$NODE" "$BIN" --version >&4; echo "exit $?" >&2`);
  expect(stderr).toBe("exit 0\n");
});

test("-v is --version too", async () => {
  const { code, stdout } = await runCli(["-v"], { env: env() });
  expect(code).toBe(0);
  expect(stdout).toMatch(/^reduck-client\/\S+ \S+ node-v/);
});

test("a catalogue command loads the CLI's bundle only: no vendor file (ajv, the MCP SDK), no child_process or readline", async () => {
  const { code, files, builtins } = await loaded(["scripts", "list", "reduck", "--json"]);
  expect(code).toBe(0);
  expect(files.filter((f) => f.startsWith("dist"))).toEqual([path.join("dist", "cli", "index.cjs")]);
  for (const module of ["child_process", "readline", "perf_hooks"]) expect(builtins).not.toContain(module);
});

test("a command named as itself starts without oclif's load (no oclif.manifest.json read); a misspelt one goes through it", async () => {
  const preload = fileURLToPath(new URL("./files-read.cjs", import.meta.url));
  const read = async (args: string[]) => {
    const list = path.join(home, `read-${Math.random().toString(36).slice(2)}.txt`);
    const result = await runCli(args, { env: env({ NODE_OPTIONS: `--require=${preload}`, REDUCK_TEST_FILES_READ: list }) });
    return { ...result, files: (await readFile(list, "utf8")).split("\n").map((f) => path.relative(root, f)) };
  };
  const listed = await read(["scripts", "list", "reduck", "--json"]);
  expect(listed.code).toBe(0);
  expect(listed.files).toContain(path.join("dist", "cli", "commands.json"));
  expect(listed.files).not.toContain("oclif.manifest.json");
  const misspelt = await read(["scripts", "lst"]);
  expect(misspelt.code).toBe(2);
  expect(misspelt.stderr).toMatch(/scripts list/);
  expect(misspelt.files).toContain("oclif.manifest.json");
});

test("a catalogue command that writes nothing on stderr never makes process.stderr (oclif reads its width only to wrap an error)", async () => {
  const file = path.join(home, "stderr-made.txt");
  const made = fileURLToPath(new URL("./stderr-made.cjs", import.meta.url));
  const listed = await runCli(["scripts", "list", "reduck", "--json"], { env: env({ NODE_OPTIONS: `--require=${made}`, REDUCK_TEST_STDERR_FILE: file }) });
  expect(listed.code).toBe(0);
  expect(await readFile(file, "utf8")).toBe("never");
  // A refused command still writes its error there, as before.
  const refused = await runCli(["scripts", "list", "reduck", "--page-size", "0"], {
    env: env({ NODE_OPTIONS: `--require=${made}`, REDUCK_TEST_STDERR_FILE: file }),
  });
  expect(refused.code).toBe(2);
  expect(refused.stderr).toMatch(/^Error: /);
  expect(await readFile(file, "utf8")).toBe("made");
});

test("a run loads ajv's vendor file to check its arguments, and never the MCP SDK's, nor node:crypto", async () => {
  const file = await makeFile("contract.pdf", "%PDF-1.7 test");
  const { code, stderr, files, builtins } = await loaded(["run", "--script", "reduck/a.com/s", "n=2", `file:document=${file}`]);
  expect(stderr).toBe(`run ${FAKE_RUN_ID}\n`);
  expect(code).toBe(0);
  expect(files).toContain(path.join("dist", "cli", "ajv-vendor.cjs"));
  expect(files).not.toContain(path.join("dist", "cli", "mcp-vendor.cjs"));
  // Its multipart boundary comes from Math.random: node:crypto would cost a 50 MB run 0.5 MiB of its peak.
  expect(builtins).not.toContain("crypto");
});

test("a run whose contract asks only for text, numbers and true/false never loads ajv, and still refuses what does not fit", async () => {
  const file = await makeFile("contract.pdf", "%PDF-1.7 test");
  const sent = await loaded(["run", "--script", "reduck/a.com/plain", "n=2", "note=hi", `file:document=${file}`]);
  expect(sent.stderr).toBe(`run ${FAKE_RUN_ID}\n`);
  expect(sent.code).toBe(0);
  expect(sent.files).toContain(path.join("dist", "cli", "index.cjs"));
  expect(sent.files).not.toContain(path.join("dist", "cli", "ajv-vendor.cjs"));
  const refused = await loaded(["run", "--script", "reduck/a.com/plain", "n=2.5", `file:document=${file}`]);
  expect(refused.stderr).toMatch(/n must be a whole number \(you gave "2\.5"\)/);
  expect(refused.code).toBe(2);
  expect(refused.files).not.toContain(path.join("dist", "cli", "ajv-vendor.cjs"));
});

test("the CLI's files are ASCII and call no import() (a code-cached function cannot, on Node 20)", async () => {
  const names = (await readdir(path.join(root, "dist", "cli"))).filter((n) => n.endsWith(".cjs"));
  expect(names).toEqual(expect.arrayContaining(["index.cjs", "ajv-vendor.cjs", "mcp-vendor.cjs"]));
  for (const name of names) {
    const text = await readFile(path.join(root, "dist", "cli", name), "latin1");
    expect(/[^\x00-\x7f]/.test(text), name).toBe(false);
    // oclif's own module loader mentions "import()" in an error message; no call remains.
    expect(text.match(/(?<!["'`])\bimport\((?!\)")/g) ?? [], name).toEqual([]);
  }
});

/** The code cache files under `dir` (one folder per build and Node), with their sizes and times. */
async function caches(dir: string) {
  const folders = await readdir(dir).catch(() => [] as string[]);
  const found = [];
  for (const folder of folders) {
    for (const name of await readdir(path.join(dir, folder)).catch(() => [] as string[])) {
      found.push({ folder, name, file: path.join(dir, folder, name), ...(await stat(path.join(dir, folder, name))) });
    }
  }
  return found;
}

test("the first start writes a code cache for each file it loaded, later starts use them as they are, and a run works from its own", async () => {
  const dir = path.join(home, "cache-first");
  const first = await runCli(["scripts", "list", "reduck", "--json"], { env: env({ REDUCK_CACHE_DIR: dir }) });
  expect(first.code).toBe(0);
  const written = await caches(dir);
  const stamp = `${process.version.replace(/\./g, "\\.")}-${process.arch}-\\d+-\\d+`;
  expect(new Set(written.map((c) => c.folder)).size).toBe(1);
  expect(written[0]!.folder).toMatch(new RegExp(`^${stamp}$`));
  const index = written.find((c) => c.name.startsWith("index.cjs-"));
  // The bundle's cache is the command's own (see the next test).
  expect(index!.name).toMatch(/^index\.cjs-\d+-\d+\.scripts-list\.v8$/);
  expect(index!.size).toBeGreaterThan(1_000);
  expect(written.filter((c) => !c.name.endsWith(".v8"))).toEqual([]);

  // Accepted by V8, a cache is not written again.
  const second = await runCli(["scripts", "list", "reduck", "--json"], { env: env({ REDUCK_CACHE_DIR: dir }) });
  expect(JSON.parse(second.stdout)).toEqual({ data: [], hasNextPage: false, totalCount: 0 });
  const times = (list: Array<{ name: string; mtimeMs: number }>) => list.map((c) => [c.name, c.mtimeMs]).sort();
  expect(times(await caches(dir))).toEqual(times(written));

  // A run compiles ajv's vendor file too, and works from its cache (the second run).
  const file = await makeFile("contract.pdf", "%PDF-1.7 test");
  for (let i = 0; i < 2; i++) {
    const run = await runCli(["run", "--json", "--script", "reduck/a.com/s", "n=0", `file:document=${file}`], { env: env({ REDUCK_CACHE_DIR: dir }) });
    expect(run.stdout).toContain("n must be at least 1");
    expect(run.code).toBe(2);
  }
  const all = await caches(dir);
  expect(all.find((c) => c.name.startsWith("ajv-vendor.cjs-"))).toBeDefined();
  // The list's caches are as they were.
  expect(times(all.filter((c) => written.some((w) => w.name === c.name)))).toEqual(times(written));
});

test("each command keeps its own cache of the bundle, whichever way it is named; what names no command shares one", async () => {
  const dir = path.join(home, "cache-per-command");
  const bundleCaches = async () =>
    (await caches(dir))
      .filter((c) => c.name.startsWith("index.cjs-"))
      .map((c) => c.name.replace(/^index\.cjs-\d+-\d+/, ""))
      .sort();
  const file = await makeFile("contract.pdf", "%PDF-1.7 test");
  const codes: Array<number | null> = [];
  for (const words of [
    ["scripts", "list", "reduck", "--json"],
    ["list", "reduck", "--json"], // scripts list's alias
    ["scripts:list", "reduck", "--json"],
    ["run", "--json", "--script", "reduck/a.com/s", "n=0", `file:document=${file}`], // refused by the contract: exit 2
  ])
    codes.push((await runCli(words, { env: env({ REDUCK_CACHE_DIR: dir }) })).code);
  expect(codes).toEqual([0, 0, 0, 2]);
  expect(await bundleCaches()).toEqual([".run.v8", ".scripts-list.v8"]);
  // A misspelt command (oclif's did-you-mean) names none: the bundle's cache without a name.
  const typo = await runCli(["scripts", "lsit"], { env: env({ REDUCK_CACHE_DIR: dir }) });
  expect(typo.code).toBe(2);
  expect(await bundleCaches()).toEqual([".run.v8", ".scripts-list.v8", ".v8"]);
  // Each command's cache holds what it compiled: a run's is not a list's.
  const sizes = new Map((await caches(dir)).map((c) => [c.name.replace(/^index\.cjs-\d+-\d+/, ""), c.size]));
  expect(sizes.get(".run.v8")).not.toBe(sizes.get(".scripts-list.v8"));
});

test("a broken cache is refused by V8 and written anew; the command works all the same", async () => {
  const dir = path.join(home, "cache-broken");
  await runCli(["scripts", "list", "reduck", "--json"], { env: env({ REDUCK_CACHE_DIR: dir }) });
  const cache = (await caches(dir)).find((c) => c.name.startsWith("index.cjs-"))!;
  await writeFile(cache.file, Buffer.alloc(4096, 7));
  const result = await runCli(["scripts", "list", "reduck", "--json"], { env: env({ REDUCK_CACHE_DIR: dir }) });
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout).data).toEqual([]);
  const rewritten = (await caches(dir)).find((c) => c.name === cache.name)!;
  expect(rewritten.size).toBeGreaterThan(1_000);
});

test("a cache folder that cannot be made, or NODE_DISABLE_COMPILE_CACHE, only leaves the cache out", async () => {
  const blocker = path.join(home, "not-a-folder");
  await writeFile(blocker, "a file where the cache folder would go");
  const blocked = await runCli(["scripts", "list", "reduck", "--json"], { env: env({ REDUCK_CACHE_DIR: path.join(blocker, "cache") }) });
  expect(blocked.stderr).toBe("");
  expect(blocked.code).toBe(0);
  expect(JSON.parse(blocked.stdout).data).toEqual([]);

  const dir = path.join(home, "cache-disabled");
  const disabled = await runCli(["scripts", "list", "reduck", "--json"], { env: env({ REDUCK_CACHE_DIR: dir, NODE_DISABLE_COMPILE_CACHE: "1" }) });
  expect(disabled.code).toBe(0);
  expect(await caches(dir)).toEqual([]);
});

test("oclif's debug lines still print under DEBUG (the debug package is loaded only then)", async () => {
  const quiet = await runCli(["scripts", "list", "reduck", "--json"], { env: env() });
  expect(quiet.stderr).toBe("");
  const debug = await runCli(["scripts", "list", "reduck", "--json"], { env: env({ DEBUG: "oclif:main" }) });
  expect(debug.code).toBe(0);
  expect(debug.stderr).toMatch(/oclif:main process\.argv/);
});

test("a clone that was never built says so in one line with the fix, and --version still answers", async () => {
  // bin/ and package.json alone, as in a fresh clone before `npm run build`.
  const clone = temporaryFolder("reduck-unbuilt-");
  await mkdir(path.join(clone, "bin"));
  for (const file of ["bin/run.js", "bin/package.json", "package.json"]) await copyFile(path.join(root, file), path.join(clone, file));
  const run = (args: string[]) => promisify(execFile)(process.execPath, [path.join(clone, "bin", "run.js"), ...args], { env: env() }).catch((e) => e);
  const listed = await run(["scripts", "list"]);
  expect(listed.code).toBe(1);
  expect(listed.stdout).toBe("");
  expect(listed.stderr).toBe(
    `Error: the reduck CLI is not built here (${path.join(clone, "dist", "cli", "index.cjs")} is missing): run \`npm run build\` in ${clone} first\n`,
  );
  expect((await run(["--version"])).stdout).toMatch(/^reduck-client\/\d+\.\d+\.\d+ /);
});
