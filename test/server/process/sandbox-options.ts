// Command-line options of `npm run sandbox`. Each option is one entry in OPTIONS (how it is spelled)
// and one line in parseSandboxArgs (how its value is checked).
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { SandboxBrowser } from "../store/store.js";

export interface SandboxOptions {
  /** 0 = any free port. */
  port: number;
  /**
   * `--desktop DIR`: the simulated desktop, an existing folder (POST /run reads named files from
   * `DIR/reduck/`). Absent: the sandbox picks one (see resolveDesktop in sandbox.ts).
   */
  desktop?: string;
  /** `--file-access on|off`: "Allow access to file URLs" of the demo's paired browser. Absent: on. */
  fileAccess?: boolean;
  /** `--run-timeout SECONDS`: how long one script may run before its run fails. Absent: 300 s. */
  runTimeoutSeconds?: number;
  /** `--oauth-issuer URL`: an authorization server whose JWT access tokens the sandbox accepts. */
  oauthIssuer?: string;
  /** `--browser real|simulated`: what scripts run against. Absent: real. */
  browser?: SandboxBrowser;
  /**
   * `--devices N`: how many paired extension browsers the demo account has (0 or 2+ make
   * `browser: "extension"` a refusal). Absent: 1.
   */
  devices?: number;
  /**
   * `--write-env PATH`: also write the two lines as `export NAME='value'` to PATH (mode 0600, it
   * holds the key), for `source PATH` in another terminal. (Not `--env-file`: Node 20 takes that
   * word as its own option wherever it appears on the command line, even after the script.)
   */
  envFile?: string;
  /** `--run-memory MiB`: one run's memory (heap and ArrayBuffers together). Absent: 128. */
  runMemoryMiB?: number;
  /**
   * `--apps on|off`: whether the demo account has hosted apps (the `flock_apps` early-access
   * feature). off: every app operation answers it 403 with the service's early-access words. Absent: on.
   */
  apps?: boolean;
  /** `--sealing-key on|off`: off leaves the sandbox without a key to seal apps' secrets (writing one: 503). Absent: on. */
  sealingKey?: boolean;
  /** `--upload-expiry SECONDS`: how long a release's presigned upload URLs stay usable. Absent: 900. */
  uploadExpirySeconds?: number;
  /** `--scripts DIR`: a folder of scripts as `reduck scripts pull` writes it (`DIR/<handle>/<host>/<slug>/`). */
  scriptsDir?: string;
  /** `--site HOST=DIR` (repeatable): folders of saved pages served as `https://HOST/...` by the simulated web. */
  sites?: Record<string, string>;
  /** `--help`: print the options and exit. */
  help?: boolean;
}

export const DEFAULT_PORT = 4010;

const OPTIONS = {
  port: { type: "string" },
  desktop: { type: "string" },
  "file-access": { type: "string" },
  "run-timeout": { type: "string" },
  "oauth-issuer": { type: "string" },
  browser: { type: "string" },
  devices: { type: "string" },
  "write-env": { type: "string" },
  "run-memory": { type: "string" },
  apps: { type: "string" },
  "sealing-key": { type: "string" },
  "upload-expiry": { type: "string" },
  scripts: { type: "string" },
  site: { type: "string", multiple: true },
  help: { type: "boolean", short: "h" },
} as const;

const USAGE =
  "Usage: reduck-sandbox [--port N] [--write-env FILE] [--browser simulated|real] [--scripts DIR] [--site HOST=DIR] [--desktop DIR] [--run-timeout SECONDS] [--run-memory MiB] [--file-access on|off] [--devices N] [--oauth-issuer URL] [--apps on|off] [--sealing-key on|off] [--upload-expiry SECONDS] (--help lists them)";

