/**
 * The built `reduck` CLI, spawned as a process, against the sandbox over real
 * loopback HTTP, with real files on disk.
 */
import { mkdir, stat, writeFile, readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { refusedPort } from "../support/scripted-server.js";
import { patterned, sha256, temporaryFolder } from "../support/files.js";
import { runCli } from "../support/cli.js";
import { waitFor } from "../support/wait.js";
import type { ChildProcess } from "node:child_process";
import { useCliSandbox } from "../support/sandbox.js";
const banner = patterned(50_000);

const sandbox = useCliSandbox({
  seed: (store) => {
    // A slow script, to interrupt.
    store.addScript({ handle: "@demo", host: "slow.example", slug: "wait", content: "await new Promise((r) => setTimeout(r, 10000)); return {};" });
    // A script with typed arguments.
    store.addScript({
      handle: "@demo",
      host: "shop.example",
      slug: "order",
      content: "return { args };",
      inputSchema: {
        type: "object",
        properties: { quantity: { type: "integer" }, gift: { type: "boolean" }, items: { type: "array" }, note: { type: "string" } },
        required: ["quantity"],
      },
    });
  },
  configDir: [".config", "reduck"],
});

beforeAll(async () => {
  await mkdir(path.join(sandbox.home, "Downloads"));
  await writeFile(path.join(sandbox.home, "Downloads", "banner.png"), banner);
});

/** An upload that fails at the service: a managed browser has no connector for docusign.com. */
const failingUpload = () => [
  "--browser",
  "managed",
  "--script",
  "reduck/docusign.com/upload_document",
  "documentName=a",
  `file:document=${sandbox.home}/Downloads/banner.png`,
];
const lastRun = () => [...sandbox.store.runs.values()].sort((a, b) => b.startedAt.localeCompare(a.startedAt))[0]!;

describe("reduck run", () => {
  test("the docs example, with ~ expanded by the CLI", async () => {
    const r = await runCli(
      [
        "run",
        "--script",
        "reduck/mail.google.com/send_email",
        "to=me@example.com",
        "subject=Our new banner",
        "attachmentName=banner.png",
        "file:attachment=~/Downloads/banner.png",
      ],
      { env: sandbox.env },
    );
    expect(r.stderr).toMatch(/^run [0-9a-f-]{36}$/m);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ sent: true, to: ["me@example.com"], cc: [], bcc: [], subject: "Our new banner", attachment: "banner.png" });
    expect(lastRun()).toMatchObject({ source: "cli", files: [expect.objectContaining({ sha256: sha256(banner), via: "bytes" })] });
  });

  test("bytes without a name argument arrive named after the input", async () => {
    const r = await runCli(
      ["run", "--script", "reduck/mail.google.com/send_email", "to=me@example.com", "subject=x", `file:attachment=${sandbox.home}/Downloads/banner.png`],
      { env: sandbox.env },
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).attachment).toBe("attachment");
  });

  test("a value may contain = and is coerced to the schema's types", async () => {
    const r = await runCli(["run", "--script", "shop.example/order", "quantity=3", "gift=true", 'items=["a","b"]', "note=a=b"], { env: sandbox.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ args: { quantity: 3, gift: true, items: ["a", "b"], note: "a=b" } });
  });

  test("mistakes are caught before anything is sent (exit 2)", async () => {
    const before = sandbox.store.runs.size;
    const cases: Array<[string[], RegExp]> = [
      [["run", "--script", "reduck/docusign.com/upload_document", "documentName=a.pdf"], /missing file input document .*file:document=path/],
      [["run", "--script", "reduck/mail.google.com/send_email", "to=a@b.c", "subject=x", "colour=red"], /unknown argument colour/],
      [["run", "--script", "reduck/mail.google.com/send_email", "to=a@b.c", "subject=x", "file:photo=/etc/hostname"], /unknown file input photo/],
      [["run", "--script", "shop.example/order", "quantity=many"], /quantity must be a number/],
      [["run", "--script", "reduck/mail.google.com/send_email", "to=a@b.c", "subject=x", "file:attachment=~/Downloads/nope.png"], /does not exist/],
      [["run", "--script", "not-an-address"], /is not a script address/],
      [["run", "--script", "reduck/mail.google.com/send_email", "oops"], /is not an argument/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(args, { env: sandbox.env });
      expect(r.stderr, args.join(" ")).toMatch(message);
      expect(r.stderr).toMatch(/^Error: /);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
    }
    expect(sandbox.store.runs.size).toBe(before);
  });

  test("several scripts print a JSON array in order; a failure exits 1", async () => {
    const r = await runCli(
      [
        "run",
        "--script",
        "reduck/docusign.com/upload_document",
        "documentName=banner.png",
        `file:document=${sandbox.home}/Downloads/banner.png`,
        "--script",
        "reduck/mail.google.com/send_email",
        "to=me@example.com",
        "subject=second",
      ],
      { env: sandbox.env },
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toHaveLength(2);
    expect(out[0].document).toMatchObject({ name: "banner.png", sha256: sha256(banner) });
    expect(out[1].subject).toBe("second");

    const failed = await runCli(["run", ...failingUpload(), "--script", "reduck/mail.google.com/send_email", "to=a@b.c", "subject=ok"], { env: sandbox.env });
    expect(failed.code).toBe(1);
    const steps = JSON.parse(failed.stdout);
    // stdout holds results only: null for the step that gave none; why it failed is on stderr.
    expect(steps[0]).toBeNull();
    expect(steps[1].subject).toBe("ok");
    expect(failed.stderr).toMatch(/^reduck\/docusign\.com\/upload_document: run [0-9a-f-]{36} failed: .*connector/m);
  });

  test("a run failure is one clear line with the service's message, exit 1", async () => {
    const r = await runCli(["run", ...failingUpload()], { env: sandbox.env });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/^Error: .*connector/);
  });

  test("--json turns a failed run into one JSON object on stdout (the agent tool's outcome), same exit code", async () => {
    const r = await runCli(["run", "--json", ...failingUpload()], { env: sandbox.env });
    expect(r.code).toBe(1);
    const body = JSON.parse(r.stdout);
    expect(body).toEqual({
      status: "failed",
      runId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      error: expect.stringContaining("connector"),
      errorType: expect.any(String),
      externalMessage: expect.stringContaining("connector"),
    });
  });

  test("Ctrl-C exits 130", async () => {
    const before = new Set(sandbox.store.runs.keys());
    let cli!: ChildProcess;
    const exited = runCli(["run", "--script", "slow.example/wait"], { env: sandbox.env, onStart: (child) => (cli = child) });
    // Interrupt once the sandbox has the run, as the message below says.
    await waitFor("the run of slow.example/wait to reach the sandbox", () => [...sandbox.store.runs.keys()].some((id) => !before.has(id))).catch((error) => {
      cli.kill();
      throw error;
    });
    cli.kill("SIGINT");
    const r = await exited;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain(
      "Interrupted: the run was already sent and may still complete, before the service said its id. Find it with:\n  reduck runs list --script slow.example/wait",
    );
  });
});

