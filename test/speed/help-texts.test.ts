/**
 * `reduck <words> --help` into a pipe is printed by bin/run.js from the texts the build had oclif
 * write (dist/cli/help.json, scripts/help-texts.mjs), without loading the CLI: for every command of
 * the command table and every topic (a text that names the Node it runs on, as the root's does, is left to oclif), the
 * text is oclif's own, as oclif writes it from the
 * manifest when it answers (OCLIF_COLUMNS=80, a pipe's width, makes oclif answer). And whatever
 * would make oclif write another text leaves the answer to oclif.
 */
import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test } from "vitest";
import { BUILD_ROOT, runCli } from "../support/cli.js";
import { temporaryFolder } from "../support/files.js";

const manifest = JSON.parse(await readFile(path.join(BUILD_ROOT, "oclif.manifest.json"), "utf8")) as {
  commands: Record<string, { id: string; aliases: string[] }>;
};
const topics = Object.keys(JSON.parse(await readFile(path.join(BUILD_ROOT, "package.json"), "utf8")).oclif.topics);
const preload = fileURLToPath(new URL("./modules-at-exit.mjs", import.meta.url));
let home: string;

beforeAll(() => {
  home = temporaryFolder("reduck-help-texts-");
});

const env = (extra: Record<string, string> = {}) => ({ HOME: home, REDUCK_CACHE_DIR: path.join(home, "cache"), ...extra });

/** `reduck ...args`, and the files of dist/ it loaded. */
async function helpOf(args: string[], extra: Record<string, string> = {}) {
  const list = path.join(home, `modules-${Math.random().toString(36).slice(2)}.txt`);
  const result = await runCli(args, { env: env({ ...extra, NODE_OPTIONS: `--import=${preload}`, REDUCK_TEST_MODULES_FILE: list }) });
  const files = (await readFile(list, "utf8")).split("\n").filter((f) => f.startsWith(path.join(BUILD_ROOT, "dist")));
  return { ...result, files };
}

/** Runs `work` over `items`, `width` at a time (the machine has 2 cores, and others use them). */
async function inTurn<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

test("the manifest lists every command of the command table (src/cli/commands.ts, as built), and nothing else", async () => {
  const index = path.join(BUILD_ROOT, "dist", "cli", "index.cjs");
  const { stdout } = await promisify(execFile)(process.execPath, [
    "-e",
    `console.log(JSON.stringify(Object.keys(require(${JSON.stringify(index)}).COMMANDS)))`,
  ]);
  expect(Object.keys(manifest.commands).sort()).toEqual(JSON.parse(stdout).sort());
  expect(Object.keys(manifest.commands).length).toBeGreaterThan(40);
});

test("every command's and topic's help, printed without the CLI, is oclif's own text; and the root's is oclif's", { timeout: 300_000 }, async () => {
  const ids = new Set(["", ...topics]);
  for (const command of Object.values(manifest.commands)) for (const id of [command.id, ...command.aliases]) ids.add(id);
  expect(ids.size).toBeGreaterThan(40);
  await inTurn([...ids], 2, async (id) => {
    const words = id ? id.split(":") : [];
    const fast = await helpOf([...words, "--help"]);
    const oclif = await helpOf([...words, "--help"], { OCLIF_COLUMNS: "80" });
    // A text that names the Node it runs on (the root's VERSION line) is oclif's to write; every
    // other is printed without loading the CLI.
    const namesNode = fast.stdout.includes(`node-${process.version}`);
    if (id === "") expect(namesNode).toBe(true);
    expect(fast.files.length === 0, `reduck ${id} --help loads no file of the CLI`).toBe(!namesNode);
    expect(oclif.files.length, `with OCLIF_COLUMNS, oclif answers reduck ${id} --help`).toBeGreaterThan(0);
    expect({ id, ...pick(fast) }).toEqual({ id, ...pick(oclif) });
    expect(fast.stdout.length).toBeGreaterThan(40);
    // -h is the same flag, read by the same code whatever the words before it: the root, a topic and a command.
    if (shortFlagSample.has(id)) expect(pick(await helpOf([...words, "-h"]))).toEqual(pick(oclif));
  });
});

const shortFlagSample = new Set(["", "scripts", "scripts:list"]);

const pick = ({ code, stdout, stderr }: { code: number | null; stdout: string; stderr: string }) => ({ code, stdout, stderr });

describe("oclif answers whenever its text could differ from the build's", () => {
  // runCli sets NO_COLOR, which no colour overrides: left empty where colours are the point.
  type Out = { stdout: string; stderr: string };
  const cases: Array<[string, Record<string, string>, (out: Out, fast: Out) => boolean]> = [
    ["another width (OCLIF_COLUMNS)", { OCLIF_COLUMNS: "50" }, (out, fast) => out.stdout !== fast.stdout],
    ["colours forced (FORCE_COLOR)", { FORCE_COLOR: "1", NO_COLOR: "" }, ({ stdout }) => stdout.includes("\u001b[")],
    ["the early-access commands shown (REDUCK_EXPERIMENTAL=1)", { REDUCK_EXPERIMENTAL: "1" }, ({ stdout }) => stdout.includes("flock")],
    ["oclif's debug lines (DEBUG)", { DEBUG: "oclif:main" }, ({ stderr }) => stderr.includes("oclif:main")],
    // ansis turns colours on for a CI; whether oclif's help then has any is oclif's to say.
    ["a CI (CI)", { CI: "true", GITHUB_ACTIONS: "true", NO_COLOR: "" }, () => true],
  ];
  test.each(cases)("%s", async (_, extra, differs) => {
    const fast = await helpOf(["--help"]);
    const result = await helpOf(["--help"], extra);
    expect(result.code).toBe(0);
    expect(result.files.length).toBeGreaterThan(0);
    expect(differs(result, fast)).toBe(true);
  });

  test("a user's theme (theme.json in oclif's config folder)", async () => {
    const config = path.join(home, "themed");
    await mkdir(config, { recursive: true });
    await writeFile(path.join(config, "theme.json"), JSON.stringify({ command: "red" }));
    const result = await helpOf(["scripts", "list", "--help"], { REDUCK_CONFIG_DIR: config });
    expect(result.code).toBe(0);
    expect(result.files.length).toBeGreaterThan(0);
  });

  test("words that are no command, flags before --help, and `help <command>` are oclif's", async () => {
    for (const args of [
      ["scripts", "lst", "--help"],
      ["scripts", "list", "--json", "--help"],
      ["help", "scripts", "list"],
    ]) {
      const result = await helpOf(args);
      expect(result.files.length, args.join(" ")).toBeGreaterThan(0);
    }
  });
});
