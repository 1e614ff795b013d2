// The real browser's page, as an isolated script body sees it (test/server/runtime/browser/bridge.ts): a
// Playwright-like page with locators, keyboard and mouse, whose calls cross as JSON. None of it
// leads back to the server's realm, functions given to evaluate run in the browser page and never
// in the server, and nothing of it reads the server machine's files. Every probe is a script created
// through the API and run through POST /run (in-process, the sandbox's handlers, a real Chromium).
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useScriptProbes } from "./fixtures/script-probes.js";

// After each failed probe, the browser still serves the next run.
const probes = useScriptProbes(
  { runTimeoutMs: 60_000 },
  { content: `await page.setContent("<p>still</p>"); return { still: await page.locator("p").textContent() };`, result: { still: "still" } },
);

async function expectResult(content: string): Promise<unknown> {
  const ran = await probes.createAndRun(content);
  expect(ran.body.error).toBeUndefined();
  expect(ran.status).toBe(200);
  return ran.body.result;
}

async function expectFailedRun(content: string, error: RegExp | string): Promise<void> {
  await probes.expectFailedRun(await probes.createAndRun(content), error);
}

const NO_CODE_FROM_STRINGS = "EvalError: scripts can't run code given as a string (eval, Function): write it in the script";

describe("the real page's surface leads nowhere", () => {
  const probes: Array<[string, string]> = [
    ["page.locator()", `return { pid: page.locator("p").constructor.constructor("return process")().pid };`],
    ["a chained locator", `return { pid: page.getByRole("button").filter({ hasText: /a/i }).first().constructor.constructor("return process")().pid };`],
    ["a locator action", `return { pid: page.locator("p").click.constructor("return process")().pid };`],
    ["page.keyboard", `return { pid: page.keyboard.constructor.constructor("return process")().pid };`],
    ["page.mouse.click", `return { pid: page.mouse.click.constructor("return process")().pid };`],
    ["what page.evaluate returns", `const v = await page.evaluate(() => ({ a: [1] })); return { pid: v.a.constructor.constructor("return process")().pid };`],
    [
      "what locator.all() returns",
      `await page.setContent("<p>1</p><p>2</p>"); const all = await page.locator("p").all(); return { pid: all.constructor.constructor("return process")().pid };`,
    ],
    [
      "an error Playwright throws",
      `try { await page.locator("#none").click({ timeout: 50 }); } catch (e) { return { pid: e.constructor.constructor("return process")().pid }; } return {};`,
    ],
  ];
  for (const [through, content] of probes) {
    it(`fails a run that reaches for process through ${through}`, async () => {
      await expectFailedRun(content, NO_CODE_FROM_STRINGS);
    });
  }

  it("has no method that touches the server's files, calls back into it or sends requests from it", async () => {
    const names = [
      "screenshot",
      "pdf",
      "addScriptTag",
      "addStyleTag",
      "addInitScript",
      "exposeFunction",
      "exposeBinding",
      "route",
      "context",
      "request",
      "close",
      "evaluateHandle",
      "$",
      "$$",
      "waitForEvent",
      "on",
      "frames",
    ];
    const result = await expectResult(`return Object.fromEntries(${JSON.stringify(names)}.map((n) => [n, typeof page[n]]));`);
    expect(result).toEqual(Object.fromEntries(names.map((n) => [n, "undefined"])));
  });

  it("refuses setInputFiles, on the page and on a locator: files go in through builtins.uploadFile", async () => {
    const refused =
      "is not available to scripts: put a run's file into a file field with builtins.uploadFile(selector, input), the same way for bytes and named files";
    await expectFailedRun(
      `await page.setContent("<input type=file id=f>"); await page.setInputFiles("#f", "/etc/passwd");`,
      `Error: page.setInputFiles ${refused}`,
    );
    await expectFailedRun(
      `await page.setContent("<input type=file id=f>"); await page.locator("#f").setInputFiles("/etc/passwd");`,
      `Error: locator.setInputFiles ${refused}`,
    );
  });

  it("never opens the server machine's files: file: addresses are refused, and pages cannot reach them", async () => {
    await expectFailedRun(
      `await page.goto("file:///etc/passwd");`,
      'Error: page.goto: only http and https addresses can be opened ("file:///etc/passwd" is a file: address)',
    );
    await expectFailedRun(
      `await builtins.goto("file:///etc/passwd");`,
      'Error: goto: only http and https addresses can be opened ("file:///etc/passwd" is a file: address)',
    );
    await expectFailedRun(`await page.goto("chrome://version");`, /^Error: page\.goto: only http and https addresses can be opened/);
    const reached = await expectResult(`
      await page.setContent('<iframe src="file:///etc/passwd"></iframe>');
      const fetched = await page.evaluate(() => fetch("file:///etc/passwd").then((r) => r.text(), (e) => "refused: " + e.name));
      const framed = await page.evaluate(() => { try { return document.querySelector("iframe").contentDocument?.body?.innerText ?? null; } catch (e) { return "refused: " + e.name; } });
      await page.evaluate(() => { location.href = "file:///etc/passwd"; });
      await page.waitForTimeout(200);
      return { fetched, framed, url: page.url(), content: (await page.content()).includes("root:") };`);
    // The frame stays an empty document; the page stays where it was.
    expect(reached).toEqual({ fetched: "refused: TypeError", framed: "", url: "https://sandbox.invalid/", content: false });
  });
});

