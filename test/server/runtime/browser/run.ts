// One run in the real browser: its context and page, its files, its builtins and trace, and the
// screenshots it ends with.
import type { BrowserContext, Page } from "playwright-core";
import type { TraceStep } from "../builtin-rules.js";
import { createBuiltins, type Builtins, type Delivery } from "./builtins.js";
import { RunFiles, type RunFile } from "./files.js";

export interface RunOptions {
  /** The run's bound files, by input name (absent: not bound). */
  files?: Readonly<Record<string, RunFile>>;
  /** Where `builtins.download` puts a file: own browser `{ path }`, managed browser `{ url }`. */
  deliver?: Delivery;
  /** How long one action (a click, a wait, a navigation) may take (default 30 s). */
  actionTimeoutMs?: number;
}

export interface Screenshot {
  /** `last`: after the last step of a run that succeeded; `failure`: when the run failed. */
  kind: "last" | "failure";
  /** The index of the last trace step before it (-1: no step). */
  afterStep: number;
  png: Buffer;
}

export interface RunEnd {
  steps: TraceStep[];
  /** None when the page could not be photographed (the browser died, say). */
  screenshots: Screenshot[];
}

const SCREENSHOT_TIMEOUT_MS = 5_000;
const CLOSE_TIMEOUT_MS = 10_000;

/**
 * Made by `BrowserHost.newRun()`. Hand `page` and `builtins` to the script; then call `finish()`
 * (always, also after a failure or a timeout) for the trace and screenshots; it closes the context.
 */
export class BrowserRun {
  readonly steps: TraceStep[] = [];
  readonly builtins: Builtins;
  private readonly files: RunFiles;
  private readonly actionTimeoutMs: number;
  private finished?: Promise<RunEnd>;

  constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    options: RunOptions,
    /** Ends a browser that does not close a context in time (a hung browser). */
    private readonly killBrowser: () => Promise<void>,
    /** Called once the context is closed (the host then opens the next run's). */
    private readonly closed: () => void = () => {},
  ) {
    this.actionTimeoutMs = options.actionTimeoutMs ?? 30_000;
    context.setDefaultTimeout(this.actionTimeoutMs);
    // A step before may have changed the page's own timeouts; each step starts from the run's.
    page.setDefaultTimeout(this.actionTimeoutMs);
    page.setDefaultNavigationTimeout(this.actionTimeoutMs);
    this.files = new RunFiles(options.files ?? {});
    this.builtins = createBuiltins(page, this.files, this.steps, options.deliver);
  }

  /**
   * Ends the run: a screenshot (`failure` when `failed`, else `last`), then the run's files are
   * removed and the context closed, unless `keepOpen` keeps it (and its page) for `next()`. Safe to
   * call more than once.
   *
   * @example
   * const { steps, screenshots } = await run.finish({ failed: true });
   */
  finish(outcome: { failed?: boolean; keepOpen?: boolean } = {}): Promise<RunEnd> {
    this.finished ??= this.end(outcome.failed ? "failure" : "last", !outcome.keepOpen);
    return this.finished;
  }

  /**
   * The next step of a sequential batch on the same context and page, where this run (finished
   * with `keepOpen`) left them, with its own files, builtins and trace.
   *
   * @example
   * await first.finish({ keepOpen: true });
   * const second = first.next({ files });
   */
  next(options: RunOptions): BrowserRun {
    if (!this.finished) throw new Error("next: finish this run (with keepOpen) first");
    return new BrowserRun(this.context, this.page, options, this.killBrowser, this.closed);
  }

  private async end(kind: Screenshot["kind"], close: boolean): Promise<RunEnd> {
    const afterStep = this.steps.length - 1;
    const png = await this.screenshot();
    if (close) await this.close();
    else await this.files.remove();
    return { steps: this.steps, screenshots: png ? [{ kind, afterStep, png }] : [] };
  }

  /** A PNG of the page, or null when there is nothing to show (the browser died or hangs). */
  private async screenshot(): Promise<Buffer | null> {
    const timeout = Math.min(SCREENSHOT_TIMEOUT_MS, this.actionTimeoutMs);
    for (let attempt = 1; !this.page.isClosed(); attempt++) {
      try {
        // The caret as it is (Playwright would hide it, at the cost of a trip to the page).
        return await this.page.screenshot({ type: "png", timeout, caret: "initial" });
      } catch (error) {
        if (attempt === 2 || (error as Error).name === "TimeoutError") break;
        // A page that has not painted yet (a new page whose script failed at once) cannot be
        // captured: let it paint one frame, then try again.
        await within(
          timeout,
          this.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve))),
        );
      }
    }
    return null;
  }

  /** Closes the context (a browser that does not close it in time is killed) and removes the run's files. */
  async close(): Promise<void> {
    try {
      if (!(await within(CLOSE_TIMEOUT_MS, this.context.close()))) await this.killBrowser();
    } finally {
      await this.files.remove();
      this.closed();
    }
  }
}

/** Whether `work` settled (either way) within `ms`. */
export async function within(ms: number, work: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = work.then(
    () => true,
    () => true,
  );
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}
