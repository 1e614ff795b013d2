// The browser a POST /run runs its scripts in, as the handler sees it: a session (one run, or the
// steps of a sequential batch, which share cookies, page and navigation), in which each step gets
// what its body calls and ends with its trace and screenshots. Two kinds: the simulated page
// (fast, nothing rendered) and the real browser (../browser/session.ts).
import type { RunFile } from "./browser/files.js";
import type { Screenshot } from "./browser/run.js";
import type { FileDescriptor } from "../store/records.js";
import type { ReferenceStore } from "../store/store.js";
import type { TraceStep } from "./builtin-rules.js";
import type { Delivery } from "./downloads.js";
import { SYNC_PAGE_METHODS, createSimulatedBrowser, newBrowserState } from "./page.js";
import { objectHost, type ScriptHost } from "./script-runner.js";

export interface StepOptions {
  /** What `files.<input>` shows the script. */
  files: Record<string, FileDescriptor>;
  /** Where each file's bytes are, for a browser that really puts files into fields. */
  content: Record<string, RunFile>;
  /** Where `builtins.download` puts a file. */
  deliver: Delivery;
}

export interface StepEnd {
  steps: TraceStep[];
  screenshots: Screenshot[];
}

export interface StepBrowser {
  /** What the step's body calls. */
  host: ScriptHost;
  /** Ends the step (call it once, also after a failure or timeout): its trace and screenshots. */
  end(outcome: { failed: boolean }): Promise<StepEnd>;
}

export interface BrowserSession {
  /** The next step, where the step before left the page. */
  step(options: StepOptions): StepBrowser;
  /** Ends the session (call it once, after the last step's end). */
  close(): Promise<void>;
}

/**
 * The simulated page: navigation is recorded, file fields hold descriptors, nothing is rendered, so
 * there is never a screenshot.
 *
 * @example
 * const session = simulatedSession();
 * const step = session.step({ files, content, deliver });
 */
export function simulatedSession(): BrowserSession {
  const state = newBrowserState();
  return {
    step({ files, deliver }) {
      const { page, builtins, steps } = createSimulatedBrowser(files, state, deliver);
      return { host: objectHost(page, builtins, SYNC_PAGE_METHODS), end: async () => ({ steps, screenshots: [] }) };
    },
    close: async () => undefined,
  };
}

/** How long one wait of a real page (a click, a navigation) may take, within the run's own limit. */
export const ACTION_TIMEOUT_MS = 30_000;

/**
 * A session in the browser `store` runs scripts against. The real browser's code (and Playwright)
 * loads on the first real session only, so stores on the simulated page never load it.
 *
 * @example
 * const session = await openSession(store);
 */
export async function openSession(store: ReferenceStore): Promise<BrowserSession> {
  if (store.browser === "simulated") return simulatedSession();
  const [{ realSession }, { sharedBrowserHost }] = await Promise.all([import("./browser/session.js"), import("./browser/host.js")]);
  return realSession(store.browserHost ?? sharedBrowserHost(), Math.min(ACTION_TIMEOUT_MS, store.runTimeoutMs));
}
