// The browser a POST /run runs its scripts in, as the handler sees it: a session (one run, or the
// steps of a sequential batch, which share cookies, page and navigation), in which each step gets
// what its body calls and ends with its trace and screenshots. Two kinds: the simulated page
// (simulated/: fast, nothing rendered) and the real browser (browser/session.ts).
import type { BrowserHost } from "./browser/host.js";
import type { SandboxStore } from "../store/store.js";
import type { BrowserSession } from "./session-shape.js";
import { newBrowserState } from "./simulated/driver.js";
import { simulatedPageHost } from "./simulated/host.js";

export type { BrowserSession, StepBrowser, StepEnd, StepOptions } from "./session-shape.js";

/**
 * The simulated page: the simulated web's pages as documents in the run's own process, nothing
 * rendered, so there is never a screenshot. The steps of a sequential batch share where the page
 * is (each opens that document again). `actionTimeoutMs` bounds each wait for an element.
 *
 * @example
 * const session = simulatedSession(30_000);
 * const step = session.step({ files, content, deliver });
 */
export function simulatedSession(actionTimeoutMs: number): BrowserSession {
  const state = newBrowserState();
  return {
    step({ files, deliver }) {
      const { host, steps } = simulatedPageHost({ files, state, deliver, actionTimeoutMs });
      return { host, end: async () => ({ steps, screenshots: [] }) };
    },
    close: async () => undefined,
  };
}

/**
 * The warm browser each store's real runs use, when one was given (else the process's shared one).
 * Kept here, beside the sessions that use it, so the store (a room below) never names the browser.
 */
const browserHosts = new WeakMap<SandboxStore, BrowserHost>();

/**
 * Gives `store`'s real runs this warm browser instead of the one every store of the process shares
 * (launched at the first run that touches a page). The caller closes it.
 *
 * @example
 * const host = new BrowserHost();
 * setBrowserHost(store, host);
 */
export function setBrowserHost(store: SandboxStore, host: BrowserHost): void {
  browserHosts.set(store, host);
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
export async function openSession(store: SandboxStore): Promise<BrowserSession> {
  if (store.browser === "simulated") return simulatedSession(Math.min(ACTION_TIMEOUT_MS, store.runTimeoutMs));
  const [{ realSession }, { sharedBrowserHost }] = await Promise.all([import("./browser/session.js"), import("./browser/host.js")]);
  return realSession(browserHosts.get(store) ?? sharedBrowserHost(), Math.min(ACTION_TIMEOUT_MS, store.runTimeoutMs));
}
