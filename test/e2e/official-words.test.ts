/**
 * The official CLI's words: `reduck list`, `reduck read` and `--version-id` give what our own
 * `scripts list`, `scripts get` and `--version` give, and `--help` shows each. The built CLI
 * against the sandbox over loopback.
 */
import { describe, expect, test } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { runCli } from "../support/cli.js";
import { useCliSandbox } from "../support/sandbox.js";

const sandbox = useCliSandbox({ home: "reduck-official-words-" });

/** Runs both command lines and expects the same exit code and the same stdout. */
async function same(ours: string[], theirs: string[]): Promise<string> {
  const [a, b] = await Promise.all([runCli(ours, { env: sandbox.env }), runCli(theirs, { env: sandbox.env })]);
  expect(a.code, a.stderr).toBe(0);
  expect(b.code, b.stderr).toBe(0);
  expect(b.stdout).toBe(a.stdout);
  return a.stdout;
}

describe("reduck list", () => {
  test("with no argument, with -q, and with an owner and --host, it lists what scripts list lists", async () => {
    const all = JSON.parse(await same(["scripts", "list", "--json", "--all"], ["list", "--json", "--all"]));
    expect(all.data.length).toBeGreaterThan(3);
    const found = JSON.parse(await same(["scripts", "list", "--query", "title", "--json"], ["list", "-q", "title", "--json"]));
    expect(found.data.map((s: { address: string }) => s.address)).toContain("@demo/example.com/get_title");
    const owned = JSON.parse(
      await same(["scripts", "list", "reduck", "--host", "mail.google.com", "--json"], ["list", "reduck", "--host", "mail.google.com", "--json"]),
    );
    expect(owned.data.length).toBeGreaterThan(0);
    for (const s of owned.data) expect(s.address).toMatch(/^reduck\/mail\.google\.com\//);
    // The table too, not only --json.
    await same(["scripts", "list", "reduck", "--host", "mail.google.com"], ["list", "reduck", "--host", "mail.google.com"]);
  }, 60_000);
});

describe("reduck read", () => {
  test("--code prints the script's body, as scripts get --code does", async () => {
    const text = await same(["scripts", "get", "example.com/get_title", "--code"], ["read", "example.com/get_title", "--code"]);
    const body: string = sandbox.store.versions.get(SEED_IDS.versions.getTitleV2)!.content;
    expect(text).toContain(
      body
        .split("\n")
        .find((line) => line.trim().length > 10)!
        .trim(),
    );
  }, 30_000);

  test("--version-id ID reads the version --version reads, by id or by number", async () => {
    const v1 = SEED_IDS.versions.getTitleV1;
    const byId = JSON.parse(
      await same(["scripts", "get", "example.com/get_title", "--version", v1, "--json"], ["read", "example.com/get_title", "--version-id", v1, "--json"]),
    );
    expect(byId.id).toBe(v1);
    await same(["scripts", "get", "example.com/get_title", "--version", "1", "--code"], ["read", "example.com/get_title", "--version-id", "1", "--code"]);
    const both = await runCli(["read", "example.com/get_title", "--version", "1", "--version-id", v1], { env: sandbox.env });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--version/);
  }, 30_000);
});

describe("reduck run --version-id", () => {
  test("runs the version --version runs", async () => {
    const v1 = SEED_IDS.versions.getTitleV1;
    for (const flag of ["--version", "--version-id"]) {
      const ran = await runCli(["run", "--json", flag, v1, "--script", "example.com/get_title", "url=https://example.com/"], { env: sandbox.env });
      expect(ran.code, ran.stderr).toBe(0);
      expect(sandbox.store.runs.get(JSON.parse(ran.stdout).runId)!.script!.version_id).toBe(v1);
    }
  }, 60_000);
});

describe("--help shows the official CLI's words", () => {
  test("list and read in the command list and as aliases; --version-id on run and read", async () => {
    const root = await runCli(["--help"], { env: sandbox.env });
    expect(root.stdout).toMatch(/^ {2}list +List scripts/m);
    expect(root.stdout).toMatch(/^ {2}read +Show a script's contract/m);
    expect((await runCli(["scripts", "list", "--help"], { env: sandbox.env })).stdout).toMatch(/ALIASES\n {2}\$ reduck list/);
    const read = (await runCli(["read", "--help"], { env: sandbox.env })).stdout;
    expect(read).toMatch(/ALIASES\n {2}\$ reduck read/);
    expect(read).toMatch(/--version-id=ID/);
    expect((await runCli(["run", "--help"], { env: sandbox.env })).stdout).toMatch(/--version-id=ID/);
  }, 30_000);
});
