// The sandbox's Chromium: the binary @sparticuz/chromium ships inside its npm package (so
// `npm install` is all it takes), unpacked once per version, and the switches it starts with.
import { createReadStream, createWriteStream, existsSync, readFileSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { createBrotliDecompress } from "node:zlib";

const require = createRequire(import.meta.url);

/** The optional packages the real browser needs, at the versions known to work on Node 20. */
export const REAL_BROWSER_PACKAGES = ["@sparticuz/chromium@143.0.4", "playwright-core@1.57.0"];

/**
 * The optional packages of the real browser that are not installed (none with REDUCK_SANDBOX_CHROMIUM
 * but playwright-core): the sandbox then says so in one line, and the simulated browser still works.
 *
 * @example
 * missingBrowserPackages(); // [] when both are installed
 */
export function missingBrowserPackages(): string[] {
  const wanted = process.env.REDUCK_SANDBOX_CHROMIUM ? REAL_BROWSER_PACKAGES.filter((p) => p.startsWith("playwright-core")) : REAL_BROWSER_PACKAGES;
  return wanted.filter((spec) => {
    try {
      require.resolve(spec.slice(0, spec.lastIndexOf("@")));
      return false;
    } catch {
      return true;
    }
  });
}

/** The one line that says how to get the real browser. */
export function missingBrowserLine(missing: string[]): string {
  return `the real browser needs the optional package${missing.length > 1 ? "s" : ""} ${missing.join(" and ")}: npm install ${missing.join(" ")} (or use --browser simulated)`;
}

/** playwright-core, loaded on first launch (an optional dependency). */
export async function loadPlaywright(): Promise<typeof import("playwright-core")> {
  const missing = missingBrowserPackages();
  if (missing.length) throw new Error(missingBrowserLine(missing));
  return import("playwright-core");
}

/** Where @sparticuz/chromium keeps its brotli-packed binary, and its version. */
function packaged(): { brotli: string; version: string } {
  // The package exports only its code (build/cjs/index.cjs), so find its folder from there.
  const root = path.resolve(path.dirname(require.resolve("@sparticuz/chromium")), "..", "..");
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
  return { brotli: path.join(root, "bin", "chromium.br"), version };
}

let unpacking: Promise<string> | undefined;

/**
 * The path of the Chromium binary, unpacked on first use into a folder named after the package
 * version (about 5 s and 180 MB, once per install and version): `.built/chromium-<version>/` beside
 * this file, inside the sandbox's own folder (git-ignored, not packed), so that it goes when the
 * package goes and never lies in the machine's temporary folder. Where that folder cannot be
 * written (a read-only install), it goes to `<tmp>/reduck-chromium-<version>` instead. The package's own `executablePath()` unpacks
 * into a fixed `/tmp/chromium` and trusts whatever is there, even a half-written file from a
 * process unpacking beside it (parallel test files do): we write to a private name and rename,
 * so a binary at the final path is always whole.
 *
 * `REDUCK_SANDBOX_CHROMIUM` names another binary instead (the packaged one is Linux-only).
 *
 * @example
 * const executablePath = await chromiumExecutable(); // .../runtime/browser/.built/chromium-143.0.4/chromium
 */
export function chromiumExecutable(): Promise<string> {
  const chosen = process.env.REDUCK_SANDBOX_CHROMIUM;
  if (chosen) return Promise.resolve(chosen);
  unpacking ??= unpack().catch((error: unknown) => {
    unpacking = undefined;
    throw error;
  });
  return unpacking;
}

async function unpack(): Promise<string> {
  const { brotli, version } = packaged();
  if (process.platform !== "linux" || (process.arch !== "x64" && process.arch !== "arm64")) {
    throw new Error(
      `the sandbox's packaged Chromium runs on Linux only (this is ${process.platform}/${process.arch}): set REDUCK_SANDBOX_CHROMIUM to a Chromium or Chrome binary`,
    );
  }
  const folder = await cacheFolder(version);
  const binary = path.join(folder, "chromium");
  if (existsSync(binary)) return binary;
  const partial = `${binary}.${process.pid}.${Date.now()}.partial`;
  try {
    await pipeline(createReadStream(brotli), createBrotliDecompress({ chunkSize: 2 ** 21 }), createWriteStream(partial, { mode: 0o755 }));
    await rename(partial, binary);
  } finally {
    await rm(partial, { force: true });
  }
  return binary;
}

/**
 * The folder the binary is unpacked into, made if need be: `<own>/chromium-<version>` (the
 * package's own `.built/`), else, when that cannot be made (a read-only install, a file in its
 * way), `<temporary>/reduck-chromium-<version>`.
 *
 * @example
 * await cacheFolder("143.0.4"); // .../runtime/browser/.built/chromium-143.0.4
 */
export async function cacheFolder(
  version: string,
  { own = path.join(path.dirname(fileURLToPath(import.meta.url)), ".built"), temporary = os.tmpdir() } = {},
): Promise<string> {
  const folder = path.join(own, `chromium-${version}`);
  try {
    await mkdir(folder, { recursive: true });
    return folder;
  } catch {
    // Not ours to write: the machine's temporary folder, shared by every install of this version.
  }
  const shared = path.join(temporary, `reduck-chromium-${version}`);
  await mkdir(shared, { recursive: true });
  return shared;
}

/**
 * Whether to launch with Chromium's own sandbox: whenever this process is not root (Chromium
 * refuses to start sandboxed as root; containers often run as root, as this project's CI does).
 *
 * @example
 * chromium.launch({ chromiumSandbox: chromiumSandboxWanted() });
 */
export function chromiumSandboxWanted(): boolean {
  return process.getuid?.() !== 0;
}

/**
 * The switches we add to Playwright's own (which already turn off background networking,
 * component updates, sync, first-run screens and default apps, and give each launch a fresh
 * user-data-dir). Chosen for a desktop headless browser on a closed network, not taken from
 * `@sparticuz/chromium`'s `args`, which are tuned for AWS Lambda:
 * - not `--single-process` / `--no-zygote`: one crashing page would take the whole browser (and
 *   every other run) down with it, and Playwright closes contexts unreliably in that mode;
 * - not `--disable-web-security` / `--allow-running-insecure-content`: a script must meet the
 *   same-origin rules it meets on the real service;
 * - not the SwiftShader/ANGLE GL switches: `--disable-gpu` renders in software without them.
 *
 * `wall` is the loopback proxy that refuses (and counts) anything that would leave the machine.
 */
export function launchArgs(wall: { port: number }, marker: string): string[] {
  return [
    "--disable-gpu",
    // Chromium would otherwise try QUIC (UDP) beside TCP, which no proxy sees.
    "--disable-quic",
    // Second wall (the first is Playwright routing, which answers every request): whatever the
    // routing misses goes to a loopback proxy that refuses it and counts it, loopback included
    // (`<-loopback>` removes Chromium's implicit bypass), so no port of this machine is reached.
    `--proxy-server=http://127.0.0.1:${wall.port}`,
    "--proxy-bypass-list=<-loopback>",
    // Third wall: no host name resolves, so nothing can connect around the proxy either. The rules
    // apply to address literals too, the proxy's own among them: loopback is excluded by name.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1, EXCLUDE [::1]",
    // WebRTC would send UDP (STUN) around the proxy.
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--disable-domain-reliability",
    // A page's heap is bounded, so a script's page cannot grow one renderer without end (a
    // 512 MiB string there crashes that page, and fails that run only).
    "--js-flags=--max-old-space-size=256",
    "--no-pings",
    // Unused by Chromium; lets us find this browser's process among our children.
    `--reduck-sandbox-browser=${marker}`,
  ];
}
