// How the simulated page reads a script's calls: a locator's chain as text (for trace steps and
// errors), a function argument as code for the page to compile, a builtin's target as a chain.
import { FUNCTION, LOCATOR, markerOf } from "../page-surface.js";

/** One builder call of a locator: its name, then its arguments. */
export type Step = [string, ...unknown[]];

/** A locator's chain as Playwright writes a locator, for trace steps and errors. */
export function describeChain(chain: unknown): string {
  if (!Array.isArray(chain)) return "locator";
  const text = chain
    .map((step) =>
      Array.isArray(step)
        ? `${String(step[0])}(${step
            .slice(1)
            .map((arg) => JSON.stringify(arg) ?? "")
            .join(", ")})`
        : "?",
    )
    .join(".");
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
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
