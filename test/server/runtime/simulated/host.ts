// The simulated page as a script body sees it: the same Playwright-like `page` (locators, keyboard,
// evaluate) and builtins as the real browser's (../browser/bridge.ts), answered by a small document
// model of the simulated web in the run's own process (driver.ts). So one script body runs on both.
// Each call is a trace step, named and worded as the real browser's are. What the simulated page
// has no way to do (the mouse at coordinates, file chooser paths) says so.
import { performance } from "node:perf_hooks";
import type { FileDescriptor } from "../../store/records.js";
import * as rules from "../builtin-rules.js";
import type { TraceStep } from "../builtin-rules.js";
import { simulatedFile, type Delivery } from "../downloads.js";
import { FUNCTION_ARGUMENT, NO_FILES, surfaceOf } from "../page-surface.js";
import type { HostCall, PageChannel, ScriptHost, Surface } from "../script-runner.js";
import { codeOf, describeChain, noFunctions, pasteChain, shown } from "./calls.js";
import { contentDocument } from "./documents.js";
import { type BrowserState, PageDriver } from "./driver.js";

/**
 * What the body sees of the simulated page: the real one's surface, less what it has no way to
 * do: history, a viewport to resize, a key held down and let up, a select's options, a drag, an
 * element's box on a layout.
 */
export const SIMULATED_SURFACE: Surface = surfaceOf({
  page: ["goBack", "goForward", "setViewportSize"],
  keyboard: ["down", "up"],
  actions: ["selectOption", "dragTo", "boundingBox"],
});

/** Actions that read the page and wait for nothing. */
const NO_WAIT = new Set(["count", "allTextContents", "allInnerTexts", "isVisible", "isHidden"]);

export interface SimulatedPageOptions {
  /** The run's bound files, by input name (absent: not bound). */
  files: Readonly<Record<string, FileDescriptor>>;
  /** Where the page is, shared by the steps of a sequential run. */
  state: BrowserState;
  /** Where `builtins.download` puts a file (none: downloads fail). */
  deliver?: Delivery;
  /** How long one action may wait for its element. */
  actionTimeoutMs: number;
}

/**
 * The host a script body calls for one step on the simulated page, and the step's trace.
 *
 * @example
 * const { host, steps } = simulatedPageHost({ files, state: newBrowserState(), deliver, actionTimeoutMs: 30_000 });
 * await runScriptBody({ content, args, files, host, timeoutMs });
 */
