// `reduck-sandbox [options]` (`npm run sandbox -- [options]` in the repository; `--help` lists
// them, see sandbox-options.ts): the sandbox over real HTTP with a fresh
// seeded store (POST /run included, on the same port), for trying the CLI by hand and for
// end-to-end tests. Prints exactly two lines on stdout (the address and the demo key, ready for
// `export`; with --write-env also written to that file as `export` lines, for `source`, with
// REDUCK_DESKTOP, the desktop folder, which `reduck mcp` and the library read named files from), says on stderr which desktop folder named files come from, how long a run may take and
// what scripts run in, launches the browser, then serves until SIGINT/SIGTERM.
import { chmodSync, existsSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SERVICE_FOLDER } from "../contract/service-rules.js";
import { trustAuthorizationServer } from "../api/auth.js";
import { BrowserHost } from "../runtime/browser/index.js";
import { createHandlers } from "../api/routing.js";
import { warmScriptRunner } from "../runtime/script-runner.js";
import { setBrowserHost } from "../runtime/sessions.js";
import { DEFAULT_RUN_MEMORY_MIB, setRunMemory } from "../runtime/script-processes.js";
import { type RunningHttpServer, startHttpServer } from "../http/http.js";
import { isTemporaryDesktop, makeTemporaryDesktop, TEMPORARY_DESKTOP_NOTE } from "./temporary-desktop.js";
import { HELP, parseSandboxArgs, type SandboxOptions, UsageError } from "./sandbox-options.js";
import { seedUserScripts } from "../store/user-scripts.js";
import { checkSites, serveSites } from "../runtime/browser/web/sites.js";
import { missingBrowserLine, missingBrowserPackages } from "../runtime/browser/chromium.js";
import { createStore } from "../store/store.js";
import { killDescendants, whenParentEnds } from "./process-tree.js";

/** How long a stop waits for the server and the browser to close by themselves. */
const CLOSE_MS = 2_000;

/** `--desktop`, else ~/Desktop when it exists, else a fresh temporary folder (with its reduck folder made), removed at exit. */
function resolveDesktop(given: string | undefined): string {
  if (given) return path.resolve(given);
  const home = path.join(os.homedir(), "Desktop");
  if (existsSync(home) && statSync(home).isDirectory()) return home;
  return makeTemporaryDesktop(SERVICE_FOLDER); // removed when the sandbox stops, unless files were put in it
}

/** What `browser: "extension"` will do with the demo's paired browsers (`--devices N`). */
function pairedBrowsers(count: number): string {
  if (count === 1) return "one paired browser";
  return `${count === 0 ? "no" : count} paired browsers (browser: "extension" is refused; --devices 1 for one)`;
}

/** Single quotes keep every character as it is for the shell (a `'` is closed, escaped and reopened). */
function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The variables as `export NAME='value'` lines, readable only by their owner (the key is a secret). */
function writeEnvFile(file: string, variables: Record<string, string>): void {
  const text = Object.entries(variables)
    .map(([name, value]) => `export ${name}=${shellQuote(value)}\n`)
    .join("");
  writeFileSync(file, text, { mode: 0o600 });
  chmodSync(file, 0o600); // an existing file keeps its mode on write
}

