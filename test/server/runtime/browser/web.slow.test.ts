// The simulated web in a real Chromium: nothing leaves the machine (the routing answers everything;
// what it would miss is refused and counted by the wall), the pages the scripts need, and downloads.
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BrowserHost, type Delivery } from "./index.js";
import { present } from "../../contract/present.js";
import { checkSites, serveSites } from "./web/sites.js";

const host = new BrowserHost();
let work: string;
let local: Server;
let localHits = 0;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "reduck-browser-web-"));
  local = createServer((_request, response) => {
    localHits += 1;
    response.writeHead(200, { "content-type": "text/plain", "access-control-allow-origin": "*" });
    response.end("from this machine");
  });
  await new Promise<void>((resolve) => local.listen(0, "127.0.0.1", resolve));
  await (await host.newRun()).finish();
}, 120_000);

afterAll(async () => {
  await host.close();
  local.close();
  await rm(work, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("a saved site (--site HOST=DIR) in the real browser", () => {
  test("its page loads with its own styles, images and scripts; the walls stay: no file outside its folder, no loopback, nothing escaped", async () => {
    const port = (local.address() as AddressInfo).port;
    const site = path.join(work, "saved-shop");
    await mkdir(path.join(site, "assets"), { recursive: true });
    await writeFile(
      path.join(site, "index.html"),
      '<!doctype html><html><head><title>Shop</title><link rel="stylesheet" href="/assets/app.css"><script src="assets/app.js"></script></head>' +
        '<body><h1 id="greeting">Welcome</h1><img id="logo" src="/assets/logo.svg"></body></html>',
    );
    await writeFile(path.join(site, "assets", "app.css"), "h1 { color: rgb(255, 0, 0); }");
    await writeFile(path.join(site, "assets", "app.js"), "window.shopReady = 'yes';");
    await writeFile(path.join(site, "assets", "logo.svg"), '<svg xmlns="http://www.w3.org/2000/svg" width="7" height="5"></svg>');
    await writeFile(path.join(work, "outside.txt"), "the machine's own file");
    await symlink(path.join(work, "outside.txt"), path.join(site, "assets", "leak.txt"));
    const stop = serveSites(checkSites({ "shop.example": site }));
    const hitsBefore = localHits;
    const wallBefore = (await host.wallAttempts()).length;
    const run = await host.newRun();
    try {
      await run.builtins.goto("https://shop.example/");
      const seen = await run.page.evaluate(async (loopback) => {
        const logo = document.getElementById("logo") as HTMLImageElement;
        await logo.decode().catch(() => undefined);
        const status = (url: string) =>
          fetch(url).then(
            (r) => r.status,
            () => "refused",
          );
        return {
          title: document.title,
          color: getComputedStyle(document.getElementById("greeting")!).color,
          script: (window as unknown as { shopReady?: string }).shopReady,
          logo: [logo.naturalWidth, logo.naturalHeight],
          leak: await status("/assets/leak.txt"),
          climb: await status("/assets%2f..%2f..%2foutside.txt"),
          loopback: await status(loopback),
          file: await status("file:///etc/passwd"),
        };
      }, `http://127.0.0.1:${port}/`);
      expect(seen).toEqual({
        title: "Shop",
        color: "rgb(255, 0, 0)",
        script: "yes",
        logo: [7, 5],
        leak: 403,
        climb: 403,
        loopback: "refused",
        file: "refused",
      });
      expect(await run.page.content()).not.toContain("the machine's own file");
    } finally {
      await run.finish();
      stop();
    }
    expect(localHits).toBe(hitsBefore);
    expect((await host.wallAttempts()).slice(wallBefore)).toEqual([]);
  });
});

describe("nothing leaves the machine", () => {
  test("a page that fetches, loads an image, beacons and opens WebSockets off the machine: all answered here, none escaped; loopback is refused unless opened", async () => {
    const port = (local.address() as AddressInfo).port;
    const run = await host.newRun();
    try {
      // A plain http page, so that http addresses are not blocked as mixed content before they are tried.
      await run.builtins.goto("http://example.com/");
      const tried = await run.page.evaluate(async () => {
        const image = new Promise<string>((resolve) => {
          const img = new Image();
          img.onload = () => resolve("loaded");
          img.onerror = () => resolve("error");
          img.src = "https://images.public-cdn.example/logo.png";
        });
        const socket = (url: string) =>
          new Promise<number>((resolve) => {
            const ws = new WebSocket(url);
            ws.onclose = (event) => resolve(event.code);
          });
        // no-cors: the 404 pages carry no CORS header; the answer is opaque, but it is an answer.
        const fetched = await fetch("https://api.public-host.example/data", { mode: "no-cors" }).then((r) => r.type);
        const byAddress = await fetch("http://93.184.216.34/", { mode: "no-cors" }).then((r) => r.type);
        return {
          fetched,
          byAddress,
          beacon: navigator.sendBeacon("https://collect.public-host.example/b", "x"),
          image: await image,
          wss: await socket("wss://socket.public-host.example/live"),
          ws: await socket("ws://93.184.216.34/live"),
        };
      });
      expect(tried).toEqual({ fetched: "opaque", byAddress: "opaque", beacon: true, image: "error", wss: 1008, ws: 1008 });
      // This machine is not reachable: neither by the page, nor by a download that skips the routing.
      const fromPage = await run.page.evaluate(
        (url) =>
          fetch(url).then(
            () => "answered",
            () => "refused",
          ),
        `http://localhost:${port}/`,
      );
      expect(fromPage).toBe("refused");
      await expect(run.page.goto(`http://127.0.0.1:${port}/`)).rejects.toThrow(/ERR_BLOCKED_BY_CLIENT/);
      expect(localHits).toBe(0);
    } finally {
      await run.finish();
    }
    // Unless the host opened that port (a test's own server). In a run of its own: the refused
    // navigation above still ends on Chromium's error page, which would interrupt a next goto.
    const opened = await host.newRun();
    try {
      host.allowLoopbackPort(port);
      await opened.builtins.goto(`http://127.0.0.1:${port}/`);
      expect(await opened.page.locator("body").innerText()).toBe("from this machine");
      expect(localHits).toBe(1);
    } finally {
      await opened.finish();
    }
    expect(await host.wallAttempts()).toEqual([]);
  });

  test("the second wall: what the routing misses reaches the wall, is counted and fails", async () => {
    const before = (await host.wallAttempts()).length;
    const run = await host.newRun();
    try {
      await run.builtins.goto("https://admin.atlassian.com/billing");
      // Chromium fetches a link with a download attribute itself, past Playwright's routing.
      const download = run.page.waitForEvent("download");
      await run.page.evaluate(() => {
        const link = Object.assign(document.createElement("a"), { href: "/gateway/invoices/IN-1/download", download: "x.pdf" });
        document.body.append(link);
        link.click();
      });
      expect(await (await download).failure()).toBe("canceled");
      await run.context.unrouteAll();
      const outcome = await run.page.evaluate(() =>
        fetch("https://unrouted.public-host.example/x", { mode: "no-cors" }).then(
          (r) => `answered ${r.status}`,
          () => "failed",
        ),
      );
      expect(outcome).toBe("failed");
    } finally {
      await run.finish();
    }
    expect((await host.wallAttempts()).slice(before)).toEqual(["CONNECT admin.atlassian.com:443", "CONNECT unrouted.public-host.example:443"]);
  });
});

describe("the simulated web's pages", () => {
  test("an address nothing serves is a clear 404 page", async () => {
    const run = await host.newRun();
    try {
      await run.builtins.goto("https://www.nowhere-at-all.example/some/page?q=1");
      expect(run.steps[0]?.detail).toEqual({ status: 404 });
      expect(await run.page.title()).toBe("404 Not Found");
      expect(await run.page.locator("main").innerText()).toContain("https://www.nowhere-at-all.example/some/page?q=1");
    } finally {
      await run.finish();
    }
  });

  test("csm-testcenter.org: the form reports each file the browser held, with a SHA-256 computed in the page", async () => {
    const first = Buffer.from("%PDF-1.4 the first file");
    const second = Buffer.alloc(70_000, 0x5a);
    const run = await host.newRun({ files: { "test-upload.pdf": { via: "bytes", bytes: first }, other: { via: "bytes", bytes: second } } });
    try {
      await run.builtins.goto("https://www.csm-testcenter.org/test?do=show&subdo=common&test=file_upload", { waitUntil: "domcontentloaded" });
      await run.builtins.uploadFile('input[name="file_upload"]', "test-upload.pdf");
      await run.builtins.uploadFile('input[name="file_upload_2"]', "other");
      await run.page.getByRole("button", { name: "Start HTTP upload" }).click();
      await run.page.locator("#result").waitFor();
      const rows = await run.page
        .locator("#result-table tr")
        .evaluateAll((trs) => trs.map((tr) => [tr.querySelector("th")!.textContent, tr.querySelector("td")!.textContent]));
      expect(rows).toEqual([
        ["Field", "file_upload"],
        ["Filename", "test-upload.pdf"],
        ["Size", String(first.length)],
        ["Content type", "application/pdf"],
        ["SHA256", sha256(first)],
        ["Field", "file_upload_2"],
        ["Filename", "other"],
        ["Size", "70000"],
        ["Content type", "application/octet-stream"],
        ["SHA256", sha256(second)],
      ]);
      expect(await run.page.locator("#result-text").innerText()).toBe("2 files uploaded successfully.");
      expect(run.page.url()).toBe("https://www.csm-testcenter.org/test?do=test&subdo=common&test=file_upload");
    } finally {
      await run.finish();
    }
  });
});

describe("builtins.download: a real download in the browser", () => {
  const invoice = "https://admin.atlassian.com/gateway/api/billing-ux/api/billing/invoices/IN-77/download?transactionAccount=ta";

  test("base64: the bytes come back with the run", async () => {
    const run = await host.newRun();
    try {
      await run.builtins.goto("https://admin.atlassian.com/billing", { waitUntil: "domcontentloaded" });
      const file = await run.builtins.download(invoice, { filename: "IN-77.pdf", encoding: "base64" });
      expect(file).toMatchObject({ filename: "IN-77.pdf", type: "application/pdf" });
      const bytes = Buffer.from((file as { base64: string }).base64, "base64");
      expect((file as { size: number }).size).toBe(bytes.length);
      expect(bytes.subarray(0, 8).toString()).toBe("%PDF-1.4");
      expect(bytes.toString()).toContain("(Invoice IN-77)");
      expect(run.steps.at(-1)).toMatchObject({
        action: `download ${invoice}`,
        ok: true,
        detail: { encoding: "base64", filename: "IN-77.pdf", size: bytes.length },
      });
    } finally {
      await run.finish();
    }
  });

  test("own browser: saved by the delivery and returned as { filename, path }; managed: { filename, url }", async () => {
    const saved: string[] = [];
    const own: Delivery = async (file) => {
      const target = path.join(work, file.filename);
      await import("node:fs/promises").then((fs) => fs.writeFile(target, file.bytes));
      saved.push(target);
      return { path: target };
    };
    const run = await host.newRun({ deliver: own });
    try {
      await run.builtins.goto("https://admin.atlassian.com/billing");
      // Without a name the browser's own suggestion stands (Atlassian suggests none: it comes from the address).
      const result = await run.builtins.download(invoice);
      expect(result).toEqual({ filename: expect.stringMatching(/^download(\.pdf)?$/), path: saved[0] });
      expect((await readFile(present(saved[0], "the saved download"))).subarray(0, 5).toString()).toBe("%PDF-");
    } finally {
      await run.finish();
    }
    const managed = await host.newRun({ deliver: async () => ({ url: "http://127.0.0.1:1/downloads/t" }) });
    try {
      await managed.builtins.goto("https://admin.atlassian.com/billing");
      expect(await managed.builtins.download(invoice, { filename: "a.pdf" })).toEqual({ filename: "a.pdf", url: "http://127.0.0.1:1/downloads/t" });
    } finally {
      await managed.finish();
    }
  });

  test("an address that answers with a page is no download; the simulated page's argument errors stand", async () => {
    const run = await host.newRun();
    try {
      await run.builtins.goto("https://admin.atlassian.com/billing");
      await expect(run.builtins.download("https://nowhere.example/file.pdf", { encoding: "base64" })).rejects.toThrow(
        "download: https://nowhere.example/file.pdf answered with a page, not a file",
      );
      await expect(run.builtins.download("not a url")).rejects.toThrow('download: "not a url" is not an absolute URL');
      await expect(run.builtins.download(invoice, { filename: " " })).rejects.toThrow("download: filename must be a non-empty string");
      await expect(run.builtins.download(invoice, { encoding: "hex" as "base64" })).rejects.toThrow('download: encoding can only be "base64"');
      await run.builtins.goto("https://admin.atlassian.com/billing");
      await expect(run.builtins.download(invoice)).rejects.toThrow("download: this browser has nowhere to save files");
    } finally {
      await run.finish();
    }
  });
});
