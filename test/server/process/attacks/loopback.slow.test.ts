// The page reaches only the simulated sites. Every request of the browser to
// this machine (the sandbox's own API, another program's local page), by navigation, fetch,
// WebSocket or a download link that skips Playwright's routing, is refused: the local server
// never sees one. A run beside succeeds, the sandbox answers afterwards.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumSandboxWanted } from "../../runtime/browser/chromium.js";
import { attackedSandbox } from "./fixtures/attacked-sandbox.js";

const sandbox = attackedSandbox([], { browser: "real" });
let local: Server;
let hits = 0;

beforeAll(async () => {
  local = createServer((_request, response) => {
    hits += 1;
    response.writeHead(200, { "content-type": "text/plain", "access-control-allow-origin": "*" });
    response.end("another program's admin page");
  });
  await new Promise<void>((resolve) => local.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  await new Promise((resolve) => local?.close(resolve));
});

describe("the page reaches only the simulated sites", () => {
  it("refuses every way to this machine: navigation, fetch, WebSocket, a download link", async () => {
    const port = (local.address() as AddressInfo).port;
    const targets = [`http://127.0.0.1:${port}/admin`, `http://localhost:${port}/admin`, `${sandbox.url}/api/ping`, `http://[::1]:${port}/admin`];
    // The page's own requests first, from a page at a simulated site; the navigations last, so
    // no refused navigation's error page (which Chromium may still be loading) is in the way.
    // A navigation cut short by such a page is tried again once that page has loaded.
    const attack = `
      const tried = {};
      const go = async (url) => {
        for (let i = 0; ; i++) {
          try { return await page.goto(url); } catch (e) {
            if (!/interrupted by another navigation/.test(e.message) || i === 9) throw e;
            await page.waitForLoadState().catch(() => {});
          }
        }
      };
      await go('http://example.com/');
      tried.fetch = await page.evaluate((url) => fetch(url, { mode: 'no-cors' }).then(() => 'reached', () => 'refused'), ${JSON.stringify(targets[0])});
      tried.socket = await page.evaluate((url) => new Promise((resolve) => { const ws = new WebSocket(url); ws.onopen = () => resolve('open'); ws.onclose = (e) => resolve(e.code); }), ${JSON.stringify(`ws://127.0.0.1:${port}/live`)});
      // Chromium fetches a download link itself, past the routing: the second wall must hold it.
      await page.evaluate((url) => { const a = Object.assign(document.createElement('a'), { href: url, download: 'x.txt' }); document.body.append(a); a.click(); }, ${JSON.stringify(`http://127.0.0.1:${port}/download`)});
      await new Promise((resolve) => setTimeout(resolve, 1500));
      for (const url of ${JSON.stringify(targets)}) {
        try { await go(url); tried[url] = 'reached: ' + (await page.content()).slice(0, 80); } catch (e) { tried[url] = /ERR_BLOCKED_BY_CLIENT|ERR_/.test(e.message) ? 'refused' : e.message; }
      }
      return tried;`;
    const beside = sandbox.createAndRun("await page.goto('https://example.com/'); return { beside: (await page.title()).length >= 0 };");
    const ran = await sandbox.createAndRun(attack);
    expect(ran, `${JSON.stringify(ran.body)}\n${sandbox.stderr()}`).toMatchObject({ status: 200 });
    expect(ran.body.result).toEqual({ ...Object.fromEntries(targets.map((url) => [url, "refused"])), fetch: "refused", socket: 1008 });
    expect(hits).toBe(0);
    expect(await beside).toMatchObject({ status: 200, body: { result: { beside: true } } });
    expect((await sandbox.call("GET", "/api/ping")).status).toBe(200);
  }, 90_000);

  it("asks for Chromium's own sandbox whenever the process is not root", () => {
    expect(chromiumSandboxWanted()).toBe(process.getuid!() !== 0);
  });
});
