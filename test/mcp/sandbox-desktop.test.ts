/**
 * The quick start's agent tool run of a named file: the sandbox started as users start it (no
 * desktop given, a home with no Desktop folder, so it makes a temporary one) with `--write-env
 * FILE`; a shell `source`s FILE, which sets REDUCK_DESKTOP to the sandbox's desktop, and the
 * built `reduck mcp` started with that environment runs a script with a file named by
 * relativePath, read from the very folder the sandbox reads it from.
 */
import { execFile } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { spawnSandbox } from "@reduck-client/sandbox";
import { afterAll, beforeAll, expect, test } from "vitest";
import { baseEnv } from "../support/cli.js";
import { patterned, temporaryFolder } from "../support/files.js";
import { callTool, connectClient, mcpEnv } from "./support.js";

const bash = promisify(execFile);
const banner = patterned(4_000);

let home: string;
let envFile: string;
let stop: () => Promise<void> = async () => {};

beforeAll(async () => {
  home = temporaryFolder("reduck-quick-start-");
  envFile = path.join(home, ".sandbox.env");
  const sandbox = spawnSandbox(["--port", "0", "--browser", "simulated", "--write-env", envFile], { env: { ...baseEnv(), HOME: home } });
  stop = async () => {
    sandbox.child.kill("SIGTERM");
    await sandbox.exited;
  };
  await new Promise<void>((resolve, reject) => {
    sandbox.exited.then(() => reject(new Error(`the sandbox exited: ${sandbox.output().stderr}`)));
    sandbox.child.stderr!.on("data", () => {
      // The env file is written before this line.
      if (/^sandbox: wrote both to /m.test(sandbox.output().stderr)) resolve();
    });
  });
}, 60_000);

afterAll(async () => {
  await stop();
});

/** What a shell that sourced the env file has: the variables the sandbox wrote. */
async function sourced(): Promise<{ REDUCK_API_URL: string; REDUCK_API_KEY: string; REDUCK_DESKTOP: string }> {
  const { stdout } = await bash(
    "bash",
    ["--noprofile", "--norc", "-c", `source "$1" && printf '%s\\n' "$REDUCK_API_URL" "$REDUCK_API_KEY" "$REDUCK_DESKTOP"`, "bash", envFile],
    { env: { PATH: process.env.PATH ?? "" } },
  );
  const [REDUCK_API_URL, REDUCK_API_KEY, REDUCK_DESKTOP] = stdout.split("\n");
  return { REDUCK_API_URL: REDUCK_API_URL!, REDUCK_API_KEY: REDUCK_API_KEY!, REDUCK_DESKTOP: REDUCK_DESKTOP! };
}

const run = (relativePath: string) => ({
  script: {
    handle: "reduck",
    host: "mail.google.com",
    slug: "send_email",
    args: { to: "me@example.com", subject: "Banner" },
    files: { attachment: { relativePath } },
  },
});

test("--write-env sets REDUCK_DESKTOP, and reduck mcp started with that environment runs a named file from the sandbox's desktop", async () => {
  const env = await sourced();
  expect(env.REDUCK_DESKTOP).toMatch(/reduck-sandbox-desktop-/);
  const folder = path.join(env.REDUCK_DESKTOP, "reduck");
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, "banner.png"), banner);
  try {
    const { client, stderr } = await connectClient(await mcpEnv(env));
    try {
      const answer = await callTool(client, "run_script", run("banner.png"));
      expect(answer.isError, `${answer.text}\n${stderr()}`).toBe(false);
      expect(answer.json()).toMatchObject({ status: "completed", result: { attachment: "banner.png", sent: true } });
    } finally {
      await client.close();
    }
    // Without REDUCK_DESKTOP, the same run looks in ~/Desktop/reduck (the home has none) and binds nothing.
    const { REDUCK_DESKTOP: _unused, ...withoutDesktop } = env;
    const other = await connectClient(await mcpEnv({ ...withoutDesktop, HOME: home }));
    try {
      const answer = await callTool(other.client, "run_script", run("banner.png"));
      expect(answer.isError).toBe(true);
    } finally {
      await other.client.close();
    }
  } finally {
    // The sandbox keeps a temporary desktop that has files in it: this one is the test's to remove.
    await rm(env.REDUCK_DESKTOP, { recursive: true, force: true });
  }
}, 60_000);
