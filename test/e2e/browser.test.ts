/**
 * Scripts in the sandbox's real browser, end to end: the built CLI and the library against the
 * sandbox over real loopback HTTP, with real files, and a headless Chromium behind
 * POST /run. What a script puts into a file field is read back inside the page, byte for byte.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { createScript, runScript, MAX_FILE_BYTES } from "../../src/index.js";
import { sharedBrowserHost } from "@reduck-client/sandbox";
import { scratchFolder } from "@reduck-client/sandbox/internal";
import { runCli } from "../support/cli.js";
import { sha256 } from "../support/files.js";
import { present } from "../support/present.js";
import { useCliSandbox } from "../support/sandbox.js";

const MiB = 2 ** 20;
const PNG_SIGNATURE = Buffer.from("89504e470d0a1a0a", "hex");
/** A server on this machine a script's page can reach: it counts who knocked, and holds `/hold` until released. */
let local: Server;
let knocks = 0;
const held: Array<() => void> = [];

/** The probe: a bare file field, the run's file put into it, then read back in the page. */
const INSPECT_UPLOAD = `
await page.setContent('<input type=file id=f>');
await builtins.uploadFile('#f', 'doc');
return await page.evaluate(async () => {
  const file = document.getElementById('f').files[0];
  const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
  return { name: file.name, size: file.size, sha256: [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('') };
});`;

/** What mail.google.com's compose page shows the recipient will get, row by row. */
const READ_PREVIEW = `
return await page.locator('#preview [data-preview]').evaluateAll((cells) => Object.fromEntries(cells.map((c) => [c.dataset.preview, c.textContent])));`;

async function create(host: string, slug: string, content: string, inputSchema: Record<string, unknown> = { type: "object" }) {
  const created = await createScript({
    client: sandbox.client,
    path: { handle: "@demo" },
    body: {
      host,
      slug,
      description: `${slug}, for the browser tests`,
      side_effects: "none",
      input_schema: inputSchema,
      output_schema: { type: "object" },
      content,
    },
  });
  expect(created.error).toBeUndefined();
}

const sandbox = useCliSandbox({
  desktop: {},
  home: "reduck-e2e-browser-",
});

beforeAll(async () => {
  local = createServer((request, response) => {
    knocks += 1;
    if (request.url === "/hold") held.push(() => response.end("released"));
    else response.end("here");
  });
  await new Promise<void>((resolve) => local.listen(0, "127.0.0.1", resolve));
  // The sandbox's browser reaches no local port but the ones opened for it.
  sharedBrowserHost().allowLoopbackPort((local.address() as AddressInfo).port);
  const doc = { type: "object", properties: { doc: { type: "string", format: "file" } }, required: ["doc"] };
  await create("example.org", "inspect_upload", INSPECT_UPLOAD, doc);
  await create("mail.google.com", "read_preview", READ_PREVIEW);
}, 60_000);

afterAll(() => {
  local?.close();
});

const inspect = { handle: "@demo", host: "example.org", slug: "inspect_upload" };

describe("builtins.uploadFile puts the run's file into a real file field", () => {
  const sizes: Array<[string, number]> = [
    ["0 B", 0],
    ["1 byte", 1],
    ["1 MiB", MiB],
    ["50 MB", MAX_FILE_BYTES],
  ];

  test.each(sizes)("%s as bytes through the CLI: named after the input, the same bytes in the page", async (_label, size) => {
    const bytes = randomBytes(size);
    const file = path.join(sandbox.home, `cli-${size}.bin`);
    await writeFile(file, bytes);
    const r = await runCli(["run", "--script", "@demo/example.org/inspect_upload", `file:doc=${file}`], { env: sandbox.env });
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ name: "doc", size, sha256: sha256(bytes) });
  });

  test.each(sizes)("%s as bytes through the library: the same", async (_label, size) => {
    const bytes = randomBytes(size);
    const file = path.join(sandbox.home, `lib-${size}.bin`);
    await writeFile(file, bytes);
    const { data, error } = await runScript({ client: sandbox.client, browser: "extension", script: { ...inspect, files: { doc: { path: file } } } });
    expect(error).toBeUndefined();
    expect(data!.result).toEqual({ name: "doc", size, sha256: sha256(bytes) });
  });

  test("a named file, read by the extension from <desktop>/reduck: its own name, the same bytes", async () => {
    const bytes = randomBytes(300_001);
    await writeFile(path.join(sandbox.desktop, "reduck", "quarterly report.pdf"), bytes);
    const { data, error } = await runScript({
      client: sandbox.client,
      browser: "extension",
      script: { ...inspect, files: { doc: { relativePath: "quarterly report.pdf" } } },
    });
    expect(error).toBeUndefined();
    expect(data!.result).toEqual({ name: "quarterly report.pdf", size: bytes.length, sha256: sha256(bytes) });
  });

  test("a required file input that is missing fails before the browser is touched", async () => {
    const contexts = sharedBrowserHost().runs;
    const { error } = await runScript({ client: sandbox.client, browser: "extension", script: inspect });
    expect(error).toMatchObject({ error: "missing file input doc", runId: expect.any(String) });
    expect(sharedBrowserHost().runs).toBe(contexts);
    const trace = await runCli(["runs", "trace", error!.runId!], { env: sandbox.env });
    expect(trace.stderr).toContain("recorded no trace");
  });

  test("a part is kept on disk while its run needs it, and is gone once the run is answered", async () => {
    const hold = `http://127.0.0.1:${(local.address() as AddressInfo).port}/hold`;
    const doc = { type: "object", properties: { doc: { type: "string", format: "file" } } };
    await create("example.org", "hold", `await page.goto(${JSON.stringify(hold)}); return {};`, doc);
    const parts = async () => {
      const found: string[] = [];
      for (const name of (await readdir(scratchFolder(sandbox.store))).filter((n) => n.startsWith("parts-"))) {
        for (const file of await readdir(path.join(scratchFolder(sandbox.store), name))) found.push(path.join(scratchFolder(sandbox.store), name, file));
      }
      return found;
    };
    const bytes = randomBytes(MiB);
    const running = runScript({
      client: sandbox.client,
      browser: "extension",
      script: { handle: "@demo", host: "example.org", slug: "hold", files: { doc: new Blob([bytes]) } },
    });
    await vi.waitFor(() => expect(held).toHaveLength(1), { timeout: 15_000, interval: 20 });
    const kept = await parts();
    expect(kept).toHaveLength(1);
    expect(sha256(await readFile(present(kept[0], "the kept part")))).toBe(sha256(bytes));
    held.shift()!();
    expect((await running).error).toBeUndefined();
    await vi.waitFor(async () => expect(await parts()).toEqual([]));
  });
});