export function simulatedPageHost(options: SimulatedPageOptions): { host: ScriptHost; steps: TraceStep[] } {
  const steps: TraceStep[] = [];
  let driver: PageDriver | undefined;
  /** page.setDefaultTimeout's value, for waits of this step (the run's action timeout until then). */
  let defaultTimeout = options.actionTimeoutMs;

  /** Runs one call as a trace step: timed, and recorded as failed (then rethrown as `call: why`) if it throws. */
  async function step<T>(call: string, action: string, detail: Record<string, unknown> | undefined, body: (entry: TraceStep) => Promise<T>): Promise<T> {
    const started = performance.now();
    const entry: TraceStep = { index: steps.length, action, ok: true, duration_ms: 0, ...(detail ? { detail } : {}) };
    steps.push(entry);
    try {
      return await body(entry);
    } catch (error) {
      // Said once: `goto: goto: ...` would repeat what the rules' own words already say.
      const said = (error as Error).message;
      const failure = new Error(`${call}: ${said.startsWith(`${call}: `) ? said.slice(call.length + 2) : said}`);
      if ((error as Error).name !== "Error") failure.name = (error as Error).name;
      entry.ok = false;
      entry.error = failure.message;
      throw failure;
    } finally {
      entry.duration_ms = Math.round(performance.now() - started);
    }
  }

  const builtins = (page: PageDriver): Record<string, (...args: unknown[]) => Promise<unknown>> => ({
    goto: (url, gotoOptions) =>
      step("goto", `goto ${String(url)}`, gotoOptions === undefined ? undefined : { options: gotoOptions }, async (entry) => {
        rules.checkAddress("goto", url);
        const waitUntil = (gotoOptions as { waitUntil?: string } | undefined)?.waitUntil ?? "load";
        if (!rules.WAIT_UNTIL.has(waitUntil)) throw new Error(`goto: waitUntil must be one of ${[...rules.WAIT_UNTIL].join(", ")}`);
        entry.detail = { ...entry.detail, status: (await page.load(url)).status };
      }),
    waitFor: (selector, state = "visible") =>
      step("waitFor", `waitFor ${String(selector)} (${String(state)})`, undefined, async () => {
        rules.checkWaitFor(selector, state);
        const op = { op: "wait", target: [["locator", selector]], state, strict: false };
        await page.settle(op, { timeoutMs: page.timeoutMs, waiting: describeChain([["locator", selector]]) });
      }),
    paste: (target, text) =>
      step("paste", `paste into ${rules.describeTarget(target)}`, { text }, async () => {
        rules.checkPaste(target, text);
        const chain = pasteChain(target);
        await page.settle({ op: "paste", target: chain, text }, { timeoutMs: page.timeoutMs, waiting: describeChain(chain) });
      }),
    pressKey: (key) =>
      step("pressKey", `pressKey ${String(key)}`, undefined, async () => {
        rules.checkKey(key);
        await page.ask({ op: "keyboard", method: "press", text: key });
      }),
    uploadFile: (selector, input) =>
      step("uploadFile", `uploadFile ${String(selector)} ← ${String(input)}`, undefined, async (entry) => {
        rules.requireSelector("uploadFile", selector);
        const file = typeof input === "string" && Object.hasOwn(options.files, input) ? options.files[input] : undefined;
        if (!file) throw new Error(`uploadFile: no file bound to ${String(input)}`);
        const target = [["locator", selector], ["first"]];
        const described = { name: file.name, size: file.size, type: file.type, sha256: file.sha256 };
        await page.settle({ op: "upload", target, file: described }, { timeoutMs: page.timeoutMs, waiting: describeChain(target) });
        entry.detail = { file: { name: file.name, size: file.size } };
      }),
    download: async (url, downloadOptions = {}) => {
      const wanted = downloadOptions as rules.DownloadOptions;
      let file: { filename: string; type: string; bytes: Uint8Array } | undefined;
      await step("download", `download ${String(url)}`, wanted.encoding ? { encoding: wanted.encoding } : undefined, async (entry) => {
        rules.checkDownloadArguments(url, wanted);
        const served = simulatedFile(url);
        if (!served) throw new Error(`download: ${url} answered 404 (the simulated web serves files on admin.atlassian.com only)`);
        const fromUrl = decodeURIComponent(new URL(url).pathname.split("/").filter(Boolean).at(-1) ?? "");
        file = { filename: wanted.filename ?? served.suggestedName ?? (fromUrl || "download"), type: served.type, bytes: served.bytes };
        entry.detail = { ...entry.detail, filename: file.filename, size: file.bytes.byteLength };
      });
      return rules.handBack(file!, wanted, options.deliver);
    },
  });

  /** An action on one located element (or reading all of them), as a locator or the page with a selector does it. */
  async function act(page: PageDriver, method: string, chain: unknown, args: unknown[], strict: boolean): Promise<unknown> {
    const given = args.find((a) => typeof a === "object" && a !== null && !Array.isArray(a)) as { timeout?: unknown; state?: unknown } | undefined;
    const timeoutMs = typeof given?.timeout === "number" ? given.timeout : page.timeoutMs;
    const waiting = describeChain(chain);
    if (method === "waitFor") {
      const op = { op: "wait", target: chain, state: typeof given?.state === "string" ? given.state : "visible", strict, describe: waiting };
      return page.settle(op, { timeoutMs, waiting });
    }
    if (method === "evaluate" || method === "evaluateAll") {
      const op = { op: "evaluate", target: chain, all: method === "evaluateAll", arg: args[1] ?? null, strict, describe: waiting };
      return page.settle(op, { code: codeOf(args[0], `locator.${method}`), timeoutMs, waiting });
    }
    const op = { op: "act", target: chain, action: method, args, strict, describe: waiting };
    return NO_WAIT.has(method) ? page.ask(op) : page.settle(op, { timeoutMs, waiting });
  }

  async function pageCall(page: PageDriver, method: string, args: unknown[]): Promise<unknown> {
    switch (method) {
      case "goto":
        rules.checkAddress("page.goto", args[0]);
        return page.load(args[0]);
      case "reload":
        return page.load(options.state.url === "about:blank" ? "about:blank" : options.state.url);
      case "setContent":
        if (typeof args[0] !== "string") throw new TypeError("page.setContent: give the HTML as a string");
        return page.open(contentDocument(options.state.url, args[0])).then(() => undefined);
      case "content":
      case "title":
        return page.ask({ op: method });
      case "evaluate":
        return page.ask({ op: "evaluate", target: null, arg: args[1] ?? null }, codeOf(args[0], "page.evaluate"));
      case "$eval":
      case "$$eval": {
        rules.requireSelector(`page.${method}`, args[0]);
        const op = {
          op: "evaluate",
          target: [["locator", args[0]]],
          all: method === "$$eval",
          strict: false,
          arg: args[2] ?? null,
          describe: JSON.stringify(args[0]),
        };
        return page.ask(op, codeOf(args[1], `page.${method}`));
      }
      case "waitForTimeout":
        if (typeof args[0] !== "number" || !(args[0] >= 0)) throw new TypeError("page.waitForTimeout: give a number of milliseconds");
        await new Promise((resolve) => setTimeout(resolve, args[0] as number).unref());
        return undefined;
      case "waitForLoadState":
        return undefined;
      case "waitForSelector": {
        rules.requireSelector("page.waitForSelector", args[0]);
        const given = (args[1] ?? {}) as { state?: unknown; timeout?: unknown };
        const state = typeof given.state === "string" ? given.state : "visible";
        const op = { op: "wait", target: [["locator", args[0]]], state, strict: false };
        await page.settle(op, {
          timeoutMs: typeof given.timeout === "number" ? given.timeout : page.timeoutMs,
          waiting: `locator(${JSON.stringify(args[0])})`,
        });
        return undefined;
      }
      case "waitForFunction": {
        const given = (args[2] ?? {}) as { timeout?: unknown };
        const op = { op: "evaluate", target: null, arg: args[1] ?? null, truthy: true };
        const timeoutMs = typeof given.timeout === "number" ? given.timeout : page.timeoutMs;
        await page.settle(op, { code: codeOf(args[0], "page.waitForFunction"), timeoutMs, waiting: "the function to return a truthy value" });
        return undefined;
      }
      default:
        rules.requireSelector(`page.${method}`, args[0]);
        return act(page, method, [["locator", args[0]]], args.slice(1), true);
    }
  }

  function syncCall(method: string, args: unknown[]): unknown {
    switch (method) {
      case "url":
        return options.state.url;
      case "isClosed":
        return false;
      case "viewportSize":
        return { width: 1280, height: 720 };
      default:
        if (typeof args[0] !== "number" || !(args[0] >= 0)) throw new TypeError(`page.${method}: give a number of milliseconds (0 for none)`);
        // Navigation is instant on the simulated page: only the default timeout of waits matters.
        if (method === "setDefaultTimeout") {
          defaultTimeout = args[0];
          if (driver) driver.timeoutMs = args[0];
        }
        return undefined;
    }
  }

  const host: ScriptHost = {
    surface: SIMULATED_SURFACE,
    async call({ on, method, args, chain }: HostCall, channel: PageChannel) {
      const name = `${on}.${method}`;
      if (on === "page" && SIMULATED_SURFACE.page[method] === "sync") return syncCall(method, args);
      const functionAt = FUNCTION_ARGUMENT[name];
      args.forEach((arg, i) => i !== functionAt && noFunctions(arg, name));
      driver ??= new PageDriver(options.state, channel, defaultTimeout);
      const page = driver;
      if (on === "builtins") return builtins(page)[method]!(...args);
      if (method === "setInputFiles") throw new Error(`${name} ${NO_FILES}`);
      if (on === "mouse")
        throw new Error(
          `${name}: the simulated page has no layout to aim the mouse at: click an element instead (page.click(selector), or a locator's click())`,
        );
      const action = `${on === "locator" ? describeChain(chain) : on}.${method}(${on === "locator" ? "" : shown(args)})`;
      return step(name, action, undefined, async () => {
        if (on === "keyboard") return page.ask({ op: "keyboard", method, text: String(args[0] ?? "") });
        if (on === "locator") return act(page, method, chain, args, true);
        return pageCall(page, method, args);
      });
    },
  };
  return { host, steps };
}
