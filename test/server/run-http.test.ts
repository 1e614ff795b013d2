// POST /run over real loopback HTTP (startHttpServer): the 50 MB part limit both ways, the JSON
// limit from Content-Length, an upload cut off mid-way, and the sandbox's desktop options.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_FILE_BYTES, MAX_JSON_BODY_BYTES } from "./service-rules.js";
import { createHandlers, createStore, startHttpServer, type ReferenceStore, type RunningHttpServer } from "./index.js";
import { parseSandboxArgs } from "./sandbox-options.js";
import { spawnSandbox, TSX_NODE_ARGS } from "./sandbox-process.js";
import { present } from "./present.js";

const PROBE = fileURLToPath(new URL("./fixtures/memory-probe.ts", import.meta.url));

let store: ReferenceStore;
let server: RunningHttpServer;

beforeEach(async () => {
  store = createStore();
  server = await startHttpServer({ handlers: createHandlers(store) });
});
afterEach(async () => {
  await server.close();
});

const sendEmail = { handle: "reduck", host: "mail.google.com", slug: "send_email", args: { to: "me@example.com", subject: "Big one" } };

async function postForm(form: FormData): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${server.url}/run`, { method: "POST", headers: { "x-api-key": store.demo.apiKey }, body: form });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

function formWith(bytes: Buffer<ArrayBuffer>, input = "attachment", script: object = sendEmail): FormData {
  const form = new FormData();
  form.append("spec", JSON.stringify({ browser: "extension", script }));
  form.append(`0:${input}`, new Blob([bytes]), input);
  return form;
}

describe("POST /run over HTTP: the 50 MB part limit", () => {
  it("accepts a part of exactly MAX_FILE_BYTES, hashed intact", async () => {
    const bytes = Buffer.alloc(MAX_FILE_BYTES, 7);
    const expected = createHash("sha256").update(bytes).digest("hex");
    const sent = await postForm(formWith(bytes));
    expect(sent.status).toBe(200);
    expect(sent.body.result.attachment).toBe("attachment");
    expect(store.runs.get(sent.body.runId)!.files).toEqual([
      { input: "attachment", name: "attachment", size: MAX_FILE_BYTES, type: "application/octet-stream", sha256: expected, via: "bytes" },
    ]);

    const document = await postForm(
      formWith(bytes, "document", { handle: "reduck", host: "docusign.com", slug: "upload_document", args: { documentName: "big.pdf" } }),
    );
    expect(document.status).toBe(200);
    expect(document.body.result.document).toMatchObject({ name: "big.pdf", size: MAX_FILE_BYTES, sha256: expected });
  });

  it("refuses one byte more with 413 as it crosses the limit, without holding the part", async () => {
    const bytes = Buffer.alloc(MAX_FILE_BYTES + 1);
    const refused = await postForm(formWith(bytes));
    expect(refused.status).toBe(413);
    expect(refused.body.error).toBe("Payload Too Large: file part 0:attachment is over the 50 MiB limit");
    // The run was recorded when the spec arrived; it failed with the refusal.
    expect(store.runs.get(refused.body.runId)).toMatchObject({ status: "error", result: { error: refused.body.error } });
    // The server is fine afterwards.
    expect((await fetch(`${server.url}/api/ping`)).status).toBe(200);
  });

  it("answers 413 the moment the limit is crossed, without waiting for the rest of the upload", async () => {
    // An upload that stops right after the byte too many and never ends: the answer must not wait
    // for it, and the connection, holding unread bytes, is not reused.
    const boundary = "----reduck-over";
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="spec"\r\nContent-Type: application/json\r\n\r\n` +
      JSON.stringify({ browser: "extension", script: sendEmail }) +
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="0:attachment"; filename="attachment"\r\n\r\n`;
    const req = httpRequest({
      host: "127.0.0.1",
      port: new URL(server.url).port,
      path: "/run",
      method: "POST",
      headers: {
        "x-api-key": store.demo.apiKey,
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": String(head.length + MAX_FILE_BYTES + 1024),
      },
    });
    req.on("error", () => undefined);
    const answered = once(req, "response") as Promise<[import("node:http").IncomingMessage]>;
    req.write(head);
    req.write(Buffer.alloc(MAX_FILE_BYTES + 1));
    const [response] = await answered;
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    req.destroy();
    expect(response.statusCode).toBe(413);
    expect(response.headers.connection).toBe("close");
    expect(JSON.parse(Buffer.concat(chunks).toString()).error).toBe("Payload Too Large: file part 0:attachment is over the 50 MiB limit");
  });
});

describe("POST /run over HTTP: memory", () => {
  it("never holds a refused 50 MB + 1 part in the server process", async () => {
    // The server runs in a child process: in this one, the client's own copies of the upload would
    // swamp the figure. A server that buffered the part (say through a cloned, teed request) would
    // show at least its 50 MB.
    const probe = spawn(process.execPath, ["--expose-gc", ...TSX_NODE_ARGS, PROBE], { stdio: ["pipe", "pipe", "inherit"] });
    const lines = createInterface({ input: probe.stdout! })[Symbol.asyncIterator]();
    const next = async () => String((await lines.next()).value);
    try {
      const [url, announcedKey] = (await next()).split(" ");
      const key = present(announcedKey, "the probe's key after its address");
      const post = async (size: number) => {
        const form = new FormData();
        form.append("spec", JSON.stringify({ browser: "extension", script: { handle: "@demo", host: "example.org", slug: "keep" } }));
        form.append("0:attachment", new Blob([Buffer.alloc(size)]), "attachment");
        const response = await fetch(`${url}/run`, { method: "POST", headers: { "x-api-key": key }, body: form });
        await response.arrayBuffer();
        return response.status;
      };
      expect(await post(1024)).toBe(200); // warm up
      probe.stdin!.write("reset\n");
      expect(await next()).toBe("ok");
      expect(await post(MAX_FILE_BYTES + 1)).toBe(413);
      probe.stdin!.write("peak\n");
      const held = Number(await next());
      expect(held).toBeLessThan(MAX_FILE_BYTES / 5);
    } finally {
      probe.kill("SIGTERM");
      await once(probe, "exit");
    }
  });
});

describe("POST /run over HTTP: JSON", () => {
  it("runs a JSON request and 413s one over the limit from its Content-Length", async () => {
    const headers = { "x-api-key": store.demo.apiKey, "content-type": "application/json" };
    const ok = await fetch(`${server.url}/run`, { method: "POST", headers, body: JSON.stringify({ browser: "extension", script: sendEmail }) });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { result: { sent: boolean } }).result.sent).toBe(true);

    const text = JSON.stringify({ browser: "extension", script: sendEmail });
    const exact = await fetch(`${server.url}/run`, { method: "POST", headers, body: text + " ".repeat(MAX_JSON_BODY_BYTES - text.length) });
    expect(exact.status).toBe(200);
    const over = await fetch(`${server.url}/run`, { method: "POST", headers, body: text + " ".repeat(MAX_JSON_BODY_BYTES + 1 - text.length) });
    expect(over.status).toBe(413);
    expect(((await over.json()) as { error: string }).error).toMatch(/^Payload Too Large: the JSON run request is 102,401 bytes/);
  });
});

describe("POST /run over HTTP: an upload cut off mid-way", () => {
  it("marks the run `upload interrupted`, recording exactly one run", async () => {
    const before = store.runsOf(store.demo.userId).length;
    const boundary = "----reduck-cut-off";
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="spec"\r\nContent-Type: application/json\r\n\r\n` +
      JSON.stringify({ browser: "extension", script: sendEmail }) +
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="0:attachment"; filename="attachment"\r\n\r\n`;
    const { port } = new URL(server.url);
    const req = httpRequest({
      host: "127.0.0.1",
      port,
      path: "/run",
      method: "POST",
      headers: {
        "x-api-key": store.demo.apiKey,
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": String(head.length + 10 * 1024 * 1024),
      },
    });
    req.on("error", () => undefined); // we cut it off ourselves
    req.write(head);
    req.write(Buffer.alloc(256 * 1024));
    await vi.waitFor(() => expect(store.runsOf(store.demo.userId).length).toBe(before + 1));
    req.destroy();
    const run = store.runsOf(store.demo.userId).at(-1)!;
    await vi.waitFor(() => expect(run.status).toBe("error"));
    expect(run.result).toEqual({ error: "upload interrupted" });
    expect(store.runsOf(store.demo.userId).length).toBe(before + 1);
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

  it("takes --browser real|simulated", () => {
    expect(parseSandboxArgs(["--browser", "simulated"])).toEqual({ port: 4010, browser: "simulated" });
    expect(parseSandboxArgs(["--browser=Real"])).toEqual({ port: 4010, browser: "real" });
    expect(() => parseSandboxArgs(["--browser", "firefox"])).toThrow(
      '--browser must be real (a headless Chromium) or simulated (the fast simulated page) (got "firefox")',
    );
  });

  it("with --browser simulated, runs the catalogue's twins against the simulated page, and says so", async () => {
    const sandbox = spawnSandbox(["--port", "0", "--desktop", dir, "--browser", "simulated"]);
    try {
      await vi.waitFor(() => expect(sandbox.output().stderr).toContain("desktop folder"), { timeout: 15_000, interval: 25 });
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
      // The simulated page's own steps (its twin renames with page.renameFile), and no screenshot.
      const trace = (await (await fetch(`${url}/api/runs/${answer.runId}/trace`, { headers: { "x-api-key": key } })).json()) as {
        steps: Array<{ action: string }>;
        screenshots: unknown[];
      };
      expect(trace.steps.map((s) => s.action)).toContain('renameFile input[type="file"][name="Filedata"] → big.pdf');
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
        await vi.waitFor(() => expect(sandbox.output().stderr).toContain("desktop folder"), { timeout: 15_000, interval: 25 });
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
