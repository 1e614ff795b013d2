/**
 * What the service sends reaches the model only bounded: a result, a trace's details or a
 * README can be megabytes, 10,000 levels deep, or full of control characters, and every
 * character of an answer costs the agent context. Values are copied with long strings and
 * lists cut, deep nesting stopped, and each cut said in place, so the model knows something
 * was left out and how much.
 */
import { isObject } from "../core/json.js";

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

/**
 * One line of at most `max` characters: line breaks, tabs and control characters become
 * spaces (an error from the service must not break the line an agent reads), runs of spaces
 * one space.
 *
 * @example
 * oneLine("Error: boom\n  at line 3: throw x"); // "Error: boom at line 3: throw x"
 */
export function oneLine(text: string, max = 600): string {
  const flat = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ")
    .replace(/ {2,}/g, " ")
    .trim();
  return cutText(flat, max);
}

interface Limits {
  string: number;
  items: number;
}

function copyWithin(value: unknown, limits: Limits, depth: number): { value: unknown; cut: boolean } {
  if (typeof value === "string") return value.length > limits.string ? { value: cutText(value, limits.string), cut: true } : { value, cut: false };
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
    out[cutText(key, limits.string)] = copied.value;
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
 * or too large for JSON.stringify is still answered.
 *
 * @example
 * boundJson({ body: "x".repeat(100_000) }, 1_000).value; // { body: "xxxx…… [99… more characters]" }
 */
export function boundJson(value: unknown, maxChars: number): { value: unknown; cut: boolean } {
  // A list longer than maxChars cannot fit (each item takes a character at least): that is where cutting starts.
  const limits: Limits = { string: maxChars, items: maxChars };
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