/** What `--help` prints: every option, what it does, its default. */
export const HELP = `reduck-sandbox: a Reduck service on your own machine (the catalogue API and POST /run, with a
simulated or a real headless browser), for trying the reduck CLI and testing your own code
offline. Prints REDUCK_API_URL and REDUCK_API_KEY on stdout, then serves until Ctrl-C, SIGTERM
or the end of the process that started it, and stops with everything it started (its Chromium too).

Usage: reduck-sandbox [options]        (in this repository: npm run sandbox -- [options])

Options:
  --port N                 port to listen on, on 127.0.0.1 (default 4010; 0 picks a free one)
  --write-env FILE         also write REDUCK_API_URL, REDUCK_API_KEY and REDUCK_DESKTOP to FILE as
                           export lines (mode 0600), for \`source FILE\` in another terminal
  --browser simulated|real what scripts run against: the simulated page (fast, needs no browser) or
                           a headless Chromium (default real; needs the optional packages
                           @sparticuz/chromium and playwright-core)
  --scripts DIR            seed your own scripts from the folder \`reduck scripts pull\` writes:
                           DIR/<handle>/<host>/<slug>/ with script.js or script.ts and contract.json;
                           a @user folder's scripts become the demo account's, which then answers to
                           that handle
  --site HOST=DIR          serve a folder of saved pages (index.html and its files) as https://HOST/
                           to the sandbox's browser, real or simulated; repeat for more hosts
  --desktop DIR            the desktop folder; files named by relativePath are read from DIR/reduck
                           (default ~/Desktop, else a temporary folder removed at exit)
  --run-timeout SECONDS    how long a script body may take, in wall-clock and in CPU time (default 300)
  --run-memory MiB         one run's memory, 32 to 4096 (default 128; bounded whole on Linux only)
  --file-access on|off     "Allow access to file URLs" of the demo's paired browser (default on)
  --devices N              paired browsers of the demo account, 0 to 10 (default 1)
  --oauth-issuer URL       also accept JWT access tokens from this authorization server
  --apps on|off            whether the demo account has hosted apps (default on; off: app calls answer 403)
  --sealing-key on|off     off leaves the sandbox without a key to seal apps' secrets (default on)
  --upload-expiry SECONDS  how long a release's presigned upload URLs stay usable (default 900)
  -h, --help               print this and exit

Environment:
  REDUCK_SANDBOX_API_KEY   the demo key to use (rk_...), the same across restarts (default: new each start)
  REDUCK_SANDBOX_CHROMIUM  a Chromium binary for --browser real

Examples:
  reduck-sandbox --browser simulated --write-env .sandbox.env
  reduck-sandbox --port 0 --scripts ./scripts --site shop.example=./saved/shop.example
`;

/** A bad command line: the message is meant for the user, one line, saying what to do instead. */
export class UsageError extends Error {
  override name = "UsageError";
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_PORT;
  // 0 asks the system for a free port (tests use it); the address printed says which one.
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    throw new UsageError(`--port must be a whole number from 0 to 65535 (got "${raw}")`);
  }
  return Number(raw);
}

/**
 * A flag's folder, which must exist: `needs` is the line for an empty value, `what` says what the
 * flag wants in the line for a file.
 */
function existingFolder(flag: string, raw: string, needs: string, what: string): string {
  if (!raw.trim()) throw new UsageError(`${flag} needs ${needs}`);
  let isFolder = false;
  try {
    isFolder = statSync(raw).isDirectory();
  } catch {
    throw new UsageError(`${flag} must be an existing folder: "${raw}" does not exist`);
  }
  if (!isFolder) throw new UsageError(`${flag} must be ${what}: "${raw}" is not a folder`);
  return raw;
}

function parseDesktop(raw: string | undefined): string | undefined {
  return raw === undefined ? undefined : existingFolder("--desktop", raw, "a folder, e.g. --desktop ~/Desktop", "an existing folder");
}

function parseIssuer(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--oauth-issuer must be the authorization server's URL, e.g. http://127.0.0.1:4020 (got "${raw}")`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`--oauth-issuer must be an http(s) URL (got "${raw}")`);
  return raw;
}

function parseOnOff(option: string, raw: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined;
  const value = raw.trim().toLowerCase();
  if (value === "on") return true;
  if (value === "off") return false;
  throw new UsageError(`--${option} must be on or off (got "${raw}")`);
}

function parseUploadExpiry(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1 || Number(raw) > 7 * 24 * 3600) {
    throw new UsageError(`--upload-expiry must be a whole number of seconds from 1 to 604800, e.g. --upload-expiry 60 (got "${raw}")`);
  }
  return Number(raw);
}

function parseRunTimeout(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || !(seconds > 0)) {
    throw new UsageError(`--run-timeout must be a number of seconds above 0, e.g. --run-timeout 60 (got "${raw}")`);
  }
  return seconds;
}

function parseBrowser(raw: string | undefined): SandboxBrowser | undefined {
  if (raw === undefined) return undefined;
  const value = raw.trim().toLowerCase();
  if (value === "real" || value === "simulated") return value;
  throw new UsageError(`--browser must be real (a headless Chromium) or simulated (the fast simulated page) (got "${raw}")`);
}

function parseDevices(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) > 10) {
    throw new UsageError(`--devices must be a whole number of paired browsers from 0 to 10, e.g. --devices 2 (got "${raw}")`);
  }
  return Number(raw);
}

function parseEnvFile(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!raw.trim()) throw new UsageError("--write-env needs a file to write, e.g. --write-env .sandbox.env");
  let folder: boolean;
  try {
    folder = statSync(path.dirname(path.resolve(raw))).isDirectory();
  } catch {
    folder = false;
  }
  if (!folder) throw new UsageError(`--write-env: the folder of "${raw}" does not exist`);
  if (existsSync(raw) && statSync(raw).isDirectory()) throw new UsageError(`--write-env must name a file, and "${raw}" is a folder`);
  return raw;
}

