/**
 * What the CLI loads, checked without timing anything (speed itself is `npm run bench`'s): the
 * parts measured as slow stay out of the paths that do not need them. Node's fetch (undici,
 * whose WASM parser a process waits for at exit), https/tls/crypto for plain http or no request
 * at all, mime-types for a common file type.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { runCli } from "../support/cli.js";
import { makeFile, temporaryFolder } from "../support/files.js";
import { cliEnv } from "../support/sandbox.js";
import type { FaultServer } from "../faults/fault-server.js";
import { FAKE_RUN_ID, startFakeService } from "./fake-service.js";

const preload = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));
let server: FaultServer;
let home: string;
let user: Record<string, string>;

beforeAll(async () => {
  server = await startFakeService();
  home = temporaryFolder("reduck-loading-");
  user = cliEnv({ url: server.url, home, apiKey: "rk_test_key_for_loading" }).env;
});
afterAll(() => server?.close());

/** The built-in modules `reduck ...args` loaded, and how it ended. */
async function modulesOf(args: string[], extraPreload?: string) {
  const list = path.join(home, `modules-${Math.random().toString(36).slice(2)}.txt`);
  const imports = [preload("modules-at-exit.mjs"), ...(extraPreload ? [preload(extraPreload)] : [])].map((p) => `--import=${p}`);
  const result = await runCli(args, {
    env: {
      ...user,
      NODE_OPTIONS: imports.join(" "),
      REDUCK_TEST_MODULES_FILE: list,
    },
  });
  return { ...result, modules: (await readFile(list, "utf8")).split("\n").map((m) => m.replace(/^NativeModule /, "")) };
}

test("reduck --version loads no networking: neither Node's fetch, nor http, https, tls or crypto", async () => {
  const { code, modules } = await modulesOf(["--version"]);
  expect(code).toBe(0);
  for (const module of ["internal/deps/undici/undici", "http", "https", "tls", "crypto"]) expect(modules).not.toContain(module);
});

test("a catalogue call over http uses node:http, never Node's fetch, and loads no TLS", async () => {
  const { code, stdout, modules } = await modulesOf(["scripts", "list", "reduck", "--json"]);
  expect(code).toBe(0);
  expect(JSON.parse(stdout)).toEqual({ data: [], hasNextPage: false, totalCount: 0 });
  expect(modules).toContain("http");
  for (const module of ["internal/deps/undici/undici", "https", "tls"]) expect(modules).not.toContain(module);
});

test("a run with a .pdf takes its media type from the built-in table: mime-types is never loaded, nor fetch", async () => {
  const file = await makeFile("contract.pdf", "%PDF-1.7 test");
  const { code, stderr, modules } = await modulesOf(["run", "--script", "reduck/a.com/s", `file:document=${file}`], "no-mime-types.mjs");
  expect(stderr).toBe(`run ${FAKE_RUN_ID}\n`);
  expect(code).toBe(0);
  expect(modules).not.toContain("internal/deps/undici/undici");
});
