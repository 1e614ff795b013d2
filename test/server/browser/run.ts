// One run in the real browser: its context and page, its files, its builtins and trace, and the
// screenshots it ends with.
import type { BrowserContext, Page } from "playwright-core";
import type { TraceStep } from "../run/page.js";
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
  private finished?: Promise<RunEnd>;

  constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    options: RunOptions,
    /** Ends a browser that does not close a context in time (a hung browser). */
    private readonly killBrowser: () => Promise<void>,
  ) {
    context.setDefaultTimeout(options.actionTimeoutMs ?? 30_000);
    this.files = new RunFiles(options.files ?? {});
    this.builtins = createBuiltins(page, this.files, this.steps, options.deliver);
  }

  /**
   * Ends the run: a screenshot (`failure` when `failed`, else `last`), then the context is closed
   * and the run's files removed. Safe to call more than once.
   *
   * @example
   * const { steps, screenshots } = await run.finish({ failed: true });
   */
  finish(outcome: { failed?: boolean } = {}): Promise<RunEnd> {
    this.finished ??= this.end(outcome.failed ? "failure" : "last");
    return this.finished;
  }

  private async end(kind: Screenshot["kind"]): Promise<RunEnd> {
    const screenshots: Screenshot[] = [];
    const afterStep = this.steps.length - 1;
    try {
      if (!this.page.isClosed()) screenshots.push({ kind, afterStep, png: await this.page.screenshot({ type: "png", timeout: SCREENSHOT_TIMEOUT_MS }) });
    } catch {
      // A dead or hung page has nothing to show; the trace says what happened.
    }
    await this.close();
    return { steps: this.steps, screenshots };
  }

  private async close(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const closed = this.context.close().then(
      () => true,
      () => true,
    );
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), CLOSE_TIMEOUT_MS)));
    try {
      if (!(await Promise.race([closed, late]))) await this.killBrowser();
    } finally {
      clearTimeout(timer);
      await this.files.remove();
    }
  }
}
