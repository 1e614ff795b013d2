/**
 * A real Chromium (the sandbox's) that opens pages from disk, as a person double-clicking an HTML
 * file does, and records everything the page asked for and complained about: every request
 * (Playwright's own record, and a route that refuses anything but the page's own file), every
 * console message and page error. For the run's page and the batch's report.
 */
import { pathToFileURL } from "node:url";
import { chromiumExecutable, chromiumSandboxWanted, loadPlaywright } from "@reduck-client/sandbox/internal";
import type { Browser, Page } from "playwright-core";

export interface OpenedPage {
  page: Page;
  /** Every request the page made, its own file included (a data: image is no request). */
  requests: string[];
  /** Console messages of type error or warning, and uncaught page errors. */
  problems: string[];
  /** How long `goto` took, to the load event. */
  loadMs: number;
}

/**
 * A Chromium for a test file; `open(file)` opens a page from disk in a new context.
 *
 * @example
 * const browser = await pageBrowser();
 * const { page, requests } = await browser.open("/tmp/run.html");
 */
export async function pageBrowser(): Promise<{ open(file: string): Promise<OpenedPage>; close(): Promise<void>; browser: Browser }> {
  const { chromium } = await loadPlaywright();
  // No proxy to reach, on purpose: anything that tried to leave would fail (and be recorded first).
  const browser = await chromium.launch({
    executablePath: await chromiumExecutable(),
    chromiumSandbox: chromiumSandboxWanted(),
    args: ["--disable-gpu", "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>"],
  });
  return {
    browser,
    async open(file: string) {
      const url = pathToFileURL(file).href;
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const requests: string[] = [];
      const problems: string[] = [];
      page.on("request", (request) => requests.push(request.url()));
      page.on("console", (message) => {
        if (message.type() === "error" || message.type() === "warning") problems.push(`${message.type()}: ${message.text()}`);
      });
      page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
      await context.route("**/*", (route) => (route.request().url() === url ? route.continue() : route.abort()));
      const started = performance.now();
      await page.goto(url, { waitUntil: "load", timeout: 60_000 });
      return { page, requests, problems, loadMs: performance.now() - started };
    },
    close: () => browser.close(),
  };
}
