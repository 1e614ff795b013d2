// One warm Chromium for the whole sandbox, launched on first use, with one fresh browser context
// per run. A browser that crashed or was killed is noticed (Playwright's `disconnected`), and the
// next run launches a new one.
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Browser, BrowserContext, Page, Route, WebSocketRoute } from "playwright-core";
import { chromiumExecutable, chromiumSandboxWanted, launchArgs, loadPlaywright } from "./chromium.js";
import { processTable, treeRssBytes } from "./processes.js";
import { BrowserRun, within, type RunOptions } from "./run.js";
import { sharedHost, type SandboxBrowser, type Traffic } from "./shared.js";
import { startWall, type Wall } from "./wall.js";
import { answerWeb } from "./web/index.js";

export interface BrowserHostOptions {
  /** How long Chromium may take to start (default 30 s). */
  launchTimeoutMs?: number;
  /**
   * How long a running Chromium may take to open a context (default 10 s): one that does not is
   * hung, and is killed, so that the next run gets a new one.
   */
  answerTimeoutMs?: number;
}

interface Launched {
  browser: Browser;
  /** Marks this browser's command line, so its process can be found. */
  marker: string;
}

/** A context with its page, ready for a run. */
interface Opened {
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

/** Service workers would fetch past the routing: blocked, as Playwright advises for routed contexts. */
const CONTEXT_OPTIONS = { serviceWorkers: "block", acceptDownloads: true, locale: "en-US" } as const;

/** 127.0.0.0/8, ::1 and localhost: the machine itself, which the browser may reach directly. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127(?:\.\d{1,3}){3}$/.test(host);
}

export type { Traffic };

/**
 * The first wall: every request is answered by the simulated web, except to this machine, which
 * is refused (a script must not read another program's local pages, nor the sandbox's own API)
 * unless a test opened that port; what escapes the routing meets the second wall (chromium.ts).
 */
async function answerFromSimulatedWeb(route: Route, traffic: Traffic, openPorts: ReadonlySet<number>): Promise<void> {
  const url = new URL(route.request().url());
  try {
    if (isLoopback(url.hostname)) {
      if (!openPorts.has(Number(url.port || (url.protocol === "https:" ? 443 : 80)))) {
        traffic.refused += 1;
        return await route.abort("blockedbyclient");
      }
      traffic.loopback += 1;
      // Fetched from here: the browser itself sends loopback to the wall too.
      return await route.fulfill({ response: await route.fetch({ timeout: 0 }) });
    }
    traffic.simulated += 1;
    const { status, headers, body } = answerWeb(url);
    await route.fulfill({ status, headers, body: typeof body === "string" ? body : Buffer.from(body) });
  } catch {
    // The page or context closed while the answer was on its way: nobody is waiting for it.
  }
}

function answerWebSocket(socket: WebSocketRoute): void {
  const url = new URL(socket.url());
  socket.close({
    code: 1008,
    reason: isLoopback(url.hostname) ? "the sandbox's browser does not reach this machine" : "the sandbox's simulated web has no WebSocket server",
  });
}

/**
 * The sandbox's browser. `newRun()` gives each run its own context and page; `close()` ends it all.
 *
 * @example
 * const host = new BrowserHost();
 * const run = await host.newRun({ files: { attachment: { via: "bytes", bytes } } });
 * await run.builtins.goto("https://mail.google.com/mail/u/0/#inbox?compose=new");
 * const { steps, screenshots } = await run.finish();
 * await host.close();
 */
export class BrowserHost implements SandboxBrowser {
  private launching?: Promise<Launched>;
  private wall?: Promise<Wall>;
  private closed = false;
  private launched = 0;
  private contexts = 0;
  /** The next run's context, opened ahead of time (undefined inside: opening it failed). */
  private spare?: Promise<Opened | undefined>;
  /** Requests the browser made (HTTP, by the routing), by who answered them. */
  readonly traffic: Traffic = { simulated: 0, loopback: 0, refused: 0 };
  private readonly openPorts = new Set<number>();

  constructor(private readonly options: BrowserHostOptions = {}) {}

  /**
   * Lets pages reach this one port of 127.0.0.1 (a test's own server, to hold or signal a run);
   * every other local port stays refused.
   *
   * @example
   * sharedBrowserHost().allowLoopbackPort(local.address().port);
   */
  allowLoopbackPort(port: number): void {
    this.openPorts.add(port);
  }

  /** How many times Chromium was started (a crash makes the next run start another). */
  get launches(): number {
    return this.launched;
  }

  /** How many runs got a context (a run whose script never touches the page gets none). */
  get runs(): number {
    return this.contexts;
  }

  /** Launches the browser now, if none runs, and opens the first run's context, so that it does not wait. */
  async warm(): Promise<void> {
    await this.browser();
    this.prepare();
  }

  /**
   * A new run: its own browser context (cookies, storage, downloads) and one page. The context was
   * opened ahead of time when one waits (see prepare); a context serves one run only.
   */
  async newRun(options: RunOptions = {}): Promise<BrowserRun> {
    const waiting = this.spare;
    this.spare = undefined;
    let opened = await waiting;
    if (opened && (!opened.browser.isConnected() || opened.page.isClosed())) {
      await opened.context.close().catch(() => {});
      opened = undefined;
    }
    opened ??= await this.open();
    this.contexts += 1;
    return new BrowserRun(
      opened.context,
      opened.page,
      options,
      () => this.kill(),
      () => this.prepare(),
    );
  }

