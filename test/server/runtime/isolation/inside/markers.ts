// Values JSON has no form for, sent as one-key marker objects the host reads: a function as its
// source text (page.evaluate runs it in the browser page, never here nor in the server), a regular
// expression as its source and flags, a locator as the chain of calls that made it.
import { RangeErrorType, TypeErrorType, WeakMapType, apply, functionSource, regexpFlags, regexpSource, stringify, weakGet } from "./intrinsics.js";
import { maxText, maxTextLabel } from "./host.js";
import { errorText } from "./errors.js";

const FUNCTION = "\u0000function";
const REGEXP = "\u0000regexp";
const LOCATOR = "\u0000locator";

/** One builder call of a locator: its name, then its arguments. */
export type Step = [string, ...unknown[]];
/** Locator objects this side made, and the chain each stands for. */
export const chains: WeakMap<object, Step[]> = new WeakMapType();

function marked(_key: string, value: unknown): unknown {
  if (typeof value === "function") return { [FUNCTION]: apply(functionSource, value, []) };
  if (typeof value !== "object" || value === null) return value;
  const chain = apply(weakGet, chains, [value]);
  if (chain !== undefined) return { [LOCATOR]: chain };
  let source: string;
  try {
    source = apply(regexpSource, value, []);
  } catch (_) {
    return value;
  }
  return { [REGEXP]: [source, apply(regexpFlags, value, [])] };
}

/** `given` as a JSON array of arguments: trailing undefined ones dropped, as if not given. */
export function argumentsJson(what: string, given: ArrayLike<unknown>): string {
  let count = given.length;
  while (count > 0 && given[count - 1] === undefined) count--;
  const list: unknown[] = [];
  for (let i = 0; i < count; i++) list[i] = given[i] === undefined ? null : given[i];
  let text: string;
  try {
    text = stringify(list, marked);
  } catch (error) {
    throw new TypeErrorType(`${what}: its arguments must be JSON values (${errorText(error)})`);
  }
  return text;
}

/** The call as JSON; `chain` (already JSON) for a locator's. */
export function request(on: string, method: string, given: ArrayLike<unknown>, chain?: Step[]): string {
  const args = argumentsJson(`${on}.${method}`, given);
  // Refused here, before it leaves: the server never holds a call over the limit.
  if (args.length > maxText) throw new RangeErrorType(`${on}.${method}: its arguments are over ${maxTextLabel} as JSON`);
  return `{"on":${stringify(on)},"method":${stringify(method)},"args":${args}${chain === undefined ? "" : `,"chain":${stringify(chain)}`}}`;
}
