// The builtins a script calls, acting on a real Playwright page: the same names, arguments, rules
// and error texts as the simulated page's (test/server/runtime/page.ts), each recorded as a trace step.
import { readFile } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import type { Download, Locator, Page } from "playwright-core";
import { mediaTypeOf } from "../../contract/media-types.js";
import * as rules from "../builtin-rules.js";
import type { DownloadOptions, DownloadResult, TraceStep } from "../builtin-rules.js";
import type { Delivery } from "../downloads.js";
import type { RunFiles } from "./files.js";

export type { Delivery } from "../downloads.js";
export type { DownloadOptions, DownloadResult } from "../builtin-rules.js";

/** One step of a selector chain, e.g. `{ kind: "role", body: "textbox" }` then `{ kind: "last" }`. */
export interface ChainStep {
  kind: string;
  body?: unknown;
  /** For `role`: the accessible name. */
  name?: string;
}

export interface Builtins {
  goto(url: string, options?: { waitUntil?: "load" | "domcontentloaded" | "networkidle" | "commit"; timeout?: number }): Promise<void>;
  waitFor(selector: string, state?: string): Promise<void>;
  paste(target: string | Locator | ChainStep[], text: string): Promise<void>;
  pressKey(key: string): Promise<void>;
  uploadFile(selector: string, input: string): Promise<void>;
  download(url: string, options?: DownloadOptions): Promise<DownloadResult>;
}

const CHAIN_KINDS = "css, role, text, label, placeholder, first, last or nth";

function isLocator(value: unknown): value is Locator {
  return typeof value === "object" && value !== null && typeof (value as Locator).evaluate === "function" && typeof (value as Locator).locator === "function";
}

/** A selector string, a Playwright locator or a selector chain, as a locator on `page`. */
function locatorFor(page: Page, target: unknown): Locator {
  if (typeof target === "string") return page.locator(target).first();
  if (isLocator(target)) return target;
  if (!Array.isArray(target) || target.length === 0) throw new Error("paste: give a selector or a locator to paste into");
  let locator: Locator | Page = page;
  for (const step of target as ChainStep[]) {
    const body = step?.body;
    const text = typeof body === "string" ? body : undefined;
    const need = (what: string) => {
      if (text === undefined) throw new Error(`paste: the chain step ${JSON.stringify(step)} needs ${what} as its body`);
      return text;
    };
    switch (step?.kind) {
      case "css":
        locator = locator.locator(need("a CSS selector"));
        break;
      case "role":
        locator = locator.getByRole(need("a role") as Parameters<Page["getByRole"]>[0], step.name === undefined ? undefined : { name: step.name });
        break;
      case "text":
        locator = locator.getByText(need("the text"));
        break;
      case "label":
        locator = locator.getByLabel(need("the label"));
        break;
      case "placeholder":
        locator = locator.getByPlaceholder(need("the placeholder"));
        break;
      case "first":
      case "last":
      case "nth":
        if (locator === page) throw new Error(`paste: a chain cannot start with ${step.kind}`);
        locator =
          step.kind === "first" ? (locator as Locator).first() : step.kind === "last" ? (locator as Locator).last() : (locator as Locator).nth(Number(body));
        break;
      default:
        throw new Error(`paste: unknown chain step kind ${JSON.stringify(step?.kind)} (use ${CHAIN_KINDS})`);
    }
  }
  return locator === page ? page.locator(":root") : (locator as Locator);
}