async function main(): Promise<void> {
  let options: SandboxOptions;
  try {
    options = parseSandboxArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`sandbox: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }

  if (options.help) {
    process.stdout.write(HELP);
    return;
  }
  // The real browser comes from optional packages: without them, the simulated page (when no
  // browser was asked for), or one line that says what to install.
  const missing = options.browser === "simulated" ? [] : missingBrowserPackages();
  if (missing.length && options.browser === "real") {
    process.stderr.write(`sandbox: ${missingBrowserLine(missing)}\n`);
    process.exit(1);
  }
  if (missing.length) process.stderr.write(`sandbox: scripts run against the simulated page: ${missingBrowserLine(missing)}\n`);
  const desktop = resolveDesktop(options.desktop);
  const browser = options.browser ?? (missing.length ? "simulated" : "real");
  // One warm browser for the sandbox's whole life; a context per run.
  const browserHost = browser === "real" ? new BrowserHost() : undefined;
  const store = createStore({
    apiKey: process.env.REDUCK_SANDBOX_API_KEY || undefined,
    desktopDir: desktop,
    runTimeoutMs: options.runTimeoutSeconds === undefined ? undefined : options.runTimeoutSeconds * 1000,
    browser,
    sealingKey: options.sealingKey === false ? null : undefined,
    uploadExpirySeconds: options.uploadExpirySeconds,
  });
  if (browserHost) setBrowserHost(store, browserHost);
  store.setDemoFileAccess(options.fileAccess ?? true);
  if (options.apps === false) store.setDemoApps(false);
  // Both checked before anything is served: a bad folder is one line and exit 2.
  let sites: Array<[string, string]> = [];
  try {
    sites = checkSites(options.sites ?? {});
  } catch (error) {
    process.stderr.write(`sandbox: --site: ${(error as Error).message}\n`);
    process.exit(2);
  }
  if (options.scriptsDir) {
    try {
      const seeded = seedUserScripts(store, options.scriptsDir);
      process.stderr.write(
        `sandbox: seeded ${seeded.length} script${seeded.length === 1 ? "" : "s"} of yours from ${options.scriptsDir}: ${seeded.join(", ") || "(none found: <handle>/<host>/<slug>/ with script.js or script.ts and contract.json)"}` +
          `${store.demo.handle === "@demo" ? "" : `; the demo account answers to ${store.demo.handle}`}\n`,
      );
    } catch (error) {
      process.stderr.write(`sandbox: --scripts: ${(error as Error).message}\n`);
      process.exit(2);
    }
  }
  serveSites(sites);
  for (const [host, dir] of sites) process.stderr.write(`sandbox: https://${host}/ serves the saved pages of ${dir}\n`);
  if (options.devices !== undefined) store.setDemoDevices(options.devices);
  if (options.oauthIssuer) {
    try {
      await trustAuthorizationServer(store, options.oauthIssuer);
    } catch (error) {
      process.stderr.write(`sandbox: cannot trust ${options.oauthIssuer}: ${(error as Error).message}\n`);
      process.exit(1);
    }
  }
  let server: RunningHttpServer;
  try {
    server = await startHttpServer({ handlers: createHandlers(store), port: options.port, host: "127.0.0.1" });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "EADDRINUSE"
        ? `port ${options.port} is already in use: stop what holds it or pick another with --port N`
        : code === "EACCES"
          ? `not allowed to listen on port ${options.port}: pick a port above 1023 with --port N`
          : (error as Error).message;
    process.stderr.write(`sandbox: ${reason}\n`);
    process.exit(1);
  }

  // Before the first line a parent may wait for: a signal sent as soon as it reads one must find
  // these handlers, not Node's default (which would end the process without closing anything).
  // A close that has not ended within CLOSE_MS is cut short: whatever this process started (script
  // processes, Chromium in its own process group) is ended with it, so a stop takes under 5 s.
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    const late = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_MS).unref());
    Promise.race([Promise.all([server.close(), browserHost?.close()]), late]).then(
      () => {
        killDescendants();
        process.exit(0);
      },
      (error: unknown) => {
        process.stderr.write(`sandbox: error while closing: ${(error as Error).message}\n`);
        killDescendants();
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
  process.on("SIGHUP", shutdown);
  // `npm run sandbox` and `npx reduck-sandbox` end on SIGTERM without passing it on (npm → sh → node).
  whenParentEnds(shutdown);

  if (options.runMemoryMiB !== undefined) setRunMemory(options.runMemoryMiB);
  if (process.platform !== "linux") {
    // The resident-memory watch and the data limit read and set /proc and RLIMIT_DATA (Linux only).
    process.stderr.write(
      `sandbox: on ${process.platform} a run's memory is NOT bounded: only its JavaScript heap is held to ${options.runMemoryMiB ?? DEFAULT_RUN_MEMORY_MIB} MiB; ` +
        "a script that allocates ArrayBuffers can take all of this machine's memory (on Linux the whole run is held to it)\n",
    );
  }
  warmScriptRunner();
  const variables = { REDUCK_API_URL: server.url, REDUCK_API_KEY: store.demo.apiKey };
  process.stdout.write(
    Object.entries(variables)
      .map(([name, value]) => `${name}=${value}\n`)
      .join(""),
  );
  if (options.envFile) {
    try {
      // The desktop too: `reduck mcp` and the library read named files from REDUCK_DESKTOP's reduck
      // folder (else ~/Desktop/reduck), which must be the one this sandbox reads them from.
      writeEnvFile(options.envFile, { ...variables, REDUCK_DESKTOP: desktop });
    } catch (error) {
      process.stderr.write(`sandbox: cannot write --write-env ${options.envFile}: ${(error as Error).message}\n`);
      await server.close();
      process.exit(1);
    }
    process.stderr.write(
      `sandbox: wrote both to ${options.envFile}, with REDUCK_DESKTOP (the desktop folder named files come from, for \`reduck mcp\`): in another terminal, \`source ${options.envFile}\` sets them there\n`,
    );
  } else {
    process.stderr.write(
      `sandbox: to use it from another terminal, export those two lines there (or start with --write-env PATH and \`source PATH\`); for \`reduck mcp\`'s named files, also export REDUCK_DESKTOP=${desktop}\n`,
    );
  }
  if (!process.env.REDUCK_SANDBOX_API_KEY) {
    process.stderr.write("sandbox: the key is new at every start; set REDUCK_SANDBOX_API_KEY=rk_<anything> to keep the same one across restarts\n");
  }
  const folder = path.join(desktop, SERVICE_FOLDER);
  process.stderr.write(
    `sandbox: desktop folder ${desktop}${isTemporaryDesktop(desktop) ? TEMPORARY_DESKTOP_NOTE : ""}: files named by relativePath are read from ${folder}` +
      `${existsSync(folder) ? "" : " (it does not exist yet)"}; file access ${options.fileAccess === false ? "off" : "on"}; ` +
      `a run may take ${store.runTimeoutMs / 1000} s (POST /run holds the request up to waitForSeconds, default 60, then answers 202); ` +
      `${pairedBrowsers(store.devicesOf(store.demo.userId).length)}; ` +
      (browserHost
        ? "scripts run in a headless Chromium against the simulated web (--browser simulated: the simulated page)\n"
        : `scripts run against the simulated page, which renders nothing (${missing.length ? "with the optional packages above" : "without --browser simulated"}: a headless Chromium)\n`),
  );
  browserHost?.warm().catch((error: unknown) => {
    process.stderr.write(
      `sandbox: the browser could not start (${(error as Error).message.split("\n")[0]}): runs that use the page fail until it can; ` +
        "set REDUCK_SANDBOX_CHROMIUM to a Chromium binary, or use --browser simulated\n",
    );
  });
  process.stderr.write(
    `sandbox: hosted apps ${options.apps === false ? "off for the demo account (--apps off: 403, early access)" : "on"}; ` +
      `presigned uploads expire after ${store.uploadExpirySeconds} s; ${store.sealingKey ? "secrets are sealed" : "no sealing key (--sealing-key off: writing a secret answers 503)"}\n`,
  );
  if (options.oauthIssuer) {
    process.stderr.write(`sandbox: accepting JWT access tokens from ${options.oauthIssuer} for ${server.url} and ${server.url}/mcp\n`);
  }
}

void main();