function parseScriptsDir(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  return path.resolve(existingFolder("--scripts", raw, "a folder of scripts, e.g. --scripts ./scripts", "a folder (of <handle>/<host>/<slug>/ folders)"));
}

/** `--site HOST=DIR`, each given once per host; the folders are checked when the sandbox starts them. */
function parseSites(raw: string[] | undefined): Record<string, string> | undefined {
  if (raw === undefined) return undefined;
  const sites: Record<string, string> = {};
  for (const given of raw) {
    const equals = given.indexOf("=");
    const host = given.slice(0, Math.max(equals, 0)).trim().toLowerCase();
    const dir = given.slice(equals + 1);
    if (equals < 1 || !dir.trim()) throw new UsageError(`--site needs HOST=DIR, e.g. --site shop.example=./saved/shop.example (got "${given}")`);
    if (host in sites) throw new UsageError(`--site ${host} is given twice: one folder per host`);
    sites[host] = path.resolve(dir);
  }
  return sites;
}

function parseRunMemory(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 32 || Number(raw) > 4096) {
    throw new UsageError(`--run-memory must be a whole number of MiB from 32 to 4096, e.g. --run-memory 256 (got "${raw}")`);
  }
  return Number(raw);
}

/**
 * @example
 * parseSandboxArgs(["--port", "4011"]);                         // { port: 4011 }
 * parseSandboxArgs([]);                                         // { port: 4010 }
 * parseSandboxArgs(["--desktop", "/tmp/d", "--file-access", "off"]); // { port: 4010, desktop: "/tmp/d", fileAccess: false }
 * parseSandboxArgs(["--run-timeout", "60"]);                    // { port: 4010, runTimeoutSeconds: 60 }
 * parseSandboxArgs(["--browser", "simulated"]);                 // { port: 4010, browser: "simulated" }
 * parseSandboxArgs(["--devices", "0"]);                         // { port: 4010, devices: 0 }
 * parseSandboxArgs(["--write-env", ".sandbox.env"]);             // { port: 4010, envFile: ".sandbox.env" }
 * parseSandboxArgs(["--apps", "off", "--upload-expiry", "5"]);   // { port: 4010, apps: false, uploadExpirySeconds: 5 }
 */
export function parseSandboxArgs(argv: string[]): SandboxOptions {
  let values: {
    port?: string;
    desktop?: string;
    "file-access"?: string;
    "run-timeout"?: string;
    "oauth-issuer"?: string;
    browser?: string;
    devices?: string;
    "write-env"?: string;
    "run-memory"?: string;
    apps?: string;
    "sealing-key"?: string;
    "upload-expiry"?: string;
    scripts?: string;
    site?: string[];
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}. ${USAGE}`);
  }
  if (values.help) return { port: DEFAULT_PORT, help: true };
  const options: SandboxOptions = { port: parsePort(values.port) };
  const scriptsDir = parseScriptsDir(values.scripts);
  if (scriptsDir !== undefined) options.scriptsDir = scriptsDir;
  const sites = parseSites(values.site);
  if (sites !== undefined) options.sites = sites;
  const desktop = parseDesktop(values.desktop);
  if (desktop !== undefined) options.desktop = desktop;
  const fileAccess = parseOnOff("file-access", values["file-access"]);
  if (fileAccess !== undefined) options.fileAccess = fileAccess;
  const runTimeout = parseRunTimeout(values["run-timeout"]);
  if (runTimeout !== undefined) options.runTimeoutSeconds = runTimeout;
  const oauthIssuer = parseIssuer(values["oauth-issuer"]);
  if (oauthIssuer !== undefined) options.oauthIssuer = oauthIssuer;
  const browser = parseBrowser(values.browser);
  if (browser !== undefined) options.browser = browser;
  const devices = parseDevices(values.devices);
  if (devices !== undefined) options.devices = devices;
  const envFile = parseEnvFile(values["write-env"]);
  if (envFile !== undefined) options.envFile = envFile;
  const runMemory = parseRunMemory(values["run-memory"]);
  if (runMemory !== undefined) options.runMemoryMiB = runMemory;
  const apps = parseOnOff("apps", values.apps);
  if (apps !== undefined) options.apps = apps;
  const sealingKey = parseOnOff("sealing-key", values["sealing-key"]);
  if (sealingKey !== undefined) options.sealingKey = sealingKey;
  const uploadExpiry = parseUploadExpiry(values["upload-expiry"]);
  if (uploadExpiry !== undefined) options.uploadExpirySeconds = uploadExpiry;
  return options;
}
