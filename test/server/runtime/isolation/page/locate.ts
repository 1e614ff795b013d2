// Locators as Playwright resolves them, for the simulated page: a chain of builder calls
// (`locator(css)`, `getByRole(role, { name })`, `filter({ hasText })`, `first()`, `or(other)`...)
// made by the script, turned into the elements it stands for, in document order. Selectors are
// CSS (Playwright's own engines, `text=` or `>>`, are not read here).
import type { Document } from "./document.js";
import { descendants, Element } from "./element.js";
import type { Node } from "./nodes.js";
import { accessibleName, isAccessible, isVisible, labelsOf, levelOf, nameMatches, roleOf } from "./roles.js";

const REGEXP = "\u0000regexp";
const LOCATOR = "\u0000locator";

/** One builder call of a locator: its name, then its arguments (as JSON, with markers). */
export type Step = [string, ...unknown[]];

type Options = Record<string, unknown>;

const squash = (text: string) => text.replace(/\s+/g, " ").trim();

/** A marker's content when `value` is that marker (`{ "\u0000regexp": [...] }`), else undefined. */
function marker(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === key ? (value as Record<string, unknown>)[key] : undefined;
}

/** A text to match, or a regular expression made from its marker. */
export function textOrPattern(value: unknown, what: string): string | RegExp {
  const pattern = marker(value, REGEXP);
  if (pattern !== undefined) {
    const [source, flags] = Array.isArray(pattern) ? pattern : [];
    if (typeof source !== "string" || typeof flags !== "string") throw new TypeError(`${what}: a regular expression did not arrive whole`);
    return new RegExp(source, flags);
  }
  if (typeof value !== "string") throw new TypeError(`${what}: give a text or a regular expression`);
  return value;
}

function chainOf(value: unknown, what: string): Step[] {
  const chain = marker(value, LOCATOR);
  if (!Array.isArray(chain) || chain.length === 0) throw new TypeError(`${what}: give a locator`);
  return chain as Step[];
}

function cssOf(selector: unknown): string {
  if (typeof selector !== "string" || !selector.trim()) throw new TypeError("locator: give a selector");
  const css = selector.startsWith("css=") ? selector.slice(4) : selector;
  if (/^(text|xpath|id|data-testid|internal:[\w-]+|role|nth)=|^\/\/|>>/.test(css.trim())) {
    throw new Error(`the simulated page reads CSS selectors only (${JSON.stringify(selector)}): use getByText, getByRole... or a CSS selector`);
  }
  return css;
}

/** The text of an element a text match reads: its text content, whitespace squashed. */
function textOf(element: Element): string {
  return squash(element.textContent ?? "");
}

function textMatches(element: Element, wanted: string | RegExp, exact: boolean): boolean {
  return nameMatches(textOf(element), wanted, exact);
}

/** Elements matching the text whose element children do not match it too: the innermost ones. */
function byText(candidates: Element[], wanted: string | RegExp, exact: boolean): Element[] {
  return candidates.filter(
    (element) =>
      !["script", "style", "head", "title"].includes(element.localName) &&
      textMatches(element, wanted, exact) &&
      !element.children.some((child) => textMatches(child, wanted, exact)),
  );
}

function byRole(candidates: Element[], role: unknown, options: Options): Element[] {
  if (typeof role !== "string" || !role) throw new TypeError("getByRole: give a role");
  const name = options.name === undefined ? undefined : textOrPattern(options.name, "getByRole");
  return candidates.filter((element) => {
    if (roleOf(element) !== role) return false;
    if (!options.includeHidden && !isAccessible(element)) return false;
    if (name !== undefined && !nameMatches(accessibleName(element), name, options.exact === true)) return false;
    if (options.level !== undefined && levelOf(element) !== Number(options.level)) return false;
    if (options.checked !== undefined && Boolean((element as unknown as { checked?: boolean }).checked) !== options.checked) return false;
    if (options.disabled !== undefined && element.hasAttribute("disabled") !== options.disabled) return false;
    return true;
  });
}

function byAttribute(candidates: Element[], attribute: string, wanted: string | RegExp, exact: boolean): Element[] {
  return candidates.filter((element) => {
    const value = element.getAttribute(attribute);
    return value !== null && nameMatches(value, wanted, exact);
  });
}

function byLabel(candidates: Element[], wanted: string | RegExp, exact: boolean): Element[] {
  return candidates.filter((element) => {
    const aria = element.getAttribute("aria-label");
    if (aria !== null && nameMatches(aria, wanted, exact)) return true;
    return ["input", "textarea", "select", "button"].includes(element.localName) && labelsOf(element).some((label) => textMatches(label, wanted, exact));
  });
}