describe("functions given to evaluate run in the browser page, never in the server", () => {
  it("sees the page's globals, not Node's", async () => {
    const seen = await expectResult(`
      await page.setContent("<p id=x>hi</p>");
      return {
        fromFunction: await page.evaluate(() => [typeof process, typeof require, location.protocol, document.getElementById("x").textContent].join()),
        withArgument: await page.evaluate((n) => n.a * 2, { a: 21 }),
        onLocator: await page.locator("#x").evaluate((el, suffix) => el.id + suffix, "!"),
        dollarEval: await page.$eval("#x", (el) => el.tagName),
      };`);
    expect(seen).toEqual({ fromFunction: "undefined,undefined,https:,hi", withArgument: 42, onLocator: "x!", dollarEval: "P" });
    await expectFailedRun(`await page.evaluate("process.pid");`, "Error: page.evaluate: ReferenceError: process is not defined");
  });

  it("sends a function's own source, whatever its toString says", async () => {
    const marker = path.join(probes.scratch, "ran-in-the-server.txt");
    const result = await expectResult(`
      const f = () => 6 * 7;
      f.toString = () => ${JSON.stringify(`(() => { process.getBuiltinModule("fs").writeFileSync(${JSON.stringify(marker)}, "x"); return 0; })`)};
      return { value: await page.evaluate(f) };`);
    expect(result).toEqual({ value: 42 });
    expect(existsSync(marker)).toBe(false);
  });

  it("takes a function only where it runs in the page, and only the locators it knows", async () => {
    await expectFailedRun(`await page.setContent("<p>x</p>"); await page.click(() => "p");`, /^TypeError: page\.click: a function can't be given here/);
    await expectFailedRun(
      `await page.setContent("<p>x</p>"); await page.click({ "\\u0000function": "p" });`,
      /^TypeError: page\.click: a function can't be given here/,
    );
    await expectFailedRun(
      `await page.setContent("<p>x</p>"); return { n: await page.locator("p").filter({ has: { "\\u0000locator": [["close"]] } }).count() };`,
      "TypeError: locator.count: close does not make a locator",
    );
  });

  it("bounds what the page hands back, as what the body sends", async () => {
    await expectFailedRun(`await page.evaluate(() => "a".repeat(2 * 1024 * 1024));`, "RangeError: page.evaluate: its result is over 1 MiB as JSON");
  });
});
