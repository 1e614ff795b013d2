// Locators, made here as Playwright makes them (no call to the page until an action): each is the
// chain of builder calls that made it, sent with each of its actions.
import { apply, arrayFrom, parse, stringify, then, weakSet } from "./intrinsics.js";
import { type Methods, type Surface, surface } from "./calls.js";
import { argumentsJson, chains, type Step } from "./markers.js";

/** A locator's actions (answered by the page) and its builders (making another locator). */
export type LocatorKinds = { methods: Methods; builders: string[] };

function describeChain(chain: Step[]): string {
  let text = "";
  for (let i = 0; i < chain.length; i++) {
    const step = chain[i]!;
    let shown = "";
    for (let j = 1; j < step.length; j++) shown += (j > 1 ? ", " : "") + stringify(step[j]);
    text += `${i ? "." : ""}${step[0]}(${shown})`;
  }
  return text;
}

/** Adds to `object` the builders `names`, each making a locator one step longer than `chain`. */
export function addBuilders(object: Surface, names: string[], chain: Step[] | undefined, actions: LocatorKinds): void {
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    object[name] = function () {
      // Taken now, as Playwright does: changing an options object later changes no locator.
      const args: unknown[] = parse(argumentsJson(name, arguments));
      const step: Step = [name];
      for (let j = 0; j < args.length; j++) step[j + 1] = args[j];
      const next: Step[] = [];
      const length = chain ? chain.length : 0;
      for (let j = 0; j < length; j++) next[j] = chain![j]!;
      next[length] = step;
      return locator(next, actions);
    };
  }
}

function locator(chain: Step[], actions: LocatorKinds): Surface {
  const object = surface("locator", actions.methods, chain);
  addBuilders(object, actions.builders, chain, actions);
  if (object.count) {
    object.all = function () {
      return apply(then, object.count!(), [(count: number) => arrayFrom({ length: count }, (_, i) => object.nth!(i))]);
    };
  }
  object.toString = function () {
    return describeChain(chain);
  };
  apply(weakSet, chains, [object, chain]);
  return object;
}
