/**
 * Every command the documentation shows (the shell blocks of README.md and docs/*.md, and every
 * `--help` example, extracted now, so a command added later or a page added to docs/ is checked too) is pasted into a real shell on a real
 * terminal, as a reader would, and must succeed (exit 0) against the sandbox over loopback HTTP,
 * with the built CLI as `reduck` on the PATH. A command that cannot run here carries
 * `# not run by the tests: <why>` next to it; that marker, and only it, leaves a command out.
 *
 * Each command gets a world of its own, so no command depends on another's order: a fresh seeded
 * sandbox (the demo account, REDUCK_API_URL and REDUCK_API_KEY set as the sandbox prints them,
 * plus a draft version 3 of example.com/get_title, id 3f0c2a1e-..., which the version examples
 * name), a fresh home (`~/Downloads/banner.png`, `~/Documents/contract.pdf`), and a working folder
 * holding the files the examples name (`./contract.pdf`, `./get_title.ts`, `./input.json`,
 * `README.md`, the batch example's `people.csv` and `invoices/`...). A command shown on several
 * pages, word for word, runs once. The sandbox's default
 * address in a command, `127.0.0.1:4010`, is this sandbox's. On the terminal, a `[y/N]` question
 * is answered y, the hidden `API key:` prompt gets the sandbox's key, and `reduck mcp` (waiting
 * for a client) gets end of input, as a person would do.
 *
 * The worlds share nothing, so the commands run side by side (vitest's maxConcurrency at a time):
 * most of a command's time is waiting (on its terminal, its sandbox, a script that sleeps). They
 * share the run's code cache for the CLI (REDUCK_CACHE_DIR), as one user's commands do.
 */
import { spawn } from "node:child_process";
import { chmod, copyFile, mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { createHandlers, createStore, SEED_IDS, startHttpServer } from "@reduck-client/sandbox";
import { BIN } from "../support/cli.js";
import { temporaryFolder } from "../support/files.js";
import { documentedCommands, type DocumentedCommand } from "./documented-commands.js";

const ROOT = new URL("../../", import.meta.url);
const commands = documentedCommands(ROOT);
const DRAFT_3 = "3f0c2a1e-0000-4000-8000-000000000000";

let shims: string;
beforeAll(async () => {
  // `reduck` on the PATH is the built CLI, as after `npm install -g` or `npm link`.
  shims = temporaryFolder("reduck-docs-bin-");
  await writeFile(path.join(shims, "reduck"), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
  await chmod(path.join(shims, "reduck"), 0o755);
});

const shellQuote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** A world for one command: a fresh sandbox, home and working folder. */
async function makeWorld() {
  const top = temporaryFolder("reduck-docs-");
  const home = path.join(top, "home");
  const work = path.join(top, "work");
  const desktop = path.join(home, "Desktop");
  await mkdir(path.join(home, "Downloads"), { recursive: true });
  await mkdir(path.join(home, "Documents"), { recursive: true });
  await mkdir(path.join(desktop, "reduck"), { recursive: true });
  await mkdir(work);
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2048, 7)]);
  await writeFile(path.join(home, "Downloads", "banner.png"), png);
  await writeFile(path.join(work, "banner.png"), png);
  // The quick start runs in a clone, where README.md is at hand to attach.
  await copyFile(new URL("README.md", ROOT), path.join(work, "README.md"));
  const pdf = "%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n";
  await writeFile(path.join(work, "contract.pdf"), pdf);
  await writeFile(path.join(home, "Documents", "contract.pdf"), pdf);
  // A secret's value in a file, as docs/flock.md's `secrets:set --from-file` reads it.
  await writeFile(path.join(work, "notify-token.txt"), "secret_example\n");
  // The batch example (README.md, docs/batch.md): three rows, two with an invoice beside the CSV.
  await mkdir(path.join(work, "invoices"));
  await writeFile(path.join(work, "invoices", "ada.pdf"), pdf);
  await writeFile(path.join(work, "invoices", "grace.pdf"), pdf);
  await writeFile(
    path.join(work, "people.csv"),
    'to,subject,file:attachment\nada@example.com,"Your invoice, March",invoices/ada.pdf\ngrace@example.com,"Your invoice, March",invoices/grace.pdf\nlinus@example.com,"No invoice this month",\n',
  );
  const source = "await page.goto(args.url);\nreturn { title: await page.title() };\n";
  await writeFile(path.join(work, "get_title.ts"), source);
  await writeFile(path.join(work, "get_links.ts"), "await page.goto(args.url);\nreturn { links: [] };\n");
  await writeFile(path.join(work, "add_contact.js"), "return { added: args.name };\n");
  await writeFile(path.join(work, "input.json"), JSON.stringify({ type: "object", properties: { url: { type: "string" } }, required: ["url"] }));
  await writeFile(path.join(work, "output.json"), JSON.stringify({ type: "object", properties: { links: { type: "array", items: { type: "string" } } } }));

  const store = createStore({ browser: "simulated", desktopDir: desktop });
  store.addVersion(SEED_IDS.scripts.getTitle, { id: DRAFT_3, draft: true, content: source, note: "Wait for the page to load" });
  const server = await startHttpServer({ handlers: createHandlers(store) });
  const env: Record<string, string> = {
    PATH: `${shims}:${process.env.PATH ?? ""}`,
    HOME: home,
    TERM: "xterm",
    NO_COLOR: "1",
    ...(process.env.REDUCK_CACHE_DIR ? { REDUCK_CACHE_DIR: process.env.REDUCK_CACHE_DIR } : {}),
    REDUCK_API_URL: server.url,
    REDUCK_API_KEY: store.demo.apiKey,
  };
  return {
    env,
    work,
    key: store.demo.apiKey,
    address: new URL(server.url).host,
    close: async () => {
      await server.close();
      await rm(top, { recursive: true, force: true });
    },
  };
}