describe("the catalogue from the terminal", () => {
  test("scripts list, scripts get, runs list, devices list, whoami", async () => {
    const list = await runCli(["scripts", "list", "reduck", "--host", "mail.google.com"], { env: sandbox.env });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/reduck\/mail\.google\.com\/send_email/);
    const get = await runCli(["scripts", "get", "reduck/mail.google.com/send_email"], { env: sandbox.env });
    expect(get.code).toBe(0);
    expect(get.stdout).toMatch(/attachment/);
    expect(get.stdout).toMatch(/file:attachment=/);
    const runs = await runCli(["runs", "list", "--json", "--page-size", "2"], { env: sandbox.env });
    expect(JSON.parse(runs.stdout).data).toHaveLength(2);
    const devices = await runCli(["devices", "list", "--json"], { env: sandbox.env });
    expect(JSON.parse(devices.stdout)[0]).toMatchObject({ file_access: true });
    const me = await runCli(["whoami"], { env: sandbox.env });
    expect(me.stdout).toMatch(/@demo/);
  });

  test("a list with more pages says how to get them", async () => {
    const r = await runCli(["scripts", "list", "reduck", "--page-size", "5"], { env: sandbox.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/--page 1|--all/);
  });

  test("an unknown script is exit 2 (an address to fix) with the server's message", async () => {
    const r = await runCli(["scripts", "get", "reduck/nowhere.example/nothing"], { env: sandbox.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Error: reading reduck\/nowhere\.example\/nothing: No such script/);
  });
});

describe("credentials and exit codes", () => {
  test("a refused key exits 4 and never shows the key", async () => {
    const secret = "rk_wrong_secret_value_123";
    for (const args of [
      ["whoami"],
      ["whoami", "--json"],
      ["scripts", "list", "--json", "--nope"],
      ["run", "--script", "reduck/mail.google.com/send_email", "to=a"],
    ]) {
      const r = await runCli(args, { env: { ...sandbox.env, REDUCK_API_KEY: secret } });
      expect(r.stdout + r.stderr).not.toContain(secret);
    }
    const r = await runCli(["whoami"], { env: { ...sandbox.env, REDUCK_API_KEY: secret } });
    expect(r.code).toBe(4);
    const flag = await runCli(["whoami", "--json", "--api-key", secret], { env: { ...sandbox.env, REDUCK_API_KEY: "" } });
    expect(flag.code).toBe(4);
    expect(flag.stdout + flag.stderr).not.toContain(secret);
  });

  test("a missing file is reported before anything else, even without a credential", async () => {
    const r = await runCli(["run", "--script", "reduck/mail.google.com/send_email", "to=a@b.c", "file:attachment=~/Downloads/nope.png"], {
      env: { ...sandbox.env, REDUCK_API_KEY: "" },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`Error: file input attachment: ${sandbox.home}/Downloads/nope.png does not exist\n`);
  });

  test("no credential at all exits 4 with how to sign in", async () => {
    const r = await runCli(["whoami"], { env: { ...sandbox.env, REDUCK_API_KEY: "" } });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/REDUCK_API_KEY or run `reduck login`/);
  });

  test("a parse error exits 2, with or without --json, and the key stays hidden", async () => {
    const plain = await runCli(["scripts", "list", "--bogus"], { env: sandbox.env });
    expect(plain.code).toBe(2);
    const json = await runCli(["scripts", "list", "--bogus", "--json"], { env: sandbox.env });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).error.exitCode).toBe(2);
    expect(json.stdout + json.stderr).not.toContain(sandbox.store.demo.apiKey);
  });

  test("a typo suggests the command, exit 2", async () => {
    const r = await runCli(["scripts", "lst"], { env: sandbox.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Did you mean "reduck scripts list"?');
  });

  test("a network failure names the cause and the address", async () => {
    const port = await refusedPort();
    const r = await runCli(["whoami"], { env: { ...sandbox.env, REDUCK_API_URL: `http://127.0.0.1:${port}` } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`could not connect to http://127.0.0.1:${port} (ECONNREFUSED)`);
  });

  test("login reads the key from stdin, checks it, stores it readable only by the owner; logout forgets it", async () => {
    const configDir = temporaryFolder("reduck-config-");
    const noKey = { ...sandbox.env, REDUCK_API_KEY: "", REDUCK_CONFIG_DIR: configDir };
    const bad = await runCli(["login", "--with-api-key"], { env: noKey, input: "rk_not_valid\n" });
    expect(bad.code).toBe(4);
    const login = await runCli(["login", "--with-api-key"], { env: noKey, input: `${sandbox.store.demo.apiKey}\n` });
    expect(login.code).toBe(0);
    expect(login.stdout + login.stderr).not.toContain(sandbox.store.demo.apiKey);
    const file = path.join(configDir, "config.json");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, "utf8")).toContain(sandbox.store.demo.apiKey);
    expect((await runCli(["whoami", "--json"], { env: noKey })).code).toBe(0);
    expect((await runCli(["logout"], { env: noKey })).code).toBe(0);
    expect((await runCli(["whoami"], { env: noKey })).code).toBe(4);
  });

  test("--help shows examples and the exit codes", async () => {
    const r = await runCli(["run", "--help"], { env: sandbox.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("EXAMPLES");
    expect(r.stdout).toContain("file:attachment=~/Downloads/banner.png");
    expect(r.stdout).toMatch(/130\s+interrupted/);
  });
});
