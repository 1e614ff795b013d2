/**
 * docs/flock.md's shell commands, each run as written by bash in a world of its own (a fresh
 * sandbox, a fresh home, a working folder holding a small app) with REDUCK_EXPERIMENTAL=1 and
 * the built CLI as `reduck` on the PATH. Each must succeed. A command that cannot run here says
 * so next to it (`# not run by the tests: <why>`).
 */
import { spawn } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createHandlers, createStore, startHttpServer } from "@reduck-client/sandbox";
import { BIN, baseEnv } from "../support/cli.js";
import { readmeCommands } from "./documented-commands.js";

const DOC = new URL("../../docs/flock.md", import.meta.url);

let shims: string;
beforeAll(async () => {
  shims = await mkdtemp(path.join(os.tmpdir(), "reduck-flock-doc-bin-"));
  await writeFile(path.join(shims, "reduck"), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
  await chmod(path.join(shims, "reduck"), 0o755);
});
afterAll(async () => {
  await rm(shims, { recursive: true, force: true });
});

async function run(line: string): Promise<{ code: number | null; output: string }> {
  const top = await mkdtemp(path.join(os.tmpdir(), "reduck-flock-doc-"));
  const store = createStore();
  const server = await startHttpServer({ handlers: createHandlers(store) });
  try {
    const work = path.join(top, "my-app");
    await mkdir(path.join(work, "migrations"), { recursive: true });
    await writeFile(path.join(work, "manifest.json"), JSON.stringify({ slug: "my-app", name: "My app" }));
    await writeFile(path.join(work, "front.jsx"), "export default () => <h1>Hello</h1>;\n");
    await writeFile(path.join(work, "migrations", "001-initial.sql"), "CREATE TABLE answers (id INTEGER PRIMARY KEY);\n");
    const env = {
      ...baseEnv(),
      PATH: `${shims}:${process.env.PATH ?? ""}`,
      HOME: top,
      NO_COLOR: "1",
      REDUCK_EXPERIMENTAL: "1",
      REDUCK_API_URL: server.url,
      REDUCK_API_KEY: store.demo.apiKey,
    };
    const child = spawn("bash", ["--noprofile", "--norc", "-c", line], { env, cwd: work, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c) => (output += c));
    child.stderr.on("data", (c) => (output += c));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    return { code, output };
  } finally {
    await server.close();
    await rm(top, { recursive: true, force: true });
  }
}

const commands = readmeCommands(await readFile(DOC, "utf8"), "docs/flock.md");

describe("docs/flock.md", () => {
  test("shows the flock commands", () => {
    const texts = commands.map((c) => c.text).join("\n");
    for (const verb of ["deploy", "install", "open", "secrets:set", "list", "releases", "rollback"]) expect(texts).toContain(`reduck flock ${verb}`);
  });

  test.each(commands.filter((c) => c.notRun === undefined).map((c): [string, string] => [`${c.where}: ${c.text}`, c.text]))(
    "%s",
    async (_, line) => {
      const { code, output } = await run(line);
      expect(code, `$ ${line}\n${output}`).toBe(0);
    },
    30_000,
  );
});
