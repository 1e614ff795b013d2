/**
 * Hints where people slip, and --json for every error: the built CLI against the
 * sandbox (and against servers that fail) over real loopback HTTP.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startFaultServer, type FaultServer } from "../faults/fault-server.js";
import { runCli } from "../support/cli.js";
import { refusedPort } from "../support/scripted-server.js";
import { useCliSandbox } from "../support/sandbox.js";
let silent: FaultServer;

const sandbox = useCliSandbox({ store: { browser: "simulated" }, home: "reduck-hints-" });

beforeAll(async () => {
  silent = await startFaultServer({ "*": "silent" });
});

afterAll(async () => {
  await silent?.close();
});

describe("naming a script", () => {
  test("an address without --script: did you mean --script ADDRESS? (exit 2, nothing sent)", async () => {
    const before = sandbox.store.runs.size;
    const r = await runCli(["run", "reduck/mail.google.com/send_email", "to=me@example.com", "subject=Hi"], { env: sandbox.env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      'Error: "reduck/mail.google.com/send_email" is a script address, not an argument: did you mean --script reduck/mail.google.com/send_email? (its arguments follow it as name=value)\n',
    );
    // A second script missing its --script too.
    const second = await runCli(["run", "--script", "example.com/get_title", "url=https://example.com", "news.ycombinator.com/top_stories"], {
      env: sandbox.env,
    });
    expect(second.stderr).toMatch(/did you mean --script news\.ycombinator\.com\/top_stories\?/);
    // A word that is no address gets no such hint.
    expect((await runCli(["run", "--script", "example.com/get_title", "oops"], { env: sandbox.env })).stderr).not.toMatch(/--script oops/);
    expect(sandbox.store.runs.size).toBe(before);
  });

  test("an official script called without its handle: did you mean reduck/<host>/<slug>? (exit 2: an address to fix)", async () => {
    const before = sandbox.store.runs.size;
    const r = await runCli(["run", "--script", "mail.google.com/send_email", "to=me@example.com", "subject=Hi"], { env: sandbox.env });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(
      /No such script: @demo\/mail\.google\.com\/send_email\. Did you mean reduck\/mail\.google\.com\/send_email, the official script\?/,
    );
    const get = await runCli(["scripts", "get", "mail.google.com/send_email"], { env: sandbox.env });
    expect(get.stderr).toMatch(/Did you mean reduck\/mail\.google\.com\/send_email, the official script\?/);
    // A typo the official catalogue does not have either: no official hint.
    expect((await runCli(["run", "--script", "mail.google.com/send_emial", "to=a@b.c"], { env: sandbox.env })).stderr).not.toMatch(/the official script/);
    expect(sandbox.store.runs.size).toBe(before);
  });

  test("a misspelt slug exits 2, as a malformed address does, not 1 as a failed run does", async () => {
    const before = sandbox.store.runs.size;
    for (const args of [
      ["run", "--script", "reduck/mail.google.com/send_emial", "to=a@b.c"],
      ["scripts", "get", "reduck/mail.google.com/send_emial"],
    ]) {
      const r = await runCli(args, { env: sandbox.env });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        "Error: reading reduck/mail.google.com/send_emial: No such script: reduck/mail.google.com/send_emial. Did you mean reduck/mail.google.com/send_email?\n",
      );
      const json = await runCli([...args, "--json"], { env: sandbox.env });
      expect(JSON.parse(json.stdout).error).toMatchObject({ exitCode: 2, status: 404 });
    }
    expect(sandbox.store.runs.size).toBe(before);
  });

  test("a misspelt host: did you mean the script of that slug on the host it is a typo of?", async () => {
    const before = sandbox.store.runs.size;
    const own = await runCli(["scripts", "get", "mail.gogle.com/send_email"], { env: sandbox.env });
    expect(own.code).toBe(2);
    expect(own.stderr).toBe(
      "Error: reading @demo/mail.gogle.com/send_email: No such script: @demo/mail.gogle.com/send_email. Did you mean reduck/mail.google.com/send_email?\n",
    );
    const run = await runCli(["run", "--script", "reduck/mail.gogle.com/send_email", "to=a@b.c"], { env: sandbox.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/No such script: reduck\/mail\.gogle\.com\/send_email\. Did you mean reduck\/mail\.google\.com\/send_email\?\n$/);
    // A host that is nothing like any other: the plain message.
    const far = await runCli(["scripts", "get", "reduck/zzzz.invalid/send_email"], { env: sandbox.env });
    expect(far.code).toBe(2);
    expect(far.stderr).toBe("Error: reading reduck/zzzz.invalid/send_email: No such script: reduck/zzzz.invalid/send_email\n");
    expect(sandbox.store.runs.size).toBe(before);
  });

  test("a bare slug: did you mean the addresses of the scripts with that slug? (exit 2)", async () => {
    const before = sandbox.store.runs.size;
    const get = await runCli(["scripts", "get", "send_email"], { env: sandbox.env });
    expect(get.code).toBe(2);
    expect(get.stderr).toBe(
      'Error: "send_email" is not a script address: expected [handle/]host/slug, e.g. reduck/mail.google.com/send_email. Did you mean reduck/mail.google.com/send_email?\n',
    );
    const run = await runCli(["run", "--script", "get_title", "url=https://example.com"], { env: sandbox.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/"get_title" is not a script address: .*\. Did you mean @demo\/example\.com\/get_title\?\n$/);
    const batch = await runCli(["batch", "--script", "send_email", "--input", "rows.csv"], { env: sandbox.env });
    expect(batch.code).toBe(2);
    expect(batch.stderr).toMatch(/Did you mean reduck\/mail\.google\.com\/send_email\?\n$/);
    // A word no script has as its slug: no hint.
    expect((await runCli(["scripts", "get", "no_such_slug_anywhere"], { env: sandbox.env })).stderr).not.toMatch(/Did you mean/);
    expect(sandbox.store.runs.size).toBe(before);
  });

  test.each([
    ["runs", "wait", "123"],
    ["runs", "get", "123"],
    ["runs", "delete", "123", "--yes"],
    ["runs", "trace", "123"],
  ])("a malformed id: %s %s %s exits 2 before asking the service", async (...args) => {
    const r = await runCli(args, { env: { ...sandbox.env, REDUCK_API_URL: `http://127.0.0.1:${await refusedPort()}` } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Error: "123" is not a (batch id or )?run id: /);
  });
});

describe("seeing a run", () => {
  test("runs trace --screenshots of a run on the simulated page says why there is none, and how to get one", async () => {
    const run = await runCli(["run", "--browser", "cloud", "--script", "example.com/get_title", "url=https://example.com"], { env: sandbox.env });
    expect(run.code, run.stderr).toBe(0);
    const runId = /^run ([0-9a-f-]{36})/m.exec(run.stderr)![1]!;
    const shots = path.join(sandbox.home, "shots");
    const traced = await runCli(["runs", "trace", runId, "--screenshots", shots], { env: sandbox.env });
    expect(traced.code).toBe(0);
    expect(traced.stderr).toContain(
      `Run ${runId} recorded no screenshot: nothing was saved. On the sandbox, a run on its simulated page (--browser simulated) takes none: that page renders nothing. ` +
        "For a screenshot, start the sandbox without --browser simulated (its real headless Chromium) and run the script again.",
    );
  });
});

describe("--json is honoured for every error: one JSON document on stdout, nothing on stderr, the same exit code", () => {
  const cases: Array<[string, string[], Record<string, string>?]> = [
    ["an unknown command", ["scirpts", "list"]],
    ["an unknown topic command", ["scripts", "lsit"]],
    ["a missing argument", ["runs", "get"]],
    ["an unknown flag", ["runs", "list", "--colour"]],
    ["an address without --script", ["run", "reduck/mail.google.com/send_email", "to=a@b.c"]],
    ["a refused key", ["whoami"], { REDUCK_API_KEY: "rk_not_a_real_key_000000000000" }],
    ["an unknown script", ["scripts", "get", "reduck/mail.google.com/nope"]],
    ["a bad setting", ["whoami"], { REDUCK_TIMEOUT_MS: "soon" }],
  ];
  test.each(cases)("%s", async (_, args, extra = {}) => {
    const plain = await runCli(args, { env: { ...sandbox.env, ...extra } });
    const json = await runCli([...args, "--json"], { env: { ...sandbox.env, ...extra } });
    expect(plain.code).not.toBe(0);
    expect(json.code).toBe(plain.code);
    expect(json.stderr).toBe("");
    const doc = JSON.parse(json.stdout) as { error: { message: string; exitCode: number } };
    expect(doc.error.exitCode).toBe(json.code);
    expect(doc.error.message).toMatch(/\w/);
    expect(json.stdout).not.toContain(sandbox.store.demo.apiKey);
  });

  test.each([
    ["with no command", []],
    ["on help, which prints text", ["help", "runs"]],
    ["on autocomplete, which prints text", ["autocomplete"]],
  ])("--json %s is an error said in JSON (exit 2), not a stack trace", async (_, args) => {
    const json = await runCli([...args, "--json"], { env: sandbox.env });
    expect(json.code).toBe(2);
    expect(json.stderr).toBe("");
    expect(JSON.parse(json.stdout).error).toMatchObject({ exitCode: 2, message: expect.stringMatching(/--json/) });
  });

  test("a server that cannot be reached", async () => {
    const url = `http://127.0.0.1:${await refusedPort()}`;
    const json = await runCli(["runs", "list", "--json"], { env: { ...sandbox.env, REDUCK_API_URL: url } });
    expect(json.code).toBe(1);
    expect(json.stderr).toBe("");
    expect(JSON.parse(json.stdout).error).toMatchObject({ exitCode: 1, cause: "ECONNREFUSED" });
  });
});

describe("retries", () => {
  const slow = () => ({ ...sandbox.env, REDUCK_API_URL: silent.url, REDUCK_TIMEOUT_MS: "200" });

  test("without --verbose, a call that fails after retrying prints one line: the error", async () => {
    const r = await runCli(["whoami"], { env: slow() });
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n").filter(Boolean)).toEqual([expect.stringMatching(/^Error: no answer from .* within 200 ms/)]);
  });

  test("under --verbose, one line per retry before the error", async () => {
    const r = await runCli(["whoami", "--verbose"], { env: slow() });
    const lines = r.stderr.split("\n").filter(Boolean);
    expect(lines).toHaveLength(3);
    expect(lines.slice(0, 2)).toEqual([
      expect.stringMatching(/^timeout: retrying in [\d.]+ s \(attempt 1\)$/),
      expect.stringMatching(/^timeout: retrying in [\d.]+ s \(attempt 2\)$/),
    ]);
    expect(lines[2]).toMatch(/^Error: no answer/);
  });

  test("with --json and --verbose, stdout is still one JSON document", async () => {
    const r = await runCli(["whoami", "--verbose", "--json"], { env: slow() });
    expect(JSON.parse(r.stdout).error.exitCode).toBe(1);
  });
});

test("Ctrl-C with --json: the interruption is one JSON document on stdout, exit 130", async () => {
  sandbox.store.addScript({ handle: "@demo", host: "slow.example", slug: "wait", content: "await new Promise((r) => setTimeout(r, 10000)); return {};" });
  const before = new Set(sandbox.store.runs.keys());
  const r = await runCli(["run", "--json", "--script", "slow.example/wait"], {
    env: sandbox.env,
    onStart: (child) => {
      // Interrupt once the sandbox has the run, whatever the machine's load (deadline: the test's).
      const poll = setInterval(() => {
        if ([...sandbox.store.runs.keys()].some((id) => !before.has(id))) {
          clearInterval(poll);
          child.kill("SIGINT");
        }
      }, 20);
      child.on("close", () => clearInterval(poll));
    },
  });
  expect(r.code).toBe(130);
  expect(r.stderr).toBe("");
  const { message } = JSON.parse(r.stdout).error;
  expect(message).toMatch(/^Interrupted: the run was already sent/);
  // Its id was not known yet: the message says the command that finds it, and that command does.
  expect(message).toMatch(/Find it with:\n {2}reduck runs list --script slow\.example\/wait$/);
  const started = [...sandbox.store.runs.keys()].filter((id) => !before.has(id));
  const listed = await runCli(["runs", "list", "--script", "slow.example/wait", "--json"], { env: sandbox.env });
  expect(JSON.parse(listed.stdout).data.map((run: { id: string }) => run.id)).toEqual(started);
});
