// The real browser page as an isolated script body sees it (../isolation/inside/ builds the body's side
// from SURFACE): a Playwright-like `page` with locators, keyboard and mouse, and the builtins. Each
// call arrives here as JSON and is answered by the run's real Playwright page.
//
// Only what is listed below is reachable, and only with JSON arguments: nothing here takes a path on
// this machine (setInputFiles is refused: a run's files go in through builtins.uploadFile), reads or
// writes files (no screenshot, pdf, addScriptTag), calls back into this process (no exposeFunction,
// route, waitForEvent) or sends requests from it (no page.request). Functions the body hands to
// evaluate cross as source text and run in the browser page: here they are never compiled into
// anything that runs (Playwright only reads `String(fn)` and `typeof fn`). Regular expressions only
// ever shape selectors that the page matches; none is run here against anything.
import type { Locator, Page } from "playwright-core";
import { checkAddress } from "../builtin-rules.js";
import { MAX_MESSAGE_BYTES, type HostCall, type ScriptHost, type Surface } from "../script-runner.js";
import { FUNCTION, FUNCTION_ARGUMENT, LOCATOR, LOCATOR_BUILDERS, markerOf, NO_FILES, PAGE_BUILDERS, REGEXP, surfaceOf } from "../page-surface.js";
import { boundedCall, isBoundedCall } from "./bounded-values.js";
import { stepRunner, type StepRunner } from "./builtins.js";
import type { BrowserRun } from "./run.js";
import { BLANK_PAGE_URL } from "./web/index.js";

/** What the body sees of a real page: all of it. */
export const SURFACE: Surface = surfaceOf();

/**
 * Something Playwright takes for a function and sends to the page as `source`: it reads only
 * `String(fn)` and `typeof fn`. It does nothing here even if called.
 */
function pageFunction(source: string): () => void {
  const stub = function pageFunction() {};
  Object.defineProperty(stub, "toString", { value: () => source });
  return stub;
}

function plainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

class Decoder {
  constructor(
    private readonly page: Page,
    private readonly call: string,
  ) {}

  /** A value from the body: markers made into what Playwright takes (functions only where allowed). */
  value(value: unknown, functionAllowed = false): unknown {
    if (Array.isArray(value)) return value.map((item) => this.value(item));
    if (!plainObject(value)) return value;
    const marker = markerOf(value);
    if (marker === FUNCTION) {
      if (!functionAllowed || typeof value[FUNCTION] !== "string") {
        throw new TypeError(`${this.call}: a function can't be given here (functions go to evaluate, $eval and waitForFunction, and run in the page)`);
      }
      return pageFunction(value[FUNCTION]);
    }
    if (marker === REGEXP) {
      const [source, flags] = Array.isArray(value[REGEXP]) ? value[REGEXP] : [];
      if (typeof source !== "string" || typeof flags !== "string") throw new TypeError(`${this.call}: a regular expression did not arrive whole`);
      return new RegExp(source, flags);
    }
    if (marker === LOCATOR) return this.locator(value[LOCATOR]);
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.value(item)]));
  }

  /** The Playwright locator a chain of builder calls (`[["locator", "#f"], ["first"]]`) stands for. */
  locator(chain: unknown): Locator {
    if (!Array.isArray(chain) || chain.length === 0) throw new TypeError(`${this.call}: a locator did not arrive whole`);
    let current: Page | Locator = this.page;
    for (const step of chain) {
      const [name, ...args] = Array.isArray(step) ? step : [];
      const builders = current === this.page ? PAGE_BUILDERS : LOCATOR_BUILDERS;
      if (typeof name !== "string" || !builders.includes(name)) throw new TypeError(`${this.call}: ${String(name)} does not make a locator`);
      current = invoke(
        current,
        name,
        args.map((arg) => this.value(arg)),
        this.call,
      ) as Locator;
    }
    return current as Locator;
  }
}

/**
 * Calls `target[method](...args)`. The surface (or a builder list) already let `method` through,
 * so Playwright's object has it; if a Playwright upgrade drops one, the script is told which.
 */