describe("mail.google.com/send_email in the real browser", () => {
  async function sendThenRead(args: string[]) {
    const banner = Buffer.concat([PNG_SIGNATURE, Buffer.alloc(4096, 7)]);
    const file = path.join(sandbox.home, "banner.png");
    await writeFile(file, banner);
    // One browser for both steps: the second reads the page the first left.
    const r = await runCli(
      [
        "run",
        "--sequential",
        "--script",
        "reduck/mail.google.com/send_email",
        "to=me@example.com",
        "subject=Our new banner",
        ...args,
        `file:attachment=${file}`,
        "--script",
        "@demo/mail.google.com/read_preview",
      ],
      { env: sandbox.env },
    );
    expect(r.code).toBe(0);
    return { results: JSON.parse(r.stdout) as [Record<string, unknown>, Record<string, string>], stderr: r.stderr };
  }

  test("with attachmentName: the compose page shows the recipient that name, and the run says so", async () => {
    const { results } = await sendThenRead(["attachmentName=banner.png"]);
    expect(results[0]).toEqual({ sent: true, to: ["me@example.com"], cc: [], bcc: [], subject: "Our new banner", attachment: "banner.png" });
    expect(results[1]).toEqual({ status: "sent", to: "me@example.com", cc: "", bcc: "", subject: "Our new banner", body: "", attachment: "banner.png (4 KB)" });
  });

  test("without it, the input's name", async () => {
    const { results } = await sendThenRead([]);
    expect(results[0]).toMatchObject({ attachment: "attachment" });
    expect(results[1]).toMatchObject({ status: "sent", attachment: "attachment (4 KB)" });
  });

  test("the trace has each step with its duration and a PNG after the last; runs trace --screenshots writes it", async () => {
    const banner = path.join(sandbox.home, "banner.png");
    const r = await runCli(["run", "--script", "reduck/mail.google.com/send_email", "to=me@example.com", "subject=x", `file:attachment=${banner}`], {
      env: sandbox.env,
    });
    expect(r.code).toBe(0);
    const runId = present(/^run ([0-9a-f-]{36})$/m.exec(r.stderr)?.[1], "a run id on stderr");
    const shots = path.join(sandbox.home, "shots");
    const traced = await runCli(["runs", "trace", runId, "--screenshots", shots], { env: sandbox.env });
    expect(traced.code).toBe(0);
    const trace = JSON.parse(traced.stdout);
    expect(trace.steps.map((s: { action: string }) => s.action)).toEqual([
      "goto https://mail.google.com/mail/u/0/#inbox?compose=new",
      'waitFor div[role="dialog"] (attached)',
      'paste into div[role="dialog"] input[aria-label="To recipients"]',
      'paste into div[role="dialog"] input[name="subjectbox"]',
      'uploadFile div[role="dialog"] input[type="file"][name="Filedata"] ← attachment',
      `locator('div[role="dialog"] [role="listitem"][aria-label^="Attachment: "]').last().getAttribute()`,
      "pressKey Control+Enter",
      `getByRole('alert').filter({ hasText: 'Message sent' }).waitFor()`,
      "return",
    ]);
    for (const step of trace.steps) expect(step).toMatchObject({ ok: true, duration_ms: expect.any(Number) });
    expect(trace.screenshots).toEqual([
      {
        kind: "last",
        afterStep: 7,
        url: expect.stringMatching(new RegExp(`^${sandbox.server.url}/screenshots/`)),
        type: "image/png",
        size: expect.any(Number),
        path: path.join(shots, `${runId}-last.png`),
      },
    ]);
    const png = await readFile(path.join(shots, `${runId}-last.png`));
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(png.length).toBe(trace.screenshots[0].size);
  });
});

