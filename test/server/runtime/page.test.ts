// The simulated page's builtins refuse bad arguments with the lines the real browser's give
// (browser/host.slow.test.ts holds that side): both take their rules from builtin-rules.ts.
import { describe, expect, it } from "vitest";
import { createSimulatedBrowser, newBrowserState } from "./page.js";

describe("the simulated page's builtins", () => {
  it("refuse a bad state, paste target, text or key, each as a failed trace step", async () => {
    const { builtins, steps } = createSimulatedBrowser({}, newBrowserState());
    await builtins.waitFor("h1", "visible");
    await expect(builtins.waitFor("h1", "shown")).rejects.toThrow("waitFor: state must be one of attached, detached, visible, hidden");
    await expect(builtins.waitFor("  ")).rejects.toThrow("waitFor: give a CSS selector (a non-empty string)");
    await expect(builtins.paste("", "x")).rejects.toThrow("paste: give a selector or a locator to paste into");
    await expect(builtins.paste("textarea", 5 as unknown as string)).rejects.toThrow("paste: text must be a string (got number)");
    await expect(builtins.pressKey("")).rejects.toThrow('pressKey: give a key, e.g. "Enter" or "Control+Enter"');
    expect(steps.map(({ action, ok }) => [action, ok])).toEqual([
      ["waitFor h1 (visible)", true],
      ["waitFor h1 (shown)", false],
      ["waitFor    (visible)", false],
      ["paste into ", false],
      ["paste into textarea", false],
      ["pressKey ", false],
    ]);
  });
});
