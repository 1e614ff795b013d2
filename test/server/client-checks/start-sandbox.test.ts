// The testing API as a user's test file meets it: startSandbox() on a free port with the published
// reduck-client talking to it, runs() for assertions, next() for the service's harder answers; and
// the same handlers through MSW (sandboxHandlers, nextRuns, receivedRuns).
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setupServer } from "msw/node";
import { createReduckClient, runScript } from "reduck-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStore, nextRuns, type RunningSandbox, receivedRuns, sandboxHandlers, startSandbox } from "../index.js";

const CONTRACT_ONLY = { description: "Its code is withheld", input_schema: { type: "object" }, output_schema: { type: "object" } };
const SEND_EMAIL = { handle: "reduck", host: "mail.google.com", slug: "send_email" };
const bytes = Buffer.from("%PDF-1.7 the quarterly report");
const sha256 = createHash("sha256").update(bytes).digest("hex");

describe("startSandbox()", () => {
  let sandbox: RunningSandbox;
  let file: string;
  beforeAll(async () => {
    sandbox = await startSandbox();
    file = path.join(sandbox.desktop, "reduck", "report.pdf");
    writeFileSync(file, bytes);
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  const client = () => createReduckClient({ apiKey: sandbox.apiKey, baseUrl: sandbox.url, maxRetries: 0 });
  const send = (extra: Record<string, unknown> = {}) =>
    runScript({
      client: client(),
      browser: "extension",
      script: { ...SEND_EMAIL, args: { to: "me@example.com", subject: "Report" }, files: { attachment: { path: file } } },
      ...extra,
    });

  it("listens on a free loopback port with a key and a desktop folder", () => {
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.apiKey).toMatch(/^rk_/);
    expect(sandbox.runs()).toEqual([]);
  });

  it("runs a script with a file, and runs() lists it with its script, arguments and the file's name, size and SHA-256", async () => {
    const { data, error } = await send();
    expect(error).toBeUndefined();
    expect(data?.result).toMatchObject({ sent: true });
    expect(sandbox.runs().at(-1)).toMatchObject({
      runId: data!.runId,
      script: "reduck/mail.google.com/send_email",
      args: { to: "me@example.com", subject: "Report" },
      files: [{ input: "attachment", name: "attachment", size: bytes.length, sha256, via: "bytes" }],
      status: "success",
    });
  });

  it("next({ held }): the run outlives waitForSeconds, the answer is a 202, and the library polls it to its result", async () => {
    sandbox.next({ held: 2 });
    const statuses: string[] = [];
    const { data, error } = await send({ waitForSeconds: 1, onStatus: (update: { status: string }) => statuses.push(update.status) });
    expect(error).toBeUndefined();
    expect(data?.result).toMatchObject({ sent: true });
    expect(statuses[0]).toBe("running");
    expect(sandbox.runs().at(-1)).toMatchObject({ runId: data!.runId, status: "success" });
  });

  it("next({ failed }): the run fails with that errorType and externalMessage", async () => {
    sandbox.next({ failed: { errorType: "site_error", externalMessage: "Gmail answered 503: try again later." } });
    const { data, error } = await send();
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ errorType: "site_error", externalMessage: "Gmail answered 503: try again later." });
    expect(sandbox.runs().at(-1)).toMatchObject({ status: "error" });
    // Only the next run: the one after succeeds again.
    expect((await send()).error).toBeUndefined();
  });

  it("next({ noOutcome }): the run ends with neither result nor error", async () => {
    sandbox.next({ noOutcome: true });
    const { data, error } = await send();
    // What the library makes of it: a failed run that says so.
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ kind: "run_failed", runId: expect.any(String), error: expect.stringMatching(/ended with neither a result nor an error/) });
    expect(sandbox.runs().at(-1)).toMatchObject({ runId: error!.runId, status: "success" });
  });

  it("next({ rateLimited }): 429 with Retry-After, and no run made", async () => {
    sandbox.next({ rateLimited: { retryAfterSeconds: 7 } });
    const before = sandbox.runs().length;
    const response = await fetch(`${sandbox.url}/run`, {
      method: "POST",
      headers: { "x-api-key": sandbox.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ browser: "extension", script: { ...SEND_EMAIL, args: { to: "me@example.com", subject: "Hi" } } }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("7");
    await response.arrayBuffer();
    expect(sandbox.runs().length).toBe(before);
  });

  it("next({ reset }): the connection is cut before any answer", async () => {
    sandbox.next({ reset: true });
    const { error } = await send();
    expect(error).toBeDefined();
    expect(JSON.stringify(error)).toMatch(/ECONNRESET|socket|closed|network|fetch failed/i);
    // The next request is answered as usual.
    expect((await send()).error).toBeUndefined();
  });

  it("seeds your own scripts from a folder as `reduck scripts pull` writes it (a @user folder is the caller's)", async () => {
    const dir = path.join(sandbox.desktop, "my-scripts");
    const folder = path.join(dir, "@alice", "shop.example", "get_total");
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, "script.ts"), "const a: number = args.a as number;\nreturn { total: a + (args.b as number) };\n");
    writeFileSync(
      path.join(folder, "contract.json"),
      JSON.stringify({
        description: "Adds two numbers",
        input_schema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
        output_schema: { type: "object" },
      }),
    );
    writeFileSync(path.join(dir, "reduck.lock.json"), "not read by the sandbox");
    // Its contract alone: a script whose code is withheld, which runs and returns {}.
    mkdirSync(path.join(dir, "@alice", "shop.example", "withheld"));
    writeFileSync(path.join(dir, "@alice", "shop.example", "withheld", "contract.json"), JSON.stringify({ ...CONTRACT_ONLY }));
    const own = await startSandbox({ scripts: dir });
    try {
      const withheld = await runScript({
        client: createReduckClient({ apiKey: own.apiKey, baseUrl: own.url, maxRetries: 0 }),
        script: { handle: "@alice", host: "shop.example", slug: "withheld", args: {} },
      });
      expect(withheld.data?.result).toEqual({});
      const { data, error } = await runScript({
        client: createReduckClient({ apiKey: own.apiKey, baseUrl: own.url, maxRetries: 0 }),
        browser: "extension",
        script: { handle: "@alice", host: "shop.example", slug: "get_total", args: { a: 2, b: 3 } },
      });
      expect(error).toBeUndefined();
      expect(data?.result).toEqual({ total: 5 });
      expect(own.runs()).toMatchObject([{ script: "@alice/shop.example/withheld" }, { script: "@alice/shop.example/get_total", args: { a: 2, b: 3 } }]);
    } finally {
      await own.close();
    }
  });

  it("refuses a bad scripts folder or a missing site folder before serving, naming it", async () => {
    const dir = path.join(sandbox.desktop, "bad-scripts");
    const folder = path.join(dir, "acme", "shop.example", "broken");
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, "script.js"), "return {};");
    writeFileSync(path.join(folder, "contract.json"), "{ not json");
    await expect(startSandbox({ scripts: dir })).rejects.toThrow(`${path.join(folder, "contract.json")} is not JSON`);
    const missing = path.join(sandbox.desktop, "no-such-site");
    await expect(startSandbox({ sites: { "shop.example": missing } })).rejects.toThrow(`site shop.example: the folder "${missing}" does not exist`);
  });

  it("serves a folder of saved pages as a host of the simulated web, where a script from the folder runs", async () => {
    const site = path.join(sandbox.desktop, "saved-shop");
    mkdirSync(path.join(site, "cart"), { recursive: true });
    writeFileSync(path.join(site, "index.html"), "<!doctype html><title>Shop</title><h1>Welcome</h1>");
    writeFileSync(
      path.join(site, "cart", "index.html"),
      '<!doctype html><title>Cart</title><ul><li class="item" data-price="4.5">Tea</li><li class="item" data-price="3">Milk</li></ul>',
    );
    const scripts = path.join(sandbox.desktop, "shop-scripts");
    const folder = path.join(scripts, "@demo", "shop.example", "cart_total");
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      path.join(folder, "script.ts"),
      [
        'await page.goto("https://shop.example/cart/");',
        'const prices: string[] = await page.locator(".item").evaluateAll((items) => items.map((item) => item.getAttribute("data-price") ?? "0"));',
        "return { title: await page.title(), total: prices.reduce((sum: number, price: string) => sum + Number(price), 0) };",
      ].join("\n"),
    );
    writeFileSync(
      path.join(folder, "contract.json"),
      `${JSON.stringify({ description: "The cart's total", input_schema: { type: "object" }, output_schema: { type: "object" } }, null, 2)}\n`,
    );
    const own = await startSandbox({ scripts, sites: { "shop.example": site } });
    try {
      const { data, error } = await runScript({
        client: createReduckClient({ apiKey: own.apiKey, baseUrl: own.url, maxRetries: 0 }),
        script: { handle: "@demo", host: "shop.example", slug: "cart_total", args: {} },
      });
      expect(error).toBeUndefined();
      expect(data?.result).toEqual({ title: "Cart", total: 7.5 });
    } finally {
      await own.close();
    }
    // Once closed, the host is the simulated web's 404 again.
    const after = await startSandbox({ scripts });
    try {
      const { data } = await runScript({
        client: createReduckClient({ apiKey: after.apiKey, baseUrl: after.url, maxRetries: 0 }),
        script: { handle: "@demo", host: "shop.example", slug: "cart_total", args: {} },
      });
      expect(data?.result).toEqual({ title: "404 Not Found", total: 0 });
    } finally {
      await after.close();
    }
  });
});

describe("sandboxHandlers(store) with MSW", () => {
  const store = createStore({ browser: "simulated" });
  const server = setupServer(...sandboxHandlers(store));
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterAll(() => server.close());
  const client = () => createReduckClient({ apiKey: store.demo.apiKey, maxRetries: 0 });

  it("answers the library in-process, lists what it received, and takes nextRuns()", async () => {
    const ran = await runScript({
      client: client(),
      browser: "extension",
      script: { ...SEND_EMAIL, args: { to: "me@example.com", subject: "In-process" }, files: { attachment: bytes } },
    });
    expect(ran.error).toBeUndefined();
    expect(receivedRuns(store)).toMatchObject([{ script: "reduck/mail.google.com/send_email", files: [{ size: bytes.length, sha256 }] }]);
    nextRuns(store, { failed: { errorType: "timeout", externalMessage: "It took too long." } });
    const failed = await runScript({ client: client(), browser: "extension", script: { ...SEND_EMAIL, args: { to: "me@example.com", subject: "Late" } } });
    expect(failed.error).toMatchObject({ errorType: "timeout", externalMessage: "It took too long." });
  });
});
