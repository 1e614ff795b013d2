/**
 * `reduck runs trace RUN_ID --html FILE` and `--open`, end to end: the built CLI against the
 * sandbox over loopback HTTP, a run made in its real Chromium that fails on a step, with hostile
 * strings in its arguments, its steps and its error. The page is read here as text; the slow
 * file (run-page.slow.test.ts) opens it in Chromium.
 */
import { chmod, mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, test } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { runCli } from "../support/cli.js";
import { present } from "../support/present.js";
import { useCliSandbox } from "../support/sandbox.js";
import { addFailingScript, FAILING_SCRIPT, HOSTILE_ARG } from "./failing-run.js";

const PNG_SIGNATURE = Buffer.from("89504e470d0a1a0a", "hex");

const sandbox = useCliSandbox({
  home: "reduck-run-page-",
  seed: addFailingScript,
});

let runId: string;
let runStderr: string;

beforeAll(async () => {
  const r = await runCli(["run", "--script", FAILING_SCRIPT, `note=${HOSTILE_ARG}`], { env: sandbox.env });
  expect(r.code, r.stderr).toBe(1);
  runStderr = r.stderr;
  runId = present(/run ([0-9a-f-]{36}) failed/.exec(r.stderr)?.[1], "the failed run's id");
}, 60_000);

/** A $BROWSER that records what it was given, and exits with `code`. */
async function recordingBrowser(code = 0): Promise<{ env: Record<string, string>; given: () => Promise<string[]> }> {
  const dir = path.join(sandbox.home, `browser-${Math.random().toString(36).slice(2)}`);
  await mkdir(dir);
  const log = path.join(dir, "given.txt");
  const script = path.join(dir, "my browser");
  await writeFile(script, `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a" >> ${JSON.stringify(log)}; done\nexit ${code}\n`);
  await chmod(script, 0o755);
  return {
    // Quoted as gh's $BROWSER may be: a path with a space, and an argument of its own.
    env: { ...sandbox.env, BROWSER: `'${script}' --new-window` },
    given: async () => (await readFile(log, "utf8")).trim().split("\n"),
  };
}

