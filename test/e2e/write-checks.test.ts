/**
 * What a command writes once the service has answered is checked before the first request: a
 * batch's results file, a run's screenshots, a typed-scripts module, a run's downloads. A folder
 * no file can be created in (mode 0555, for a process that permission bits apply to), a folder
 * under a file, a missing folder where one must exist: each is a usage error (exit 2) naming the
 * flag, and the sandbox logs no request.
 */
import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { runCli } from "../support/cli.js";
import { nodeBoundByPermissions } from "../support/permissions.js";
import { useCliSandbox } from "../support/sandbox.js";

const sandbox = useCliSandbox({ home: "reduck-write-checks-" });

const RUN_ID = "86b0479f-a68f-4fcd-92d1-b68f485ee3d9";
let locked: string;
let aFile: string;
let input: string;
let node: string;

beforeAll(async () => {
  locked = path.join(sandbox.home, "locked");
  await mkdir(locked);
  await chmod(locked, 0o555);
  aFile = path.join(sandbox.home, "a-file");
  await writeFile(aFile, "not a folder");
  input = path.join(sandbox.home, "rows.csv");
  await writeFile(input, "subject\nhello\n");
  node = await nodeBoundByPermissions(sandbox.home);
  // The home folder may be gone already (removed with the sandbox).
  return () => chmod(locked, 0o755).catch(() => undefined);
});

/** Runs the CLI as a process permission bits apply to, and asserts it sent nothing and exited 2. */
async function refused(args: string[]): Promise<string> {
  const from = sandbox.store.requestLog.length;
  const r = await runCli(args, { env: sandbox.env, node });
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe("");
  expect(sandbox.store.requestLog.slice(from)).toEqual([]);
  return r.stderr;
}

const batch = (out: string) => ["batch", "--script", "reduck/mail.google.com/send_email", "--input", input, "to=me@example.com", "--out", out];

describe("checked before the first request", () => {
  test("batch --out: a folder no file can be created in, a folder that does not exist", async () => {
    const out = path.join(locked, "results.jsonl");
    expect(await refused(batch(out))).toBe(`Error: --out ${out}: no file can be created in ${locked} (EACCES): choose a folder you can write to\n`);
    const missing = path.join(sandbox.home, "no-such-folder", "results.jsonl");
    expect(await refused(batch(missing))).toBe(`Error: --out ${missing}: the folder ${path.dirname(missing)} does not exist: make it first\n`);
  }, 30_000);

  test("runs trace --screenshots: the folder, or the one it would be made in, must take new files", async () => {
    expect(await refused(["runs", "trace", RUN_ID, "--screenshots", locked])).toBe(
      `Error: --screenshots ${locked}: no file can be created in ${locked} (EACCES): choose a folder you can write to\n`,
    );
    const inside = path.join(locked, "shots");
    expect(await refused(["runs", "trace", RUN_ID, "--screenshots", inside])).toBe(
      `Error: --screenshots ${inside}: ${inside} cannot be made: no file can be created in ${locked} (EACCES): choose a folder you can write to\n`,
    );
    const under = path.join(aFile, "shots");
    expect(await refused(["runs", "trace", RUN_ID, "--screenshots", under])).toBe(
      `Error: --screenshots ${under}: ${under} cannot be made: ${aFile} is a file, not a folder: choose a folder you can write to\n`,
    );
  }, 30_000);

  test("scripts types --out and run --out", async () => {
    const module = path.join(locked, "reduck-scripts.ts");
    expect(await refused(["scripts", "types", "reduck/mail.google.com/send_email", "--out", module])).toBe(
      `Error: cannot write ${module}: no file can be created in ${locked} (EACCES): choose a folder you can write to\n`,
    );
    expect(await refused(["run", "--script", "reduck/admin.atlassian.com/download_invoice", "--out", locked])).toBe(
      `Error: --out ${locked}: no file can be created in ${locked} (EACCES): choose a folder you can write to\n`,
    );
  }, 30_000);
});
