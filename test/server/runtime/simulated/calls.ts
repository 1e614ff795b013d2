// How the simulated page reads a script's calls: a locator's chain as text (for trace steps and
// errors), a function argument as code for the page to compile, a builtin's target as a chain.
import { FUNCTION, LOCATOR, markerOf, REGEXP } from "../page-surface.js";

/** One builder call of a locator: its name, then its arguments. */
export type Step = [string, ...unknown[]];

/** A filter's options in the order Playwright applies them, each written as a filter of its own. */
const FILTER_ORDER = ["hasText", "hasNotText", "has", "hasNot", "visible"];

const isOptions = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && markerOf(value) === undefined;

/** A string in single quotes, escaped as Playwright escapes one in a locator. */
function quote(text: string): string {
  return `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

/** A text, a regular expression or a locator (both given as their markers) as Playwright writes it. */
function shownValue(value: unknown): string {
  if (typeof value === "string") return quote(value);
  if (markerOf(value) === REGEXP) {
    const [source, flags] = (value as Record<string, unknown[]>)[REGEXP] ?? [];
    return `/${String(source)}/${String(flags)}`;
  }
  if (markerOf(value) === LOCATOR) return describeChain((value as Record<string, unknown>)[LOCATOR]);
  return JSON.stringify(value) ?? "undefined";
}

/** Options as Playwright writes them: `{ name: 'Upload', exact: true }`. */
function shownOptions(options: Record<string, unknown>): string {
  const entries = Object.entries(options).filter(([, value]) => value !== undefined);
  return `{ ${entries.map(([key, value]) => `${key}: ${shownValue(value)}`).join(", ")} }`;
}

/** Each option of a locator or a filter as a filter step of its own, in Playwright's order. */
function filterSteps(options: unknown): Step[] {
  if (!isOptions(options)) return [];
  const rank = (key: string) => (FILTER_ORDER.includes(key) ? FILTER_ORDER.indexOf(key) : FILTER_ORDER.length);
  return Object.entries(options)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([key, value]) => ["filter", { [key]: value }]);
}

/**
 * The chain as Playwright reads a locator back: one option per filter, and a text filter right
 * after a CSS locator folded into that locator's options (`locator('li', { hasText: 'a' })`).
 */
function normalised(chain: unknown[]): Step[] {
  const steps: Step[] = [];
  for (const step of chain) {
    if (!Array.isArray(step)) steps.push(["?"]);
    else if (step[0] === "locator" && typeof step[1] === "string") steps.push(["locator", step[1]], ...filterSteps(step[2]));
    else if (step[0] === "filter") steps.push(...filterSteps(step[1]));
    else steps.push(step as Step);
  }
  return steps.reduce<Step[]>((folded, step) => {
    const previous = folded.at(-1);
    const text = step[0] === "filter" && isOptions(step[1]) && ("hasText" in step[1] || "hasNotText" in step[1]);
    if (text && previous?.[0] === "locator" && typeof previous[1] === "string" && previous.length === 2) previous.push(step[1]);
    else folded.push(step);
    return folded;
  }, []);
}

/** One builder call as Playwright writes it: nth(0) is first(), nth(-1) is last(). */
function shownStep([name, ...args]: Step): string {
  if (name === "nth" && (args[0] === 0 || args[0] === -1)) return args[0] === 0 ? "first()" : "last()";
  const shownArgs = args.map((arg) => (isOptions(arg) ? shownOptions(arg) : shownValue(arg)));
  return `${name}(${shownArgs.filter((arg) => arg !== "{  }").join(", ")})`;
}

/** A locator's chain as Playwright writes the locator (`locator('#f').first()`), for trace steps and errors. */
export function describeChain(chain: unknown): string {
  if (!Array.isArray(chain)) return "locator";
  const text = normalised(chain).map(shownStep).join(".");
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/** A short, safe text for a call's first argument in the trace: a selector, an address, a key. */
export function shown(args: unknown[]): string {
  const first = args[0];
  if (typeof first !== "string") return "";
  return JSON.stringify(first.length > 80 ? `${first.slice(0, 79)}…` : first);
}

/** The code the page compiles for a function argument (its source) or an expression string. */
export function codeOf(value: unknown, call: string): string {
  if (markerOf(value) === FUNCTION && typeof (value as Record<string, unknown>)[FUNCTION] === "string")
    return `(${(value as Record<string, string>)[FUNCTION]})`;
  if (typeof value === "string") return `(${value})`;
  throw new TypeError(`${call}: give a function (or an expression as a string) to run in the page`);
}

/** Refuses a function anywhere but where one runs in the page. */
export function noFunctions(value: unknown, call: string): void {
  if (Array.isArray(value)) return value.forEach((item) => noFunctions(item, call));
  if (typeof value !== "object" || value === null) return;
  if (markerOf(value) === FUNCTION)
    throw new TypeError(`${call}: a function can't be given here (functions go to evaluate, $eval and waitForFunction, and run in the page)`);
  for (const item of Object.values(value)) noFunctions(item, call);
}

/** A builtin's target (a selector, a locator, or a chain like `[{ kind: "role", body: "textbox" }]`) as a locator's chain. */
export function pasteChain(target: unknown): Step[] {
  if (typeof target === "string") return [["locator", target], ["first"]];
  if (markerOf(target) === LOCATOR) return (target as Record<string, Step[]>)[LOCATOR]!;
  if (!Array.isArray(target) || target.length === 0) throw new Error("paste: give a selector or a locator to paste into");
  const chain: Step[] = [];
  for (const step of target as Array<{ kind?: unknown; body?: unknown; name?: unknown }>) {
    const body = step?.body;
    const need = (what: string) => {
      if (typeof body !== "string") throw new Error(`paste: the chain step ${JSON.stringify(step)} needs ${what} as its body`);
      return body;
    };
    switch (step?.kind) {
      case "css":
        chain.push(["locator", need("a CSS selector")]);
        break;
      case "role":
        chain.push(["getByRole", need("a role"), ...(step.name === undefined ? [] : [{ name: step.name }])]);
        break;
      case "text":
        chain.push(["getByText", need("the text")]);
        break;
      case "label":
        chain.push(["getByLabel", need("the label")]);
        break;
      case "placeholder":
        chain.push(["getByPlaceholder", need("the placeholder")]);
        break;
      case "first":
      case "last":
      case "nth":
        if (chain.length === 0) throw new Error(`paste: a chain cannot start with ${step.kind}`);
        chain.push(step.kind === "nth" ? ["nth", Number(body)] : [step.kind]);
        break;
      default:
        throw new Error(`paste: unknown chain step kind ${JSON.stringify(step?.kind)} (use css, role, text, label, placeholder, first, last or nth)`);
    }
  }
  return chain;
}