describe("a failed run", () => {
  test("its error line is followed by the command that shows what it did", () => {
    expect(runStderr).toContain(`Error: run ${runId} failed: `);
    expect(runStderr).toContain(`\n  see what it did: reduck runs trace ${runId} --open\n`);
  });

  test("runs trace --html FILE writes the page and prints its path; the page names the failing step and its error, every step, the run", async () => {
    const file = path.join(sandbox.home, "run.html");
    const r = await runCli(["runs", "trace", runId, "--html", file], { env: sandbox.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${file}\n`);
    const html = await readFile(file, "utf8");
    const trace = sandbox.store.runs.get(runId)!.trace as { steps: Array<{ action: string; ok: boolean; error?: string }> };
    const failing = trace.steps.findIndex((s) => !s.ok);
    expect(html).toContain(`Failed at <a href="#step-${failing + 1}">step ${failing + 1}</a>`);
    expect(html).toContain("&lt;/style&gt;&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;");
    for (const step of trace.steps)
      expect(html).toContain(
        step.action.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;"),
      );
    expect(html).toContain("@demo/mail.google.com/fails_late");
    expect(html).toContain("&lt;img src=x onerror=&quot;document.title=&#39;pwned&#39;&quot;&gt;");
    expect(html).not.toMatch(/<script|<img src=x|onerror="document/);
  });

  test("the page holds the run's screenshot, the same PNG the service serves, as a data: URI", async () => {
    const file = path.join(sandbox.home, "shot.html");
    expect((await runCli(["runs", "trace", runId, "--html", file], { env: sandbox.env })).code).toBe(0);
    const html = await readFile(file, "utf8");
    const base64 = present(/src="data:image\/png;base64,([A-Za-z0-9+/=]+)"/.exec(html)?.[1], "an embedded PNG");
    const png = Buffer.from(base64, "base64");
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    const shot = (sandbox.store.runs.get(runId)!.trace as { screenshots: Array<{ url: string; size: number }> }).screenshots[0]!;
    expect(png.length).toBe(shot.size);
    expect(Buffer.from(await (await fetch(shot.url)).arrayBuffer())).toEqual(png);
  });

  test("--json prints the path as JSON", async () => {
    const file = path.join(sandbox.home, "json.html");
    const r = await runCli(["runs", "trace", runId, "--html", file, "--json"], { env: sandbox.env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ path: file });
  });
});

describe("--open", () => {
  test("writes a temporary page and hands its file:// URL to $BROWSER, split as a shell would", async () => {
    const browser = await recordingBrowser();
    const r = await runCli(["runs", "trace", runId, "--open"], { env: browser.env });
    expect(r.code, r.stderr).toBe(0);
    const file = r.stdout.trim();
    try {
      expect(path.basename(file)).toBe(`run-${runId}.html`);
      expect((await stat(file)).isFile()).toBe(true);
      expect(await browser.given()).toEqual(["--new-window", pathToFileURL(file).href]);
    } finally {
      await rm(path.dirname(file), { recursive: true, force: true });
    }
  });

  test("with --html FILE, opens that file", async () => {
    const browser = await recordingBrowser();
    const file = path.join(sandbox.home, "opened page.html");
    const r = await runCli(["runs", "trace", runId, "--html", file, "--open"], { env: browser.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${file}\n`);
    expect(await browser.given()).toEqual(["--new-window", pathToFileURL(file).href]);
  });

  test("a browser that fails is a note, not a failure: the page is there to open by hand", async () => {
    const browser = await recordingBrowser(3);
    const file = path.join(sandbox.home, "unopened.html");
    const r = await runCli(["runs", "trace", runId, "--html", file, "--open"], { env: browser.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^Could not open a browser \(.*my browser exited with code 3\): open .*unopened\.html yourself\.$/m);
    expect((await stat(file)).isFile()).toBe(true);
  });
});

describe("before anything is read", () => {
  test("--html naming a folder, or a file in a folder that does not exist, is refused (exit 2) without a request", async () => {
    const before = sandbox.store.requestLog.length;
    const folder = await runCli(["runs", "trace", runId, "--html", sandbox.home], { env: sandbox.env });
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain(`--html ${sandbox.home}: ${sandbox.home} is a folder: give a file's name`);
    const missing = path.join(sandbox.home, "no", "such", "run.html");
    const nowhere = await runCli(["runs", "trace", runId, "--html", missing], { env: sandbox.env });
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toContain(`the folder ${path.dirname(missing)} does not exist`);
    expect(sandbox.store.requestLog.length).toBe(before);
  });
});

test("a run that recorded no trace still gets a page: its record, and why there are no steps", async () => {
  const file = path.join(sandbox.home, "no-trace.html");
  const r = await runCli(["runs", "trace", SEED_IDS.runs.sendEmail, "--html", file], { env: sandbox.env });
  expect(r.code, r.stderr).toBe(0);
  const html = await readFile(file, "utf8");
  expect(html).toContain(`No trace: Run ${SEED_IDS.runs.sendEmail} recorded no trace`);
  expect(html).toContain("reduck/mail.google.com/send_email");
  // Without --html, the trace itself is asked for, and its absence fails as before.
  expect((await runCli(["runs", "trace", SEED_IDS.runs.sendEmail], { env: sandbox.env })).code).toBe(1);
});

test("an unknown run fails with the service's words (exit 1), and writes nothing", async () => {
  const file = path.join(sandbox.home, "unknown.html");
  const r = await runCli(["runs", "trace", "00000000-0000-4000-8000-00000000dead", "--html", file], { env: sandbox.env });
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(/^Error: reading run 00000000-0000-4000-8000-00000000dead: /);
  await expect(stat(file)).rejects.toThrow(/ENOENT/);
});
