// What a script's `page` is made of, for both pages a script may run against (the real browser's,
// browser/bridge.ts, and the simulated one, simulated/host.ts): the method names, where a function
// may be given, and the markers that carry what JSON has no form for (isolation/inside/markers.ts
// makes them on the body's side).
import type { CallKind, Surface } from "./script-runner.js";

/** Methods of the given kind, by name. */
export const each = (kind: CallKind, names: readonly string[]): Record<string, CallKind> => Object.fromEntries(names.map((name) => [name, kind]));

/**
 * Methods a page and a locator both have, acting on one element: on the page a selector string
 * (the first argument) picks it, a locator is it.
 */
export const PAGE_ACTIONS = [
  "click",
  "dblclick",
  "fill",
  "type",
  "press",
  "check",
  "uncheck",
  "hover",
  "focus",
  "selectOption",
  "dispatchEvent",
  "textContent",
  "innerText",
  "innerHTML",
  "inputValue",
  "getAttribute",
  "isVisible",
  "isHidden",
  "isChecked",
  "isEnabled",
  "isDisabled",
  "isEditable",
];

/** A locator's methods: the page's above, and those only a locator has. */
export const LOCATOR_ACTIONS = [
  ...PAGE_ACTIONS,
  "pressSequentially",
  "setChecked",
  "blur",
  "clear",
  "selectText",
  "scrollIntoViewIfNeeded",
  "dragTo",
  "allTextContents",
  "allInnerTexts",
  "boundingBox",
  "count",
  "waitFor",
  "evaluate",
  "evaluateAll",
  "setInputFiles",
];

/** What makes a locator, on the page and on a locator. */
export const PAGE_BUILDERS = ["locator", "getByRole", "getByText", "getByLabel", "getByPlaceholder", "getByTestId", "getByAltText", "getByTitle"];
export const LOCATOR_BUILDERS = [...PAGE_BUILDERS, "filter", "first", "last", "nth", "and", "or"];

/** Where a function may be given: the argument that is run in the page. */
export const FUNCTION_ARGUMENT: Readonly<Record<string, number>> = {
  "page.evaluate": 0,
  "page.waitForFunction": 0,
  "page.$eval": 1,
  "page.$$eval": 1,
  "locator.evaluate": 0,
  "locator.evaluateAll": 0,
};

/** The one-key markers of a function (its source), a regular expression ([source, flags]) and a locator (its chain). */
export const FUNCTION = "\u0000function";
export const REGEXP = "\u0000regexp";
export const LOCATOR = "\u0000locator";

/** Why setInputFiles is refused on both pages. */
export const NO_FILES =
  "is not available to scripts: put a run's file into a file field with builtins.uploadFile(selector, input), the same way for bytes and named files";

/** The marker key of a one-key marker object, or undefined. */
export function markerOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 && (keys[0] === FUNCTION || keys[0] === REGEXP || keys[0] === LOCATOR) ? keys[0] : undefined;
}

/** What a page cannot do that the real browser's can, by the part of the surface it is on. */
export interface Missing {
  page?: readonly string[];
  keyboard?: readonly string[];
  /** Element actions, missing from the page's (by selector) and the locator's alike. */
  actions?: readonly string[];
}

/**
 * What a script body sees of a page: the real browser's whole surface, less what this page
 * cannot do (`missing`), so both pages offer one surface and differ only where said.
 */
export function surfaceOf(missing: Missing = {}): Surface {
  const without = (names: readonly string[], gone: readonly string[] = []) => names.filter((name) => !gone.includes(name));
  const actions = (names: readonly string[]) => without(names, missing.actions);
  return {
    page: {
      ...each("sync", ["url", "isClosed", "viewportSize", "setDefaultTimeout", "setDefaultNavigationTimeout"]),
      ...each(
        "async",
        without(
          [
            "goto",
            "reload",
            "goBack",
            "goForward",
            "setContent",
            "content",
            "title",
            "evaluate",
            "$eval",
            "$$eval",
            "waitForTimeout",
            "waitForSelector",
            "waitForLoadState",
            "waitForFunction",
            "setViewportSize",
            "setInputFiles",
            ...actions(PAGE_ACTIONS),
          ],
          missing.page,
        ),
      ),
    },
    builtins: each("async", ["goto", "waitFor", "paste", "pressKey", "uploadFile", "download"]),
    keyboard: each("async", without(["press", "type", "down", "up", "insertText"], missing.keyboard)),
    mouse: each("async", ["click", "dblclick", "move", "down", "up", "wheel"]),
    locator: each("async", actions(LOCATOR_ACTIONS)),
    builders: { page: PAGE_BUILDERS, locator: LOCATOR_BUILDERS },
  };
}