/** Playwright's message without its call log, and with its method name replaced by `call`. */
export function cleanMessage(call: string, error: unknown, page: Page): string {
  const message = error instanceof Error ? error.message : String(error);
  if (page.isClosed() || /Target page, context or browser has been closed|Browser has been closed|browser has disconnected/i.test(message)) {
    return `${call}: the browser closed during the run (it crashed or was killed)`;
  }
  // The call log comes with terminal colours: drop them.
  const [first = "", ...log] = message.replace(/\u001b\[\d+m/g, "").split("\n");
  // "Timeout 30000ms exceeded." says too little alone: add what it was waiting for, from the call log.
  const waiting = /Timeout \d+ms exceeded/.test(first)
    ? log
        .find((line) => /^\s*- waiting for /.test(line))
        ?.trim()
        .slice(2)
    : undefined;
  return `${call}: ${first.replace(/^[\w.$]+: /, "")}${waiting ? ` (${waiting})` : ""}`;
}

/** Runs one call on `page` as a trace step in `steps`. */
export type StepRunner = <T>(call: string, action: string, detail: Record<string, unknown> | undefined, body: (entry: TraceStep) => Promise<T>) => Promise<T>;

/**
 * Records each call in `steps`: timed; when it throws, recorded as failed and rethrown as one clear
 * line (`call: what went wrong`), keeping Playwright's error name (TimeoutError).
 */
export function stepRunner(page: Page, steps: TraceStep[]): StepRunner {
  return async (call, action, detail, body) => {
    const started = performance.now();
    const entry: TraceStep = { index: steps.length, action, ok: true, duration_ms: 0, ...(detail ? { detail } : {}) };
    steps.push(entry);
    try {
      return await body(entry);
    } catch (error) {
      const failure = new Error(cleanMessage(call, error, page));
      if (error instanceof Error && (error.name === "TimeoutError" || error.name === "RangeError")) failure.name = error.name;
      entry.ok = false;
      entry.error = failure.message;
      throw failure;
    } finally {
      entry.duration_ms = Math.round(performance.now() - started);
    }
  };
}

/**
 * The builtins over `page`, with the run's `files`, recording each call in `steps`.
 * `deliver` says where a download goes (none: `download` without `encoding` fails).
 *
 * @example
 * const builtins = createBuiltins(page, files, steps, deliver);
 * await builtins.uploadFile('input[type="file"]', "attachment");
 */
export function createBuiltins(page: Page, files: RunFiles, steps: TraceStep[], deliver?: Delivery): Builtins {
  const step = stepRunner(page, steps);

  return {
    goto: (url, options) =>
      step("goto", `goto ${String(url)}`, options === undefined ? undefined : { options }, async (entry) => {
        rules.checkAddress("goto", url);
        const waitUntil = options?.waitUntil ?? "load";
        if (!rules.WAIT_UNTIL.has(waitUntil)) throw new Error(`goto: waitUntil must be one of ${[...rules.WAIT_UNTIL].join(", ")}`);
        const response = await page.goto(url, { waitUntil, ...(options?.timeout === undefined ? {} : { timeout: options.timeout }) });
        entry.detail = { ...entry.detail, status: response?.status() ?? null };
      }),

    waitFor: (selector, state = "visible") =>
      step("waitFor", `waitFor ${String(selector)} (${String(state)})`, undefined, async () => {
        rules.checkWaitFor(selector, state);
        await page.waitForSelector(selector, { state: state as "attached" | "detached" | "visible" | "hidden" });
      }),

    paste: (target, text) =>
      step("paste", `paste into ${rules.describeTarget(target)}`, { text }, async () => {
        rules.checkPaste(target, text);
        const locator = locatorFor(page, target);
        // As a real paste: into the focused field, the page hears a paste event carrying the text
        // (Gmail turns pasted addresses into recipients this way) and, unless it handles it, the
        // text is inserted. Focus and event in one trip to the page.
        const handled = await locator.evaluate((element, pasted) => {
          (element as HTMLElement).focus();
          const clipboardData = new DataTransfer();
          clipboardData.setData("text/plain", pasted);
          return !element.dispatchEvent(new ClipboardEvent("paste", { clipboardData, bubbles: true, cancelable: true }));
        }, text);
        if (!handled) await page.keyboard.insertText(text);
      }),

    pressKey: (key) =>
      step("pressKey", `pressKey ${String(key)}`, undefined, async () => {
        rules.checkKey(key);
        await page.keyboard.press(key);
      }),

    uploadFile: (selector, input) =>
      step("uploadFile", `uploadFile ${String(selector)} ← ${String(input)}`, undefined, async (entry) => {
        rules.requireSelector("uploadFile", selector);
        if (!files.has(input)) throw new Error(`uploadFile: no file bound to ${String(input)}`);
        const staged = await files.stage(input);
        // The browser's own file chooser path: Chromium opens the file itself, as when a person picks it.
        await page.locator(selector).first().setInputFiles(staged.path);
        entry.detail = { file: { name: staged.name, size: staged.size } };
      }),

    download: async (url, options = {}) => {
      let file: { filename: string; type: string; bytes: Uint8Array } | undefined;
      await step("download", `download ${String(url)}`, options.encoding ? { encoding: options.encoding } : undefined, async (entry) => {
        rules.checkDownloadArguments(url, options);
        const download = await startDownload(page, url);
        const failure = await download.failure();
        if (failure) throw new Error(`download: ${url} failed (${failure})`);
        const bytes = await readFile((await download.path())!);
        const filename = options.filename ?? download.suggestedFilename();
        file = { filename, type: mediaTypeOf(filename), bytes };
        entry.detail = { ...entry.detail, filename, size: bytes.byteLength };
      });
      return rules.handBack(file!, options, deliver);
    },
  };
}

/**
 * Follows a link to `url` from the current page, as a person clicking it would, and waits for the
 * download it starts. An address that answers with a page navigates instead: that fails at once.
 */
async function startDownload(page: Page, url: string): Promise<Download> {
  const navigated = page.waitForEvent("framenavigated", { predicate: (frame) => frame === page.mainFrame() });
  const downloaded = page.waitForEvent("download");
  navigated.catch(() => {});
  downloaded.catch(() => {});
  await page.evaluate((href) => {
    // No `download` attribute: Chromium fetches such links past the routing, so the simulated web
    // never answers them (they fail); the server's Content-Disposition makes it a download anyway.
    const link = document.createElement("a");
    link.href = href;
    document.body.append(link);
    link.click();
    link.remove();
  }, url);
  const first = await Promise.race([downloaded, navigated.then(() => null)]);
  if (!first) throw new Error(`download: ${url} answered with a page, not a file`);
  return first;
}
