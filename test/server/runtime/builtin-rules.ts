// What the two pages a script may run against share (the simulated one in page.ts, the real browser's
// in ../browser/builtins.ts): the trace step a call becomes, the builtins' argument rules and words,
// and the shape of a download. One place, so both pages refuse the same arguments the same way.
import type { Delivery, DownloadedFile } from "./downloads.js";

export interface TraceStep {
  index: number;
  /** Human-readable, e.g. `goto https://mail.google.com/...`. */
  action: string;
  ok: boolean;
  duration_ms: number;
  /** What the step acted on: a selector, a key, a file... */
  detail?: Record<string, unknown>;
  /** Why the step (or the script) failed. */
  error?: string;
}

/** The states `builtins.waitFor` waits for. */
export const WAIT_STATES: ReadonlySet<string> = new Set(["attached", "detached", "visible", "hidden"]);

/** The moments `builtins.goto` may wait for. */
export const WAIT_UNTIL: ReadonlySet<string> = new Set(["load", "domcontentloaded", "networkidle", "commit"]);

/** The addresses a page may be sent to: the web's, never this machine's files or the browser's own pages. */
const NAVIGABLE = new Set(["http:", "https:"]);

/**
 * Checks an address `call` navigates to or fetches: absolute, and http(s) (or about:blank) only. A
 * `file:` address would let a script read the sandbox machine's files through the browser, and
 * `chrome:` pages show its command line; neither is the web a script automates.
 */
export function checkAddress(call: string, url: unknown): asserts url is string {
  if (typeof url !== "string" || !URL.canParse(url)) throw new Error(`${call}: ${JSON.stringify(url)} is not an absolute URL`);
  const { protocol } = new URL(url);
  if (!NAVIGABLE.has(protocol) && url !== "about:blank") {
    throw new Error(`${call}: only http and https addresses can be opened (${JSON.stringify(url)} is a ${protocol} address)`);
  }
}

/** `selector` when it is a non-empty string; else the builtin's error. */
export function requireSelector(call: string, selector: unknown): string {
  if (typeof selector !== "string" || !selector.trim()) throw new Error(`${call}: give a CSS selector (a non-empty string)`);
  return selector;
}

/** The checks on `waitFor`'s arguments: a selector, and one of WAIT_STATES. */
export function checkWaitFor(selector: unknown, state: unknown): asserts selector is string {
  requireSelector("waitFor", selector);
  if (typeof state !== "string" || !WAIT_STATES.has(state)) throw new Error(`waitFor: state must be one of ${[...WAIT_STATES].join(", ")}`);
}

/** The checks on `paste`'s arguments: something to paste into, and text. */
export function checkPaste(target: unknown, text: unknown): asserts text is string {
  if (target === undefined || target === null || target === "") throw new Error("paste: give a selector or a locator to paste into");
  if (typeof text !== "string") throw new Error(`paste: text must be a string (got ${text === undefined ? "undefined" : typeof text})`);
}

/** The check on `pressKey`'s argument: a key name. */
export function checkKey(key: unknown): asserts key is string {
  if (typeof key !== "string" || !key) throw new Error('pressKey: give a key, e.g. "Enter" or "Control+Enter"');
}

/**
 * A paste target for messages and trace steps: the selector, a chain as `role=textbox >> last`, or
 * whatever else it is (a Playwright locator describes itself: `locator('textarea').first()`).
 */
export function describeTarget(target: unknown): string {
  if (typeof target === "string") return target;
  if (Array.isArray(target)) {
    return target.map((s) => (s && typeof s === "object" ? [s.kind, s.body ?? s.name].filter((x) => x !== undefined).join("=") : String(s))).join(" >> ");
  }
  return String(target);
}

export interface DownloadOptions {
  /** The name to save under; default: the name the site suggests, else the URL's last segment. */
  filename?: string;
  /** "base64": hand the bytes back with the run instead of saving a file. */
  encoding?: "base64";
}

/**
 * `{ filename, path }` (own browser: saved on this machine), `{ filename, url }` (managed browser:
 * fetch it from there), or with `encoding: "base64"` the bytes themselves. JSON only, so it can
 * cross into an isolated script.
 */
export type DownloadResult =
  | { filename: string; path: string }
  | { filename: string; url: string }
  | { filename: string; type: string; size: number; base64: string };

/** The checks on `download`'s arguments both pages make before fetching anything. */
export function checkDownloadArguments(url: unknown, options: DownloadOptions): asserts url is string {
  checkAddress("download", url);
  if (options.filename !== undefined && (typeof options.filename !== "string" || !options.filename.trim())) {
    throw new Error("download: filename must be a non-empty string");
  }
  if (options.encoding !== undefined && options.encoding !== "base64") throw new Error('download: encoding can only be "base64"');
}

/** A downloaded file handed back as the call's result: its bytes (base64), or delivered where `deliver` puts it. */
export async function handBack(file: DownloadedFile, options: DownloadOptions, deliver: Delivery | undefined): Promise<DownloadResult> {
  const { filename, type, bytes } = file;
  if (options.encoding === "base64") return { filename, type, size: bytes.byteLength, base64: Buffer.from(bytes).toString("base64") };
  if (!deliver) throw new Error("download: this browser has nowhere to save files");
  return { filename, ...(await deliver(file)) };
}
