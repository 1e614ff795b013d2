// The testing API: the sandbox in the test's own process, on a free loopback port, for a user's
// vitest or jest suite (`startSandbox()`), or its MSW handlers for a suite that mocks fetch with
// MSW (`sandboxHandlers(store)`). `runs()` says what the code under test sent; `next()` makes the
// next runs answer as the real service sometimes does, so the code's handling of it can be tested.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { RequestHandler } from "msw";
import { createHandlers } from "../api/routing.js";
import { startHttpServer } from "../http/http.js";
import type { ReceivedFile } from "../store/records.js";
import { warmScriptRunner } from "../runtime/script-runner.js";
import { setBrowserHost } from "../runtime/sessions.js";
import { clearShapes, type RunShape, shapeNextRuns } from "../api/run/shapes.js";
import { SEED_IDS } from "../store/seed.js";
import { SERVICE_FOLDER } from "../contract/service-rules.js";
import { createStore, type SandboxStore } from "../store/store.js";
import { seedUserScripts } from "../store/user-scripts.js";
import { checkSites, serveSites } from "../runtime/browser/web/sites.js";

export type { RunShape } from "../api/run/shapes.js";

export interface StartSandboxOptions {
  /** Port on 127.0.0.1; default 0, a free one. */
  port?: number;
  /** What scripts run against: the simulated page (default, needs no browser) or a headless Chromium (optional packages). */
  browser?: "simulated" | "real";
  /** The desktop folder (named files are read from `<desktop>/reduck/`); default a new temporary one, removed at close(). */
  desktop?: string;
  /**
   * A folder of scripts as `reduck scripts pull` writes it, `<handle>/<host>/<slug>/` with
   * `script.js` or `script.ts` and `contract.json`, seeded into the catalogue (as `--scripts DIR`).
   * A `@user` folder's scripts become the demo account's, which then answers to that handle.
   */
  scripts?: string;
  /**
   * Folders of saved pages served as hosts of the simulated web, `{ "shop.example": "./saved/shop" }`:
   * `https://shop.example/` is the folder's index.html, to both browsers (as `--site HOST=DIR`).
   */
  sites?: Record<string, string>;
  /** How long a script body may take, in seconds (default 300). */
  runTimeoutSeconds?: number;
  /** The demo key (`rk_...`); default a new one. */
  apiKey?: string;
}

/** One run the sandbox received, for assertions. */
export interface ReceivedRun {
  runId: string;
  /** `handle/host/slug`, e.g. `reduck/mail.google.com/send_email` or `@demo/example.org/get_total`. */
  script: string;
  args: Record<string, unknown>;
  /** Each file as it arrived: its input, name, size in bytes, media type, hex SHA-256, and how it came (bytes, named, inline). */
  files: Array<Pick<ReceivedFile, "input" | "name" | "size" | "type" | "sha256" | "via">>;
  status: "running" | "success" | "error";
  startedAt: string;
}

export interface RunningSandbox {
  /** e.g. `http://127.0.0.1:43121`: give it to the client as its base URL (REDUCK_API_URL). */
  url: string;
  /** The demo account's key (REDUCK_API_KEY). */
  apiKey: string;
  /** The desktop folder; put files in `<desktop>/reduck/` to name them by relativePath (REDUCK_DESKTOP). */
  desktop: string;
  /** The store behind it (accounts, scripts, runs), for assertions beyond runs(). */
  store: SandboxStore;
  /** Every run received since start, oldest first. */
  runs(): ReceivedRun[];
  /** Makes the next `times` runs (default 1) answer as `shape` says; see RunShape. */
  next(shape: RunShape, times?: number): void;
  /** Stops serving, drops what next() queued, and removes the temporary desktop. */
  close(): Promise<void>;
}

/** The runs a store held before it served anything (its seeded history), per store. */
const before = new WeakMap<SandboxStore, Set<string>>();

function remember(store: SandboxStore): void {
  if (!before.has(store)) before.set(store, new Set(store.runs.keys()));
}

/**
 * The runs a store received through POST /run (not its seeded history), oldest first: for MSW
 * users, who hold the store themselves.
 *
 * @example
 * const store = createStore({ browser: "simulated" });
 * server.use(...sandboxHandlers(store));
 * // ... the code under test runs a script ...
 * expect(receivedRuns(store)[0]!.files[0]!.sha256).toBe(expectedSha256);
 */
