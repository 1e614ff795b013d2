// What the page hands back is measured in the page, before it leaves: playwright-core reads every
// message from Chromium whole into the server's thread (a ~512 MiB string there threw inside its
// pipe, uncaught, and took the server down; a 200 MB one cost 450 MB of resident memory, kept). So
// the calls that bring page data back run as a function in the page that serialises the value to
// JSON and returns it only when it is within the cap, else a small refusal: nothing larger than the
// cap crosses the pipe.
//
// Covered: evaluate, $eval, $$eval, locator.evaluate and evaluateAll (the script's own function,
// wrapped), and content, title, and the text readers of page and locator (run as the same
// functions Playwright uses). A value comes back as its JSON (what the script gets anyway: calls
// and results are JSON), so a Date arrives as its ISO text, as it did before.
import type { Locator, Page } from "playwright-core";
import { present } from "../../contract/present.js";

/** What the bounded function returns: the value's JSON, none (undefined), or how long it was. */
type Bounded = { json: string } | { none: true } | { over: number };

/** The text of an async page function that runs `call` on its arguments and bounds the result. */
function boundedSource(call: string, cap: number): string {
  return `async (...given) => {
    const value = await (${call})(...given);
    if (value === undefined) return { none: true };
    if (typeof value === "string" && value.length > ${cap}) return { over: value.length };
    const json = JSON.stringify(value);
    if (json === undefined) return { none: true };
    return json.length > ${cap} ? { over: json.length } : { json };
  }`;
}

/** Something Playwright takes for a function: it reads only `String(fn)` and `typeof fn`. */
function pageFunction(source: string): () => void {
  const stub = function pageFunction() {};
  Object.defineProperty(stub, "toString", { value: () => source });
  return stub;
}

/**
 * The script's own function (a function's source, or an expression given as a string), as the
 * inside of a bounded one. An expression is evaluated in the page (indirect eval: its value, or,
 * when it is a function, what it returns).
 */
function scriptCall(given: unknown): string {
  if (typeof given === "function") return `(${String(given)})`;
  return `((...a) => { const f = (0, eval)(${JSON.stringify(String(given))}); return typeof f === "function" ? f(...a) : f; })`;
}

function unpack(bounded: Bounded, name: string, capLabel: string): unknown {
  if ("over" in bounded) throw new RangeError(`${name}: its result is over ${capLabel} as JSON`);
  if ("none" in bounded) return undefined;
  return JSON.parse(bounded.json);
}

/** Readers of the page and of a locator, as Playwright runs them in the page. */
const PAGE_READERS: Record<string, string> = {
  content: `() => { let text = ""; if (document.doctype) text = new XMLSerializer().serializeToString(document.doctype); if (document.documentElement) text += document.documentElement.outerHTML; return text; }`,
  title: `() => document.title`,
};
const ELEMENT_READERS: Record<string, string> = {
  textContent: `(element) => element.textContent`,
  innerText: `(element) => { if (!(element instanceof HTMLElement)) throw new Error("Node is not an HTMLElement"); return element.innerText; }`,
  innerHTML: `(element) => { if (!(element instanceof Element)) throw new Error("Node is not an Element"); return element.innerHTML; }`,
  inputValue: `(element) => { if (!["INPUT", "TEXTAREA", "SELECT"].includes(element.nodeName)) throw new Error("Node is not an <input>, <textarea> or <select> element"); return element.value; }`,
  getAttribute: `(element, name) => element.getAttribute(name)`,
};
const LIST_READERS: Record<string, string> = {
  allTextContents: `(elements) => elements.map((element) => element.textContent || "")`,
  allInnerTexts: `(elements) => elements.map((element) => element.innerText)`,
};
const EVALUATORS = new Set(["page.evaluate", "page.$eval", "page.$$eval", "locator.evaluate", "locator.evaluateAll"]);

/**
 * Whether `name` (`page.evaluate`, `locator.textContent`...) brings page data back and is
 * answered by boundedCall.
 */
export function isBoundedCall(on: string, method: string): boolean {
  if (EVALUATORS.has(`${on}.${method}`)) return true;
  if (on === "page") return method in PAGE_READERS || method in ELEMENT_READERS;
  return on === "locator" && (method in ELEMENT_READERS || method in LIST_READERS);
}

/**
 * Runs a call that brings page data back with its value bounded in the page. `args` are the
 * call's decoded arguments (a function as Playwright takes it).
 *
 * @example
 * await boundedCall(page, page, "page", "evaluate", [fn, arg], 1024 * 1024, "1 MiB");
 */
export async function boundedCall(
  page: Page,
  target: Page | Locator,
  on: string,
  method: string,
  args: unknown[],
  cap: number,
  capLabel: string,
): Promise<unknown> {
  const name = `${on}.${method}`;
  const bounded = (call: string) => pageFunction(boundedSource(call, cap));
  const pageReader = on === "page" ? PAGE_READERS[method] : undefined;
  const listReader = LIST_READERS[method];
  let result: Bounded;
  if (name === "page.evaluate") {
    result = (await page.evaluate(bounded(scriptCall(args[0])) as never, args[1])) as Bounded;
  } else if (name === "page.$eval" || name === "page.$$eval") {
    result = (await page[method as "$eval"](args[0] as string, bounded(scriptCall(args[1])) as never, args[2])) as Bounded;
  } else if (name === "locator.evaluate") {
    result = (await (target as Locator).evaluate(bounded(scriptCall(args[0])) as never, args[1], args[2] as { timeout?: number })) as Bounded;
  } else if (name === "locator.evaluateAll") {
    result = (await (target as Locator).evaluateAll(bounded(scriptCall(args[0])) as never, args[1])) as Bounded;
  } else if (pageReader !== undefined) {
    result = (await page.evaluate(bounded(pageReader) as never)) as Bounded;
  } else if (listReader !== undefined) {
    result = (await (target as Locator).evaluateAll(bounded(listReader) as never)) as Bounded;
  } else {
    // An element reader: on a locator, or on the page's first match of a selector (as Playwright's
    // page methods take the first match).
    const locator = on === "page" ? page.locator(args[0] as string).first() : (target as Locator);
    const rest = on === "page" ? args.slice(1) : args;
    const argument = method === "getAttribute" ? rest[0] : undefined;
    const options = (method === "getAttribute" ? rest[1] : rest[0]) as { timeout?: number } | undefined;
    const reader = present(ELEMENT_READERS[method], `an element reader for ${name} (isBoundedCall chose it)`);
    result = (await locator.evaluate(bounded(reader) as never, argument, options)) as Bounded;
  }
  return unpack(result, name, capLabel);
}