describe("a browser that hangs or dies costs one run", () => {
  test("a script that hangs the page ends with the timeout error; the next run succeeds", async () => {
    await create("example.org", "hang", `await page.setContent("<p>stuck</p>"); await page.evaluate(() => { for (;;) {} });`);
    const limit = sandbox.store.runTimeoutMs;
    sandbox.store.runTimeoutMs = 2_000;
    try {
      const hung = await runCli(["run", "--script", "@demo/example.org/hang"], { env: sandbox.env });
      expect(hung.code).toBe(1);
      // The service's words for people (externalMessage) in the human line.
      expect(hung.stderr).toMatch(/failed: @demo\/example\.org\/hang did not finish within 2 s, so it was stopped\.$/m);
    } finally {
      sandbox.store.runTimeoutMs = limit;
    }
    const { data, error } = await runScript({ client: sandbox.client, browser: "extension", script: { ...inspect, files: { doc: new Blob(["next"]) } } });
    expect(error).toBeUndefined();
    expect(data!.result).toEqual({ name: "doc", size: 4, sha256: sha256(Buffer.from("next")) });
  });

  test("a browser process killed during a run fails that run with a clear error, not the sandbox; the next run gets a new browser", async () => {
    const host = sharedBrowserHost();
    const signal = `http://127.0.0.1:${(local.address() as AddressInfo).port}/in-the-run`;
    await create("example.org", "wait", `await page.goto(${JSON.stringify(signal)}); await page.waitForTimeout(60_000); return {};`);
    const before = knocks;
    const launches = host.launches;
    const running = runCli(["run", "--script", "@demo/example.org/wait"], { env: sandbox.env });
    await vi.waitFor(() => expect(knocks).toBe(before + 1), { timeout: 15_000, interval: 20 });
    const pid = (await host.browserPid())!;
    process.kill(pid, "SIGKILL");
    const killed = await running;
    expect(killed.code).toBe(1);
    // Killed during the navigation or the wait after it, whichever the kill met.
    expect(killed.stderr).toMatch(
      /failed: @demo\/example\.org\/wait failed on the site: page\.(goto|waitForTimeout): the browser closed during the run \(it crashed or was killed\)$/m,
    );

    const { data, error } = await runScript({ client: sandbox.client, browser: "extension", script: { ...inspect, files: { doc: new Blob(["again"]) } } });
    expect(error).toBeUndefined();
    expect(data!.result).toMatchObject({ name: "doc", size: 5 });
    expect(host.launches).toBe(launches + 1);
    expect(await host.browserPid()).not.toBe(pid);
  });
});

describe("nothing the browser asks for leaves this machine", () => {
  test("a page that fetches, loads images, beacons and opens sockets off the machine: the simulated web answers all, none reaches the wall", async () => {
    await create(
      "example.org",
      "reach_out",
      `await page.goto("https://www.example.com/");
       const tried = await page.evaluate(async () => {
         const socket = (url) => new Promise((resolve) => { const ws = new WebSocket(url); ws.onclose = (e) => resolve(e.code); });
         const image = new Promise((resolve) => { const img = new Image(); img.onload = () => resolve("loaded"); img.onerror = () => resolve("error"); img.src = "https://cdn.public-host.example/logo.png"; });
         return {
           fetched: await fetch("https://api.public-host.example/data", { mode: "no-cors" }).then((r) => r.type),
           beacon: navigator.sendBeacon("https://collect.public-host.example/b", "x"),
           image: await image,
           socket: await socket("wss://live.public-host.example/"),
         };
       });
       await page.goto("https://news.public-host.example/");
       return { tried, title: await page.title() };`,
    );
    const host = sharedBrowserHost();
    const simulated = host.traffic.simulated;
    const { data, error } = await runScript({
      client: sandbox.client,
      browser: "extension",
      script: { handle: "@demo", host: "example.org", slug: "reach_out" },
    });
    expect(error).toBeUndefined();
    expect(data!.result).toEqual({ tried: { fetched: "opaque", beacon: true, image: "error", socket: 1008 }, title: "404 Not Found" });
    // At least: the page, the fetch, the image, the beacon and the second page.
    expect(host.traffic.simulated - simulated).toBeGreaterThanOrEqual(5);
    // Every run of this file so far, the example scripts included: nothing reached the wall.
    expect(await host.wallAttempts()).toEqual([]);
  });
});