/** What a person at the terminal does when the command asks. */
function answers(key: string): Array<[RegExp, string]> {
  return [
    [/\[y\/N\]\s*$/, "y\r"],
    [/API key:\s*$/, `${key}\r`],
    [/waiting for an MCP client/, "\x04"],
  ];
}

/** Runs a shell command line on a terminal 120 columns wide (util-linux `script`) and collects the screen. */
function onTerminal(line: string, env: Record<string, string>, cwd: string, key: string, deadlineMs: number) {
  const inner = `stty cols 120 rows 40; exec bash --noprofile --norc -c ${shellQuote(line)}`;
  const child = spawn("script", ["-qfec", inner, "/dev/null"], { env, cwd, stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  const pending = answers(key);
  const seen = new Map<RegExp, number>();
  const react = () => {
    for (const [pattern, keys] of pending) {
      // Cursor moves and line clears (readline's) are not text.
      const screen = output.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").replace(/\r/g, "");
      const count = screen.split("\n").filter((l) => pattern.test(l)).length;
      if (count > (seen.get(pattern) ?? 0)) {
        seen.set(pattern, count);
        child.stdin.write(keys);
      }
    }
  };
  child.stdout.on("data", (c: Buffer) => {
    output += c.toString("utf8");
    react();
  });
  child.stderr.on("data", (c: Buffer) => (output += c.toString("utf8")));
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve({ code: null, output: `${output}\n[no exit within ${deadlineMs} ms]` });
    }, deadlineMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("the documented commands are found", () => {
  test("README's headline command, the pages of docs/ and every command's --help examples are among them", () => {
    // The first command a reader meets, at the top of README.md, is run like every other.
    const headline = commands[0]!;
    expect(Number(headline.where.replace("README.md:", ""))).toBeLessThan(30);
    expect(headline.text).toMatch(/^reduck run --script reduck\/mail.google.com\/send_email .*subject=/);
    expect(headline.notRun).toBeUndefined();
    for (const page of ["docs/cli.md", "docs/batch.md"]) {
      expect(commands.filter((c) => c.where.startsWith(`${page}:`)).length, page).toBeGreaterThan(0);
    }
    for (const id of ["run", "runs list", "scripts versions promote", "login", "mcp"]) {
      expect(commands.filter((c) => c.where === `--help of ${id}`).length, id).toBeGreaterThan(0);
    }
  });

  test("every command left out says why", () => {
    for (const c of commands.filter((c) => c.notRun !== undefined)) expect(c.notRun, `${c.where}: ${c.text}`).toMatch(/\w{3,}/);
  });
});

/** The commands to run: each text once (the first place it is shown), those marked "not run" aside. */
const toRun = commands.filter((c, i) => c.notRun === undefined && commands.findIndex((d) => d.text === c.text) === i);

describe.concurrent("every documented command succeeds against the sandbox", () => {
  test.each(toRun.map((c): [string, DocumentedCommand] => [`${c.where}: ${c.text}`, c]))(
    "%s",
    async (_, command) => {
      const world = await makeWorld();
      try {
        const line = command.text.replaceAll("127.0.0.1:4010", world.address);
        const { code, output } = await onTerminal(line, world.env, world.work, world.key, 25_000);
        expect(code, `${command.where}\n$ ${command.text}\n${output.replaceAll(world.key, "rk_[key]")}`).toBe(0);
      } finally {
        await world.close();
      }
    },
    40_000,
  );
});