export function receivedRuns(store: SandboxStore): ReceivedRun[] {
  const seeded = before.get(store) ?? new Set(Object.values(SEED_IDS.runs));
  return [...store.runs.values()]
    .filter((run) => !seeded.has(run.id))
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt))
    .map((run) => ({
      runId: run.id,
      script: run.script ? `${run.script.handle}/${run.script.host}/${run.script.slug}` : run.name,
      args: run.args,
      files: run.files.map(({ input, name, size, type, sha256, via }) => ({ input, name, size, type, sha256, via })),
      status: run.status as ReceivedRun["status"],
      startedAt: run.startedAt,
    }));
}

/**
 * The sandbox's MSW handlers over `store`, for `setupServer(...sandboxHandlers(store))`: the same
 * answers as startSandbox() without a port. Shape the next runs with `nextRuns(store, shape)`.
 *
 * @example
 * import { setupServer } from "msw/node";
 * const store = createStore({ browser: "simulated" });
 * const server = setupServer(...sandboxHandlers(store));
 * server.listen();
 */
export function sandboxHandlers(store: SandboxStore): RequestHandler[] {
  remember(store);
  return createHandlers(store);
}

/**
 * next() for MSW users: makes the next `times` runs of `store` answer as `shape` says.
 *
 * @example
 * nextRuns(store, { failed: { errorType: "site_error", externalMessage: "The site is down." } });
 */
export function nextRuns(store: SandboxStore, shape: RunShape, times = 1): void {
  shapeNextRuns(store, shape, times);
}

/**
 * Starts the sandbox in this process on a free loopback port.
 *
 * @example
 * import { startSandbox } from "@reduck-client/sandbox";
 * const sandbox = await startSandbox();
 * const client = createReduckClient({ apiKey: sandbox.apiKey, baseUrl: sandbox.url });
 * // ... run a script with a file ...
 * expect(sandbox.runs()[0]!.files[0]!.sha256).toBe(sha256OfMyFile);
 * sandbox.next({ held: 3 }); // the next run outlives waitForSeconds: 202, then poll
 * await sandbox.close();
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  // Checked before anything starts: a missing folder or a bad script folder throws, naming it.
  const sites = checkSites(options.sites ?? {});
  const ownDesktop = options.desktop === undefined;
  const desktop = path.resolve(options.desktop ?? mkdtempSync(path.join(os.tmpdir(), "reduck-sandbox-desktop-")));
  mkdirSync(path.join(desktop, SERVICE_FOLDER), { recursive: true });
  const browserHost = options.browser === "real" ? await realBrowserHost() : undefined;
  const store = createStore({
    apiKey: options.apiKey,
    desktopDir: desktop,
    browser: options.browser ?? "simulated",
    runTimeoutMs: options.runTimeoutSeconds === undefined ? undefined : options.runTimeoutSeconds * 1000,
  });
  if (browserHost) setBrowserHost(store, browserHost);
  let server: Awaited<ReturnType<typeof startHttpServer>>;
  let stopSites = () => {};
  try {
    if (options.scripts) seedUserScripts(store, path.resolve(options.scripts));
    stopSites = serveSites(sites);
    server = await startHttpServer({ handlers: sandboxHandlers(store), port: options.port ?? 0, host: "127.0.0.1" });
  } catch (error) {
    stopSites();
    await browserHost?.close();
    if (ownDesktop) rmSync(desktop, { recursive: true, force: true });
    throw error;
  }
  warmScriptRunner();
  if (process.platform !== "linux") {
    // As the command says at start: the data limit and the resident-memory watch are Linux's.
    process.emitWarning(`@reduck-client/sandbox: on ${process.platform} a run's memory is not bounded beyond its JavaScript heap`);
  }
  return {
    url: server.url,
    apiKey: store.demo.apiKey,
    desktop,
    store,
    runs: () => receivedRuns(store),
    next: (shape, times) => shapeNextRuns(store, shape, times),
    async close() {
      clearShapes(store);
      await server.close();
      stopSites();
      await browserHost?.close();
      if (ownDesktop) rmSync(desktop, { recursive: true, force: true });
    },
  };
}

async function realBrowserHost() {
  const { missingBrowserLine, missingBrowserPackages } = await import("../runtime/browser/chromium.js");
  const missing = missingBrowserPackages();
  if (missing.length) throw new Error(missingBrowserLine(missing));
  const { BrowserHost } = await import("../runtime/browser/index.js");
  return new BrowserHost();
}