function invoke(target: object, method: string, args: unknown[], call: string): unknown {
  const fn: unknown = (target as Record<string, unknown>)[method];
  if (typeof fn !== "function") throw new TypeError(`${call}: ${method} is not a function in the sandbox's browser`);
  return fn.apply(target, args);
}

/** A short, safe text for a call's first argument in the trace: a selector, an address, a key. */
function shown(args: unknown[]): string {
  const first = args[0];
  if (typeof first !== "string") return "";
  return JSON.stringify(first.length > 80 ? `${first.slice(0, 79)}…` : first);
}

/**
 * The host a script body calls for one step on a real page. `open` gives the step's BrowserRun; it
 * is called at the body's first call, so a body that never touches the page costs no browser.
 *
 * @example
 * const host = realPageHost(() => browserHost.newRun({ files }));
 * await runScriptBody({ content, args, files, host, timeoutMs });
 */
export function realPageHost(open: () => Promise<BrowserRun>): ScriptHost {
  let steps: StepRunner | undefined;
  return {
    surface: SURFACE,
    async call({ on, method, args, chain }: HostCall) {
      const run = await open();
      const page = run.page;
      steps ??= stepRunner(page, run.steps);
      const name = `${on}.${method}`;
      const decoder = new Decoder(page, name);
      const functionAt = FUNCTION_ARGUMENT[name];
      const decoded = args.map((arg, i) => decoder.value(arg, i === functionAt));

      if (on === "builtins") return invoke(run.builtins, method, decoded, name);
      if (method === "setInputFiles") throw new Error(`${name} ${NO_FILES}`);
      if (on === "page" && SURFACE.page[method] === "sync") return syncPageCall(page, method, decoded);

      const target: object = on === "locator" ? decoder.locator(chain) : on === "keyboard" ? page.keyboard : on === "mouse" ? page.mouse : page;
      const action = `${on === "locator" ? String(target) : on}.${method}(${on === "locator" ? "" : shown(decoded)})`;
      return steps(name, action, undefined, async () => {
        // Page data comes back measured in the page: nothing over the cap crosses Playwright's pipe.
        if (isBoundedCall(on, method))
          return boundedCall(page, target as Page | Locator, on, method, decoded, MAX_MESSAGE_BYTES, `${MAX_MESSAGE_BYTES / 2 ** 20} MiB`);
        if (on === "page") return pageCall(page, method, decoded);
        return invoke(target, method, decoded, name);
      });
    },
  };
}

function syncPageCall(page: Page, method: string, args: unknown[]): unknown {
  if (method === "setDefaultTimeout" || method === "setDefaultNavigationTimeout") {
    if (typeof args[0] !== "number" || !(args[0] >= 0)) throw new TypeError(`page.${method}: give a number of milliseconds (0 for none)`);
  }
  return invoke(page, method, args, `page.${method}`);
}

async function pageCall(page: Page, method: string, args: unknown[]): Promise<unknown> {
  switch (method) {
    case "goto":
      checkAddress("page.goto", args[0]);
      // A Response object has no JSON form: a script gets what it would mostly read of it.
      return page
        .goto(args[0], args[1] as Parameters<Page["goto"]>[1])
        .then((response) => (response ? { status: response.status(), url: response.url() } : null));
    case "reload":
    case "goBack":
    case "goForward":
      return page[method](args[0] as Parameters<Page["reload"]>[0]).then((response) => (response ? { status: response.status(), url: response.url() } : null));
    case "setContent":
      // A new page's about:blank has no crypto.subtle: content set there gets a secure origin first.
      if (page.url() === "about:blank") await page.goto(BLANK_PAGE_URL);
      return page.setContent(args[0] as string, args[1] as Parameters<Page["setContent"]>[1]);
    case "waitForSelector":
    case "waitForFunction": {
      // Both resolve to a handle, which has no JSON form (and holds the object in the page until
      // disposed): the wait is what a script is after.
      const handle = (await (page[method] as (...a: unknown[]) => Promise<{ dispose(): Promise<void> } | null>)(...args)) ?? undefined;
      await handle?.dispose();
      return undefined;
    }
    default:
      return invoke(page, method, args, `page.${method}`);
  }
}
