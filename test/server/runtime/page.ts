// The simulated browser page POST /run runs scripts against, exactly the surface
// examples/scripts/README.md documents (plus `page.goto` and `page.title()`, which the seeded demo
// scripts call). Nothing is really browsed: navigation, waits, pastes and key presses are recorded
// as trace steps, and file fields hold file descriptors, never bytes.
import { performance } from "node:perf_hooks";
import type { FileDescriptor } from "../store/records.js";
import {
  checkAddress,
  checkDownloadArguments,
  checkKey,
  checkPaste,
  checkWaitFor,
  describeTarget,
  handBack,
  requireSelector,
  type DownloadOptions,
  type DownloadResult,
  type TraceStep,
} from "./builtin-rules.js";
import { simulatedFile, type Delivery } from "./downloads.js";

export type { TraceStep } from "./builtin-rules.js";

/** What lasts between the steps of a sequential run (one browser): where the page is. */
export interface BrowserState {
  url: string;
}

export function newBrowserState(): BrowserState {
  return { url: "about:blank" };
}

/** Titles the simulated web serves; any other page is titled after its host. */
const TITLES: Record<string, string> = { "example.com": "Example Domain" };

/**
 * Page methods that answer at once (`page.url()`, as in Playwright); every other method of `page`
 * and `builtins` returns a promise. A script body in its worker reaches the page only through these
 * methods, so a method added below is all a new feature needs.
 */
export const SYNC_PAGE_METHODS: ReadonlySet<string> = new Set(["url", "fileInput", "renameFile"]);

export interface SimulatedBrowser {
  page: {
    url(): string;
    fileInput(selector: string): FileDescriptor | null;
    renameFile(selector: string, name: string): void;
    goto(url: string, options?: unknown): Promise<void>;
    title(): Promise<string>;
  };
  builtins: {
    goto(url: string, options?: unknown): Promise<void>;
    waitFor(selector: string, state?: string): Promise<void>;
    paste(target: unknown, text: string): Promise<void>;
    pressKey(key: string): Promise<void>;
    uploadFile(selector: string, input: string): Promise<void>;
    download(url: string, options?: DownloadOptions): Promise<DownloadResult>;
  };
  /** The steps taken so far (the run's trace). */
  steps: TraceStep[];
}

/**
 * A fresh page whose `files` are the run's bound files by input name (absent: not bound).
 * `deliver` says where `builtins.download` puts a file (none: downloads fail).
 *
 * @example
 * const { page, builtins, steps } = createSimulatedBrowser({ attachment: file }, newBrowserState());
 * await builtins.uploadFile('input[type="file"]', "attachment");
 * page.fileInput('input[type="file"]'); // a copy of `file`
 */
export function createSimulatedBrowser(files: Readonly<Record<string, FileDescriptor>>, state: BrowserState, deliver?: Delivery): SimulatedBrowser {
  const steps: TraceStep[] = [];
  const fields = new Map<string, FileDescriptor>();

  // Runs one action as a trace step: timed, and recorded as failed (then rethrown) if it throws.
  async function step(action: string, detail: Record<string, unknown> | undefined, body: () => void): Promise<void> {
    const started = performance.now();
    const entry: TraceStep = { index: steps.length, action, ok: true, duration_ms: 0, ...(detail ? { detail } : {}) };
    steps.push(entry);
    try {
      body();
    } catch (error) {
      entry.ok = false;
      entry.error = (error as Error).message;
      throw error;
    } finally {
      entry.duration_ms = Math.round(performance.now() - started);
    }
  }

  const goto = (url: string, options?: unknown) =>
    step(`goto ${String(url)}`, options === undefined ? undefined : { options }, () => {
      checkAddress("goto", url);
      state.url = url;
    });

  return {
    steps,
    page: {
      url: () => state.url,
      fileInput(selector) {
        const file = fields.get(requireSelector("fileInput", selector));
        return file ? { ...file } : null;
      },
      renameFile(selector, name) {
        requireSelector("renameFile", selector);
        const file = fields.get(selector);
        if (!file) throw new Error(`renameFile: the file field ${selector} holds no file (call builtins.uploadFile first)`);
        if (typeof name !== "string" || !name.trim()) throw new Error("renameFile: give the new file name as a non-empty string");
        steps.push({ index: steps.length, action: `renameFile ${selector} → ${name}`, ok: true, duration_ms: 0, detail: { from: file.name, to: name } });
        fields.set(selector, { ...file, name });
      },
      goto,
      title: async () => {
        if (!URL.canParse(state.url) || state.url === "about:blank") return "";
        const host = new URL(state.url).hostname.replace(/^www\./, "");
        return TITLES[host] ?? host;
      },
    },
    builtins: {
      goto,
      waitFor: (selector, waitState = "visible") =>
        step(`waitFor ${String(selector)} (${String(waitState)})`, undefined, () => {
          checkWaitFor(selector, waitState);
        }),
      paste: (target, text) => step(`paste into ${describeTarget(target)}`, { text }, () => checkPaste(target, text)),
      pressKey: (key) => step(`pressKey ${String(key)}`, undefined, () => checkKey(key)),
      uploadFile: (selector, input) =>
        step(`uploadFile ${String(selector)} ← ${String(input)}`, undefined, () => {
          requireSelector("uploadFile", selector);
          const file = typeof input === "string" && Object.hasOwn(files, input) ? files[input] : undefined;
          if (!file) throw new Error(`uploadFile: no file bound to ${String(input)}`);
          // The same for bytes and named files: the field holds the file under the name it arrived with.
          fields.set(selector, { ...file });
          steps.at(-1)!.detail = { file: { ...file } };
        }),
      download: async (url, options = {}) => {
        let file: { filename: string; type: string; bytes: Uint8Array } | undefined;
        await step(`download ${String(url)}`, options.encoding ? { encoding: options.encoding } : undefined, () => {
          checkDownloadArguments(url, options);
          const served = simulatedFile(url);
          if (!served) throw new Error(`download: ${url} answered 404 (the simulated web serves files on admin.atlassian.com only)`);
          const fromUrl = decodeURIComponent(new URL(url).pathname.split("/").filter(Boolean).at(-1) ?? "");
          file = { filename: options.filename ?? served.suggestedName ?? (fromUrl || "download"), type: served.type, bytes: served.bytes };
          steps.at(-1)!.detail = { ...steps.at(-1)!.detail, filename: file.filename, size: file.bytes.byteLength };
        });
        return handBack(file!, options, deliver);
      },
    },
  };
}
