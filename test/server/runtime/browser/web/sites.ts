// Saved pages as hosts of the simulated web (`--site HOST=DIR`, startSandbox's `sites`): a folder
// of pages an author saved (index.html, its assets, sub-paths as files) answers as https://HOST/...
// to both the real browser and the simulated page, so a script runs against a copy of the page it
// drives with no network. Only files inside the folder are served: a path that climbs out of it
// (`..`, an encoded `%2e%2e`, a backslash) or a symlink that leads out of it is refused, and the
// page is never told where the folder is.
import { realpathSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import mime from "mime-types";
import { isHostname } from "../../../contract/hostnames.js";
import { escapeHtml, htmlPage, type WebResponse } from "./html.js";

/** A `--site` (or `sites`) that cannot be served: the message says which and what to fix. */
export class SiteError extends Error {
  override name = "SiteError";
}

/** Served sites of this process, by host name: the folder's real path. */
const served = new Map<string, string>();

function loopbackOrReserved(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost") || /^\d+(\.\d+){3}$/.test(host) || host === "sandbox.invalid";
}

/**
 * Checks `HOST -> DIR` pairs and returns them with each folder's real path. Throws SiteError for a
 * host that is not a host name (or names this machine), or a folder that does not exist.
 *
 * @example
 * checkSites({ "shop.example": "./saved/shop" }); // [["shop.example", "/home/me/saved/shop"]]
 */
export function checkSites(sites: Readonly<Record<string, string>>): Array<[string, string]> {
  return Object.entries(sites).map(([rawHost, dir]) => {
    const host = rawHost.trim().toLowerCase();
    if (!isHostname(host) || host.includes(":") || loopbackOrReserved(host)) {
      throw new SiteError(`site "${rawHost}": the host must be a host name off this machine, such as shop.example (no scheme, port or path)`);
    }
    let real: string;
    try {
      real = realpathSync(dir);
    } catch {
      throw new SiteError(`site ${host}: the folder "${dir}" does not exist: save the pages there first (index.html and its files)`);
    }
    if (!statSync(real).isDirectory()) throw new SiteError(`site ${host}: "${dir}" is not a folder (of saved pages: index.html and its files)`);
    return [host, real];
  });
}

/**
 * Serves these sites until the returned function is called. A host already served from another
 * folder (by another sandbox of this process) is refused.
 *
 * @example
 * const stop = serveSites(checkSites({ "shop.example": "./saved/shop" }));
 * stop(); // shop.example is the simulated web's 404 again
 */
export function serveSites(sites: Array<[string, string]>): () => void {
  for (const [host, dir] of sites) {
    const other = served.get(host);
    if (other !== undefined && other !== dir) throw new SiteError(`site ${host}: already served from another folder by a sandbox of this process`);
  }
  const added = sites.filter(([host]) => !served.has(host));
  for (const [host, dir] of added) served.set(host, dir);
  return () => {
    for (const [host, dir] of added) if (served.get(host) === dir) served.delete(host);
  };
}

/** The file of `root` that a URL path names, "refused" for one that leads out, undefined for none. */
function siteFile(root: string, pathname: string): string | "refused" | undefined {
  const segments: string[] = [];
  for (const raw of pathname.split("/").slice(1)) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return "refused";
    }
    if (segment === ".." || segment === "." || /[/\\\0]/.test(segment)) return "refused";
    if (segment) segments.push(segment);
  }
  const named = path.join(root, ...segments);
  const candidates = pathname.endsWith("/") ? [path.join(named, "index.html")] : [named, path.join(named, "index.html"), `${named}.html`];
  for (const candidate of candidates) {
    let real: string;
    try {
      real = realpathSync(candidate);
    } catch {
      continue;
    }
    if (real !== root && !real.startsWith(root + path.sep)) return "refused";
    if (statSync(real).isFile()) return real;
  }
  return undefined;
}

function sitePage(status: number, host: string, url: URL, words: string): WebResponse {
  return htmlPage({
    status,
    title: `${status}`,
    site: host,
    body: `<main><h1>${status} — ${words}</h1><p><code>${escapeHtml(url.pathname)}</code></p></main>`,
  });
}

/**
 * The saved site's answer for `url`, or undefined when its host is no saved site.
 *
 * @example
 * siteAnswer(new URL("https://shop.example/cart")); // the folder's cart.html, cart/index.html or cart
 */
export function siteAnswer(url: URL): WebResponse | undefined {
  const root = served.get(url.hostname.toLowerCase());
  if (root === undefined) return undefined;
  const file = siteFile(root, url.pathname);
  if (file === "refused") return sitePage(403, url.hostname, url, "outside the saved site: only its own files are served");
  if (file === undefined) return sitePage(404, url.hostname, url, "not in the saved site");
  const type = mime.lookup(file) || "application/octet-stream";
  const bytes = readFileSync(file);
  const text = /^text\/|\+xml$|^application\/(javascript|json|xml)$/.test(type);
  return {
    status: 200,
    headers: { "content-type": text ? `${type}; charset=utf-8` : type, "cache-control": "no-store" },
    body: text ? bytes.toString("utf8") : new Uint8Array(bytes),
  };
}
