/**
 * What the service sends reaches the model only bounded: a result, a trace's details or a
 * README can be megabytes, 10,000 levels deep, or full of control characters, and every
 * character of an answer costs the agent context. Values are copied with long strings and
 * lists cut, deep nesting stopped, and each cut said in place, so the model knows something
 * was left out and how much.
 */
import { isObject } from "../../core/json.js";
import { ACTING, visibleText } from "../../core/visible-text.js";

/** How deep a copied value may nest; deeper levels are replaced by a note. */
const MAX_DEPTH = 20;
/** The smallest a string or a list is cut to while shrinking a value to fit. */
const MIN_STRING = 40;
const MIN_ITEMS = 3;

/**
 * `text` cut to `max` characters, saying how many were left out.
 *
 * @example
 * cutText("a".repeat(1000), 10); // "aaaaaaaaaa… [990 more characters]"
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [${text.length - max} more characters]`;
}

/** A run of the characters that act instead of showing (core/visible-text.ts names them). */
const ACTING_RUN = new RegExp(`${ACTING.source}+`, "g");

/**
 * One line of at most `max` characters: line breaks, tabs and every other acting character
 * (controls, line separators, bidi overrides) become spaces (an error from the service must not
 * break or reorder the line an agent reads), runs of spaces one space.
 *
 * @example
 * oneLine("Error: boom\n  at line 3: throw x"); // "Error: boom at line 3: throw x"
 */
export function oneLine(text: string, max = 600): string {
  const flat = text.replace(ACTING_RUN, " ").replace(/ {2,}/g, " ").trim();
  return cutText(flat, max);
}

/**
 * Text from the service (a name, a description, an error) as the agent is shown it: kept on its
 * lines, its other acting characters (ESC, BEL, U+2028, bidi overrides) written as `\u` escapes
 * (core/visible-text.ts), cut to `max` characters.
 *
 * @example
 * shownText("Reads\u001b[2J the title", 200); // "Reads\\u001b[2J the title"
 */
export function shownText(text: string, max: number): string {
  return cutText(visibleText(text, "\n"), max);
}

interface Limits {
  string: number;
  items: number;
  /** Strings (and keys) as shownText writes them. */
  visible: boolean;
}

function copyWithin(value: unknown, limits: Limits, depth: number): { value: unknown; cut: boolean } {
  if (typeof value === "string") {
    const text = limits.visible ? visibleText(value, "\n") : value;
    return text.length > limits.string ? { value: cutText(text, limits.string), cut: true } : { value: text, cut: false };
  }
  if (value === null || typeof value !== "object") {
    // Numbers, booleans; undefined and functions cannot come from JSON but are dropped to null.
    return typeof value === "number" || typeof value === "boolean" ? { value, cut: false } : { value: null, cut: value !== null };
  }
  if (depth >= MAX_DEPTH) return { value: `[… nested deeper than ${MAX_DEPTH} levels]`, cut: true };
  let cut = false;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value.slice(0, limits.items)) {
      const copied = copyWithin(item, limits, depth + 1);
      cut ||= copied.cut;
      out.push(copied.value);
    }
    if (value.length > limits.items) {
      out.push(`[… ${value.length - limits.items} more items]`);
      cut = true;
    }
    return { value: out, cut };
  }
  if (!isObject(value)) return { value: null, cut: true };
  const out: Record<string, unknown> = {};
  const keys = Object.keys(value);
  for (const key of keys.slice(0, limits.items)) {
    const copied = copyWithin(value[key], limits, depth + 1);
    cut ||= copied.cut;
    out[cutText(limits.visible ? visibleText(key, "\n") : key, limits.string)] = copied.value;
  }
  if (keys.length > limits.items) {
    out["…"] = `[${keys.length - limits.items} more keys]`;
    cut = true;
  }
  return { value: out, cut };
}

/**
 * A copy of a JSON value whose JSON text is at most about `maxChars` characters: strings and
 * lists are cut, halving their allowance until it fits; nesting stops at 20 levels. `cut` says
 * whether anything was left out. The original is never serialised whole, so a value too deep
 * or too large for JSON.stringify is still answered. With `visible`, every string is written as
 * shownText writes it (for the service's text, not a script's result, which is data).
 *
 * @example
 * boundJson({ body: "x".repeat(100_000) }, 1_000).value; // { body: "xxxx…… [99… more characters]" }
 */
export function boundJson(value: unknown, maxChars: number, options: { visible?: boolean } = {}): { value: unknown; cut: boolean } {
  // A list longer than maxChars cannot fit (each item takes a character at least): that is where cutting starts.
  const limits: Limits = { string: maxChars, items: maxChars, visible: options.visible === true };
  for (;;) {
    const copied = copyWithin(value, limits, 0);
    const text = JSON.stringify(copied.value) ?? "null";
    if (text.length <= maxChars) return copied;
    if (limits.string === MIN_STRING && limits.items === MIN_ITEMS) {
      // Still too large (many keys at every level): the beginning of its JSON, as text.
      return { value: cutText(text, maxChars), cut: true };
    }
    limits.string = Math.max(MIN_STRING, Math.floor(limits.string / 2));
    limits.items = Math.max(MIN_ITEMS, Math.floor(limits.items / 2));
  }
}
