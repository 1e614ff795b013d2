/**
 * `reduck flock secrets:set` keeps values off the command line and out of its output: NAME=-
 * reads stdin, --from-file NAME=PATH a file (both without the final line end, as "$(cat)" gives
 * it); a malformed argument is named by its position and never echoed; a name the app's
 * .api-keys.json does not use is set with a warning naming the one meant. The values the sandbox
 * sealed are opened here with its key, to prove what arrived.
 */
import { createDecipheriv } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { runCli } from "../support/cli.js";
import { useCliSandbox } from "../support/sandbox.js";
import { openTerminal } from "./terminal.js";

const sandbox = useCliSandbox({ home: "reduck-flock-secrets-" });

let dir: string;
let appId: string;

beforeAll(async () => {
  dir = path.join(sandbox.home, "notes");
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "manifest.json"), JSON.stringify({ slug: "notes" }));
  await writeFile(path.join(dir, "index.html"), "<p>notes</p>");
  await writeFile(
    path.join(dir, ".api-keys.json"),
    JSON.stringify({ "api.notion.com": { Authorization: "Bearer ${NOTION_TOKEN}" }, "hooks.slack.com": { url: "${SLACK_HOOK}" } }),
  );
  expect((await runCli(["flock", "deploy", dir], { env: sandbox.env })).code).toBe(0);
  const installed = await runCli(["flock", "install", "@demo/notes", "--dir", dir], { env: sandbox.env });
  expect(installed.code, installed.stderr).toBe(0);
  appId = JSON.parse(await readFile(path.join(dir, "flock.json"), "utf8")).app.id;
}, 60_000);

/** The value the sandbox holds for `name`, opened with its sealing key. */
function sealedValue(name: string): string {
  const sealed = sandbox.store.apps.get(appId)!.secrets.get(name)!.sealed;
  const decipher = createDecipheriv("aes-256-gcm", sandbox.store.sealingKey!, sealed.subarray(0, 12));
  decipher.setAuthTag(sealed.subarray(12, 28));
  return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString("utf8");
}

describe("flock secrets:set", () => {
  test("NAME=- takes the value from stdin, --from-file NAME=PATH from a file; neither is printed", async () => {
    const token = "secret_from-stdin-7391";
    const hook = "https://hooks.slack.com/services/T000/B000/from-file-5521";
    const file = path.join(sandbox.home, "slack-hook.txt");
    await writeFile(file, `${hook}\n`);
    const r = await runCli(["flock", "secrets:set", "NOTION_TOKEN=-", "--from-file", `SLACK_HOOK=${file}`], {
      env: sandbox.env,
      cwd: dir,
      input: `${token}\n`,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`Set NOTION_TOKEN, SLACK_HOOK on app ${appId} (values are never shown).\n`);
    expect(r.stderr).toBe("");
    expect(sealedValue("NOTION_TOKEN")).toBe(token);
    expect(sealedValue("SLACK_HOOK")).toBe(hook);
  }, 30_000);

  test("NAME=- on a terminal asks at a prompt that does not show what is typed", async () => {
    const token = "secret_typed-at-the-prompt-3301";
    const t = openTerminal(["flock", "secrets:set", "NOTION_TOKEN=-"], { env: sandbox.env, cwd: dir });
    await t.waitFor(/Value of NOTION_TOKEN \(not shown as you type\): $/);
    t.type(`${token}\r`);
    const { code, output } = await t.exited;
    expect(code, output).toBe(0);
    expect(output).toContain(`Set NOTION_TOKEN on app ${appId} (values are never shown).`);
    expect(output).not.toContain(token);
    expect(sealedValue("NOTION_TOKEN")).toBe(token);
  }, 30_000);

  test("a malformed argument is named by its position and never echoed; nothing is sent (exit 2)", async () => {
    const secret = "secret_typed-without-a-name-8812";
    const cases: Array<[string[], string]> = [
      [
        ["NOTION_TOKEN=ok", secret],
        "Error: argument 2 is not NAME=value (it is not shown: it may hold a secret): write NAME=value, NAME=- to read the value from stdin, or --from-file NAME=PATH\n",
      ],
      [
        [`1${secret}=x`],
        "Error: argument 1 does not start with a secret name (a letter or '_' first, then letters, digits and '_', 64 at most) (it is not shown: it may hold a secret)\n",
      ],
      [["A=-", "B=-"], "Error: only one secret can be read from stdin (NAME=-): give the others with --from-file NAME=PATH\n"],
      [["A=1", "A=2"], "Error: argument 2 sets A a second time: give each secret once\n"],
    ];
    const from = sandbox.store.requestLog.length;
    for (const [args, message] of cases) {
      const r = await runCli(["flock", "secrets:set", ...args], { env: { ...sandbox.env, DEBUG: "" }, cwd: dir });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(message);
      expect(r.stdout + r.stderr).not.toContain(secret);
    }
    const empty = await runCli(["flock", "secrets:set", "NOTION_TOKEN=-"], { env: sandbox.env, cwd: dir, input: "\n" });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe("Error: the value of NOTION_TOKEN on stdin is empty\n");
    const missing = await runCli(["flock", "secrets:set", "--from-file", "NOTION_TOKEN=./nowhere.txt"], { env: sandbox.env, cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe("Error: --from-file NOTION_TOKEN=./nowhere.txt: cannot read it (ENOENT)\n");
    expect(sandbox.store.requestLog.slice(from)).toEqual([]);
  }, 60_000);

  test("a name .api-keys.json does not use is set with a warning that names the one meant", async () => {
    const r = await runCli(["flock", "secrets:set", "NOTION_TOKN=abc"], { env: sandbox.env, cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      `Warning: neither ${path.join(dir, ".api-keys.json")} nor its manifest.json uses or declares NOTION_TOKN (the app's secrets: NOTION_TOKEN, SLACK_HOOK): did you mean NOTION_TOKEN? It is set all the same.\n`,
    );
    expect(sealedValue("NOTION_TOKN")).toBe("abc");

    // Without the file in the folder, the grant of the release the app serves says which names it uses.
    const bare = path.join(sandbox.home, "bare");
    await mkdir(bare);
    await writeFile(path.join(bare, "flock.json"), JSON.stringify({ app: { handle: "@demo", id: appId } }));
    const served = await runCli(["flock", "secrets:set", "SLACK_HOK=x"], { env: sandbox.env, cwd: bare });
    expect(served.code, served.stderr).toBe(0);
    expect(served.stderr).toMatch(
      /^Warning: neither the \.api-keys\.json nor the manifest of the release the app serves uses or declares SLACK_HOK \(the app's secrets: [A-Z_, ]*SLACK_HOOK[A-Z_, ]*\): did you mean SLACK_HOOK\? It is set all the same\.\n$/,
    );

    // A secret the served release's manifest declares is no surprise, set or not yet.
    const guest = path.join(sandbox.home, "guest");
    expect((await runCli(["flock", "install", "reduck/guestbook", "--dir", guest], { env: sandbox.env })).code).toBe(0);
    const declared = await runCli(["flock", "secrets:set", "NOTIFY_TOKEN=x"], { env: sandbox.env, cwd: guest });
    expect(declared.code, declared.stderr).toBe(0);
    expect(declared.stderr).toBe("");
    const typo = await runCli(["flock", "secrets:set", "NOTIFY_TOKN=x"], { env: sandbox.env, cwd: guest });
    expect(typo.stderr).toMatch(/did you mean NOTIFY_TOKEN\? It is set all the same\.\n$/);
  }, 30_000);
});