  /**
   * Opens the next run's context now, unless one waits already: called when a run has closed its
   * own (so the two never compete) and once the browser is warm. A failure here is met again, and
   * reported, by the run that opens its own.
   */
  private prepare(): void {
    if (this.closed || this.spare) return;
    this.spare = this.open().catch(() => undefined);
  }

  /** A context and page; a browser too hung to give them in time is killed (and this fails). */
  private async open(): Promise<Opened> {
    const limit = this.options.answerTimeoutMs ?? 10_000;
    // Launching has its own limit; the clock runs for a browser that is up.
    await this.browser();
    let abandoned = false;
    const opening = this.openNow(() => !abandoned);
    if (await within(limit, opening)) return opening;
    abandoned = true;
    opening
      .then(
        (opened) => opened.context.close(),
        () => undefined,
      )
      .catch(() => undefined);
    await this.kill();
    throw new Error(`the sandbox's browser did not answer within ${limit / 1000} s (it hung): it was stopped, and the next run gets a new one`);
  }

  private async openNow(mayRetry: () => boolean): Promise<Opened> {
    const { browser } = await this.browser();
    let context: BrowserContext;
    try {
      context = await browser.newContext(CONTEXT_OPTIONS);
    } catch (error) {
      // The browser died between launch and now: one more try, with a fresh one.
      if (browser.isConnected() || !mayRetry()) throw error;
      return this.openNow(() => false);
    }
    try {
      await context.route("**/*", (route) => answerFromSimulatedWeb(route, this.traffic, this.openPorts));
      await context.routeWebSocket(/.*/, answerWebSocket);
      return { browser, context, page: await context.newPage() };
    } catch (error) {
      await context.close().catch(() => {});
      throw error;
    }
  }

  /**
   * Requests that would have left the machine and were stopped at the second wall, oldest first:
   * the ones the routing did not answer. Empty means every request was answered by the simulated
   * web or by this machine. (Chromium fetches links with a `download` attribute past the routing:
   * those end here.)
   */
  async wallAttempts(): Promise<readonly string[]> {
    return (await this.wallStarted()).attempts;
  }

  /** The browser, launched now if there is none or the last one died (or failed to start). */
  private async browser(): Promise<Launched> {
    for (;;) {
      if (this.closed) throw new Error("the sandbox's browser is shut down");
      const pending = this.launching;
      if (!pending) break;
      const current = await pending.catch(() => undefined);
      if (current?.browser.isConnected()) return current;
      // Dead or never started: replace it, unless another run already did while we waited.
      if (this.launching === pending) this.launching = undefined;
    }
    this.launching = this.launch();
    return this.launching;
  }

  private wallStarted(): Promise<Wall> {
    this.wall ??= startWall();
    return this.wall;
  }

  private async launch(): Promise<Launched> {
    const [executablePath, wall] = await Promise.all([chromiumExecutable(), this.wallStarted()]);
    const marker = randomUUID();
    // Loaded here, not at the top: playwright-core is an optional dependency of the sandbox, and
    // the simulated browser (and the MSW handlers) must work without it.
    const { chromium } = await loadPlaywright();
    const browser = await chromium.launch({
      executablePath,
      args: launchArgs(wall, marker),
      timeout: this.options.launchTimeoutMs ?? 30_000,
      // Chromium's own sandbox whenever it can have it: it refuses to start with it as root.
      chromiumSandbox: chromiumSandboxWanted(),
    });
    this.launched += 1;
    return { browser, marker };
  }

  /** The browser's main process id, or null when none runs (or this is not Linux). */
  async browserPid(): Promise<number | null> {
    const current = this.launching && (await this.launching.catch(() => undefined));
    if (!current || !current.browser.isConnected()) return null;
    for (const { pid, ppid } of await processTable()) {
      if (ppid !== process.pid) continue;
      const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
      if (cmdline.includes(`--reduck-sandbox-browser=${current.marker}`)) return pid;
    }
    return null;
  }

  /** Resident memory of the browser's whole process tree, in bytes (0 when none runs; Linux only). */
  async rssBytes(): Promise<number> {
    const root = await this.browserPid();
    return root === null ? 0 : treeRssBytes(root);
  }

  /** Ends the browser process at once (a hung browser); the next run launches a new one. */
  async kill(): Promise<void> {
    this.spare = undefined;
    const pid = await this.browserPid();
    if (pid !== null) process.kill(pid, "SIGKILL");
    const current = this.launching;
    this.launching = undefined;
    await (await current?.catch(() => undefined))?.browser.close().catch(() => {});
  }

  /** Closes the browser and the wall. */
  async close(): Promise<void> {
    this.closed = true;
    this.spare = undefined;
    const launched = await this.launching?.catch(() => undefined);
    this.launching = undefined;
    await launched?.browser.close().catch(() => {});
    await (await this.wall)?.close();
  }
}

/**
 * The browser every store of this process uses unless given its own: one warm Chromium per
 * sandbox (or per test process), launched at the first run that touches a page.
 *
 * @example
 * const pid = await sharedBrowserHost().browserPid();
 */
export function sharedBrowserHost(): BrowserHost {
  return sharedHost(() => new BrowserHost());
}
