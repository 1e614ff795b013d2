/**
 * The quick start's two terminals: `npm run sandbox -- --write-env PATH` writes the two lines it
 * prints as `export` lines, a real bash `source`s them in "another terminal" and the built CLI
 * works there; REDUCK_SANDBOX_API_KEY keeps the same key across restarts.
 */
import { execFile } from "node:child_process";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test } from "vitest";
import { parseSandboxArgs, spawnSandbox } from "@reduck-client/sandbox";
import { BIN, baseEnv } from "../support/cli.js";
import { temporaryFolder } from "../support/files.js";

const bash = promisify(execFile);

let dir: string;
beforeAll(() => {
  dir = temporaryFolder("reduck-env-file-");
});

/** Starts the sandbox and resolves once it has said all its start-up lines (the env file is written before them). */
async function startSandbox(args: string[], env: Record<string, string> = {}) {
  const sandbox = spawnSandbox(["--port", "0", "--browser", "simulated", "--desktop", dir, ...args], { env: { ...baseEnv(), HOME: dir, ...env } });
  const stdout = () => sandbox.output().stdout;
  const stderr = () => sandbox.output().stderr;
  await new Promise<void>((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`the sandbox did not start within 30 s: ${stderr()}`)), 30_000);
    sandbox.exited.then(
      () => reject(new Error(`the sandbox exited: ${stderr()}`)),
      () => {},
    );
    sandbox.child.stderr!.on("data", () => {
      // The desktop line is the last of the start-up lines: wait for it, so none is cut off by stop().
      if (/^sandbox: desktop folder .*\n/m.test(stderr()) && stdout().split("\n").length > 2) {
        clearTimeout(deadline);
        resolve();
      }
    });
  });
  return {
    stdout,
    stderr,
    stop: async () => {
      sandbox.child.kill("SIGTERM");
      await sandbox.exited;
    },
  };
}

describe("npm run sandbox -- --write-env PATH", () => {
  test("writes the two printed lines as export lines that another shell can source, readable only by its owner", async () => {
    const file = path.join(dir, "sandbox.env");
    const sandbox = await startSandbox(["--write-env", file]);
    try {
      const printed = sandbox.stdout().trim().split("\n");
      expect(printed).toEqual([expect.stringMatching(/^REDUCK_API_URL=http:\/\/127\.0\.0\.1:\d+$/), expect.stringMatching(/^REDUCK_API_KEY=rk_\w+$/)]);
      expect(sandbox.stderr()).toContain(`source ${file}`);
      expect(
        (await readFile(file, "utf8"))
          .split("\n")
          .filter(Boolean)
          .every((l) => l.startsWith("export ")),
      ).toBe(true);
      expect((await stat(file)).mode & 0o777).toBe(0o600);

      // "Another terminal": a clean bash that knows nothing but the file.
      const { stdout } = await bash(
        "bash",
        ["--noprofile", "--norc", "-c", `source "$1" && printf '%s\\n' "REDUCK_API_URL=$REDUCK_API_URL" "REDUCK_API_KEY=$REDUCK_API_KEY"`, "bash", file],
        {
          env: { PATH: process.env.PATH ?? "" },
        },
      );
      expect(stdout.trim().split("\n")).toEqual(printed);
      const whoami = await bash("bash", ["--noprofile", "--norc", "-c", `source "$1" && exec "$2" "$3" whoami --json`, "bash", file, process.execPath, BIN], {
        env: { ...baseEnv(), HOME: dir },
      });
      expect(JSON.parse(whoami.stdout)).toMatchObject({ handle: "@demo" });
    } finally {
      await sandbox.stop();
    }
  }, 60_000);

  test("without it, stderr says how to use the two lines from another terminal and how to keep the key", async () => {
    const sandbox = await startSandbox([]);
    await sandbox.stop();
    expect(sandbox.stderr()).toMatch(/from another terminal, export those two lines there \(or start with --write-env PATH and `source PATH`\)/);
    expect(sandbox.stderr()).toMatch(/REDUCK_SANDBOX_API_KEY=rk_<anything> to keep the same one across restarts/);
  }, 60_000);

  test("REDUCK_SANDBOX_API_KEY is the key after every restart", async () => {
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) {
      const sandbox = await startSandbox([], { REDUCK_SANDBOX_API_KEY: "rk_kept_across_restarts" });
      keys.push(/^REDUCK_API_KEY=(.+)$/m.exec(sandbox.stdout())![1]!);
      expect(sandbox.stderr()).not.toMatch(/the key is new at every start/);
      await sandbox.stop();
    }
    expect(keys).toEqual(["rk_kept_across_restarts", "rk_kept_across_restarts"]);
  }, 60_000);

  test("a path it cannot write is refused before starting", () => {
    expect(() => parseSandboxArgs(["--write-env", ""])).toThrow(/--write-env needs a file to write/);
    expect(() => parseSandboxArgs(["--write-env", path.join(dir, "no-such-folder", "x.env")])).toThrow(/the folder of .* does not exist/);
    expect(() => parseSandboxArgs(["--write-env", dir])).toThrow(/must name a file, and .* is a folder/);
    expect(parseSandboxArgs(["--write-env", path.join(dir, "ok.env")])).toMatchObject({ envFile: path.join(dir, "ok.env") });
  });
});
