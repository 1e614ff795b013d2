// POST /run over real loopback HTTP (startHttpServer): the JSON limit from Content-Length, an upload
// cut off mid-way, and the sandbox's desktop options. The 50 MB parts are run-http-50mb.slow.test.ts's.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MAX_JSON_BODY_BYTES } from "../contract/service-rules.js";
import { servedEachTest, sendEmail } from "./fixtures/loopback-server.js";
import { parseSandboxArgs } from "../process/sandbox-options.js";
import { spawnSandbox } from "../process/sandbox-process.js";
import { present } from "../contract/present.js";

const served = servedEachTest();

describe("POST /run over HTTP: JSON", () => {
  it("runs a JSON request and 413s one over the limit from its Content-Length", async () => {
    const headers = { "x-api-key": served.store.demo.apiKey, "content-type": "application/json" };
    const ok = await fetch(`${served.server.url}/run`, { method: "POST", headers, body: JSON.stringify({ browser: "extension", script: sendEmail }) });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { result: { sent: boolean } }).result.sent).toBe(true);

    const text = JSON.stringify({ browser: "extension", script: sendEmail });
    const exact = await fetch(`${served.server.url}/run`, { method: "POST", headers, body: text + " ".repeat(MAX_JSON_BODY_BYTES - text.length) });
    expect(exact.status).toBe(200);
    const over = await fetch(`${served.server.url}/run`, { method: "POST", headers, body: text + " ".repeat(MAX_JSON_BODY_BYTES + 1 - text.length) });
    expect(over.status).toBe(413);
    expect(((await over.json()) as { error: string }).error).toMatch(/^Payload Too Large: the JSON run request is 102,401 bytes/);
  });
});

describe("POST /run over HTTP: an upload cut off mid-way", () => {
  it("marks the run `upload interrupted`, recording exactly one run", async () => {
    const before = served.store.runsOf(served.store.demo.userId).length;
    const boundary = "----reduck-cut-off";
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="spec"\r\nContent-Type: application/json\r\n\r\n` +
      JSON.stringify({ browser: "extension", script: sendEmail }) +
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="0:attachment"; filename="attachment"\r\n\r\n`;
    const { port } = new URL(served.server.url);
    const req = httpRequest({
      host: "127.0.0.1",
      port,
      path: "/run",
      method: "POST",
      headers: {
        "x-api-key": served.store.demo.apiKey,
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": String(head.length + 10 * 1024 * 1024),
      },
    });
    req.on("error", () => undefined); // we cut it off ourselves
    req.write(head);
    req.write(Buffer.alloc(256 * 1024));
    await vi.waitFor(() => expect(served.store.runsOf(served.store.demo.userId).length).toBe(before + 1));
    req.destroy();
    const run = served.store.runsOf(served.store.demo.userId).at(-1)!;
    await vi.waitFor(() => expect(run.status).toBe("error"));
    expect(run.result).toEqual({ error: "upload interrupted" });
    expect(served.store.runsOf(served.store.demo.userId).length).toBe(before + 1);
  });
});