/** The elements `chain` stands for, each step applied to the elements of the one before. */
export function resolve(document: Document, chain: unknown, roots: Node[] = [document as unknown as Node]): Element[] {
  if (!Array.isArray(chain)) throw new TypeError("a locator did not arrive whole");
  let current: Element[] | null = null;
  for (const step of chain) {
    if (!Array.isArray(step) || typeof step[0] !== "string") throw new TypeError("a locator did not arrive whole");
    current = apply(document, step as Step, current, roots);
  }
  return current ?? [];
}

/** The elements below `scope` (the page's roots before the first step), in document order. */
function below(scope: Element[] | null, roots: Node[]): Element[] {
  const found = new Set<Element>();
  for (const root of scope ?? roots) for (const element of descendants(root)) found.add(element);
  return [...found];
}

function inOrder(document: Document, elements: Iterable<Element>): Element[] {
  const order = new Map(descendants(document as unknown as Node).map((element, i) => [element, i]));
  return [...new Set(elements)].filter((e) => order.has(e)).sort((a, b) => order.get(a)! - order.get(b)!);
}

function apply(document: Document, [name, ...args]: Step, current: Element[] | null, roots: Node[]): Element[] {
  const options = (typeof args[1] === "object" && args[1] !== null ? args[1] : {}) as Options;
  const exact = options.exact === true;
  switch (name) {
    case "locator": {
      const inner = marker(args[0], LOCATOR);
      const found =
        inner !== undefined
          ? (current ?? [document as unknown as Element]).flatMap((root) => resolve(document, chainOf(args[0], "locator"), [root as unknown as Node]))
          : (current ?? roots.map((root) => root as unknown as Element)).flatMap((root) => root.querySelectorAll(cssOf(args[0])));
      return filter(document, inOrder(document, found), options);
    }
    case "getByRole":
      return byRole(below(current, roots), args[0], options);
    case "getByText":
      return byText(below(current, roots), textOrPattern(args[0], name), exact);
    case "getByLabel":
      return byLabel(below(current, roots), textOrPattern(args[0], name), exact);
    case "getByPlaceholder":
      return byAttribute(below(current, roots), "placeholder", textOrPattern(args[0], name), exact);
    case "getByAltText":
      return byAttribute(below(current, roots), "alt", textOrPattern(args[0], name), exact);
    case "getByTitle":
      return byAttribute(below(current, roots), "title", textOrPattern(args[0], name), exact);
    case "getByTestId":
      return byAttribute(below(current, roots), "data-testid", textOrPattern(args[0], name), true);
    case "filter":
      return filter(document, current ?? [], (typeof args[0] === "object" && args[0] !== null ? args[0] : {}) as Options);
    case "first":
      return (current ?? []).slice(0, 1);
    case "last":
      return (current ?? []).slice(-1);
    case "nth": {
      const list = current ?? [];
      const index = Number(args[0]);
      if (!Number.isInteger(index)) throw new TypeError("nth: give a whole number");
      const picked = list.at(index);
      return picked ? [picked] : [];
    }
    case "and":
    case "or": {
      const other = resolve(document, chainOf(args[0], name), roots);
      const mine = current ?? [];
      return name === "and" ? mine.filter((e) => other.includes(e)) : inOrder(document, [...mine, ...other]);
    }
    default:
      throw new TypeError(`${name} does not make a locator on the simulated page`);
  }
}

/** Playwright's filter options: hasText, hasNotText, has, hasNot, visible. */
function filter(document: Document, elements: Element[], options: Options): Element[] {
  let kept = elements;
  if (options.hasText !== undefined) {
    const wanted = textOrPattern(options.hasText, "filter");
    kept = kept.filter((e) => textMatches(e, wanted, false));
  }
  if (options.hasNotText !== undefined) {
    const unwanted = textOrPattern(options.hasNotText, "filter");
    kept = kept.filter((e) => !textMatches(e, unwanted, false));
  }
  if (options.has !== undefined) {
    const chain = chainOf(options.has, "filter");
    kept = kept.filter((e) => resolve(document, chain, [e as unknown as Node]).length > 0);
  }
  if (options.hasNot !== undefined) {
    const chain = chainOf(options.hasNot, "filter");
    kept = kept.filter((e) => resolve(document, chain, [e as unknown as Node]).length === 0);
  }
  if (options.visible !== undefined) kept = kept.filter((e) => isVisible(e) === Boolean(options.visible));
  return kept;
}