describe("sandbox options", () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(path.join(os.tmpdir(), "reduck-sandbox-test-"))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("takes --desktop (an existing folder) and --file-access on|off", () => {
    expect(parseSandboxArgs(["--desktop", dir, "--file-access", "off"])).toEqual({ port: 4010, desktop: dir, fileAccess: false });
    expect(parseSandboxArgs(["--file-access=on"])).toEqual({ port: 4010, fileAccess: true });
    expect(() => parseSandboxArgs(["--desktop", path.join(dir, "nope")])).toThrow(/^--desktop must be an existing folder: ".*nope" does not exist$/);
    writeFileSync(path.join(dir, "file.txt"), "x");
    expect(() => parseSandboxArgs(["--desktop", path.join(dir, "file.txt")])).toThrow(/is not a folder$/);
    expect(() => parseSandboxArgs(["--file-access", "maybe"])).toThrow('--file-access must be on or off (got "maybe")');
  });

  it.each([
    ["--desktop", "--desktop needs a folder, e.g. --desktop ~/Desktop", "--desktop must be an existing folder"],
    ["--scripts", "--scripts needs a folder of scripts, e.g. --scripts ./scripts", "--scripts must be a folder (of <handle>/<host>/<slug>/ folders)"],
  ])("refuses %s empty, missing or naming a file, each with its own line", (flag, empty, notFolder) => {
    const file = path.join(dir, "not-a-folder.txt");
    writeFileSync(file, "x");
    expect(() => parseSandboxArgs([`${flag}=`])).toThrow(empty);
    expect(() => parseSandboxArgs([flag, path.join(dir, "nope")])).toThrow(`${flag} must be an existing folder: "${path.join(dir, "nope")}" does not exist`);
    expect(() => parseSandboxArgs([flag, file])).toThrow(`${notFolder}: "${file}" is not a folder`);
  });

  it("takes --site HOST=DIR, once per host, repeatable", () => {
    expect(parseSandboxArgs(["--site", "Shop.Example=saved/shop", "--site=docs.example=/tmp/docs"])).toEqual({
      port: 4010,
      sites: { "shop.example": path.resolve("saved/shop"), "docs.example": "/tmp/docs" },
    });
    expect(() => parseSandboxArgs(["--site", "shop.example=a", "--site", "shop.example=b"])).toThrow("--site shop.example is given twice: one folder per host");
    expect(() => parseSandboxArgs(["--site", "shop.example="])).toThrow(
      '--site needs HOST=DIR, e.g. --site shop.example=./saved/shop.example (got "shop.example=")',
    );
  });

  it("takes --browser real|simulated", () => {
    expect(parseSandboxArgs(["--browser", "simulated"])).toEqual({ port: 4010, browser: "simulated" });
    expect(parseSandboxArgs(["--browser=Real"])).toEqual({ port: 4010, browser: "real" });
    expect(() => parseSandboxArgs(["--browser", "firefox"])).toThrow(
      '--browser must be real (a headless Chromium) or simulated (the fast simulated page) (got "firefox")',
    );
  });

  it("with --browser simulated, runs the catalogue against the simulated page, and says so", async () => {
    const sandbox = spawnSandbox(["--port", "0", "--desktop", dir, "--browser", "simulated"]);
    try {
      await vi.waitFor(() => expect(sandbox.output().stderr).toContain("desktop folder"), { timeout: 50_000, interval: 25 });
      expect(sandbox.output().stderr).toContain(
        "scripts run against the simulated page, which renders nothing (without --browser simulated: a headless Chromium)",
      );
      const [url, announcedKey] = sandbox
        .output()
        .stdout.trimEnd()
        .split("\n")
        .map((line) => line.slice(line.indexOf("=") + 1));
      const key = present(announcedKey, "REDUCK_API_KEY= on stdout's second line");
      const script = {
        ...sendEmail,
        args: { ...sendEmail.args, attachmentName: "big.pdf" },
        files: { attachment: { b64: Buffer.from("x").toString("base64"), mime: "application/pdf" } },
      };
      const response = await fetch(`${url}/run`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify({ browser: "extension", script }),
      });
      const answer = (await response.json()) as { result: { attachment: string }; runId: string };
      expect(answer.result.attachment).toBe("big.pdf");
      // The catalogue's one body (it renames the file in the page, then reads the compose window's
      // chip), and no screenshot: the simulated page renders nothing.
      const trace = (await (await fetch(`${url}/api/runs/${answer.runId}/trace`, { headers: { "x-api-key": key } })).json()) as {
        steps: Array<{ action: string }>;
        screenshots: unknown[];
      };
      expect(trace.steps.map((s) => s.action)).toContain(`locator('div[role="dialog"] input[type="file"][name="Filedata"]').evaluate()`);
      expect(trace.screenshots).toEqual([]);
    } finally {
      sandbox.child.kill("SIGTERM");
      await sandbox.exited;
    }
  });

  it("exits 2 on a bad --desktop or --file-access", async () => {
    const desktop = spawnSandbox(["--desktop", path.join(dir, "missing")]);
    expect(await desktop.exited).toBe(2);
    expect(desktop.output().stderr).toMatch(/^sandbox: --desktop must be an existing folder/);
    const access = spawnSandbox(["--file-access", "sometimes"]);
    expect(await access.exited).toBe(2);
    expect(access.output().stderr).toBe('sandbox: --file-access must be on or off (got "sometimes")\n');
  });

  it("serves /run on the same port, reading named files from --desktop, and honours --file-access", async () => {
    mkdirSync(path.join(dir, "reduck", "2026"), { recursive: true });
    writeFileSync(path.join(dir, "reduck", "2026", "invoice.pdf"), "%PDF-1.7");
    const body = JSON.stringify({ browser: "extension", script: { ...sendEmail, files: { attachment: { relativePath: "2026/invoice.pdf" } } } });

    for (const access of ["on", "off"]) {
      const sandbox = spawnSandbox(["--port", "0", "--desktop", dir, "--file-access", access]);
      try {
        await vi.waitFor(() => expect(sandbox.output().stderr).toContain("desktop folder"), { timeout: 50_000, interval: 25 });
        const lines = sandbox.output().stdout.trimEnd().split("\n");
        expect(lines).toHaveLength(2);
        const url = present(lines[0], "the address line").replace("REDUCK_API_URL=", "");
        const key = present(lines[1], "the key line").replace("REDUCK_API_KEY=", "");
        expect(sandbox.output().stderr).toContain(`sandbox: desktop folder ${dir}: files named by relativePath are read from ${path.join(dir, "reduck")}`);
        expect(sandbox.output().stderr).toContain("scripts run in a headless Chromium against the simulated web (--browser simulated: the simulated page)");
        const response = await fetch(`${url}/run`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body });
        const answer = (await response.json()) as { result?: { attachment: string }; error?: string };
        if (access === "on") {
          expect(response.status).toBe(200);
          expect(answer.result!.attachment).toBe("invoice.pdf");
        } else {
          expect(response.status).toBe(422);
          expect(answer.error).toMatch(/^This paired browser can't read local files/);
        }
      } finally {
        sandbox.child.kill("SIGTERM");
        await sandbox.exited;
      }
    }
  });
});
