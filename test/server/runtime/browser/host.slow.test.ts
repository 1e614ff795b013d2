// The sandbox's browser across runs: launched lazily, kept warm, one context per run, traces and
// screenshots, and a browser that dies (or hangs) costs one run, not the next.
import { afterAll, describe, expect, test } from "vitest";
import { BrowserHost } from "./index.js";
import { present } from "../../contract/present.js";

const host = new BrowserHost();
afterAll(() => host.close());

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe("one warm browser, one context per run", () => {
  test("nothing starts before the first run; later runs reuse the browser, each in a fresh context closed after it", async () => {
    expect(host.launches).toBe(0);
    expect(await host.browserPid()).toBeNull();

    const first = await host.newRun();
    const pid = await host.browserPid();
    expect(pid).toEqual(expect.any(Number));
    await first.builtins.goto("https://example.com/");
    await first.page.evaluate(() => (document.cookie = "seen=1; path=/"));
    expect(await first.page.evaluate(() => document.cookie)).toBe("seen=1");
    expect(await host.rssBytes()).toBeGreaterThan(10 * 2 ** 20);
    await first.finish();
    expect(first.page.isClosed()).toBe(true);

    const second = await host.newRun();
    await second.builtins.goto("https://example.com/");
    expect(await second.page.evaluate(() => document.cookie)).toBe("");
    await second.finish();
    expect(host.launches).toBe(1);
    expect(await host.browserPid()).toBe(pid);
  }, 60_000);
});

describe("traces and screenshots", () => {
  test("each call is a step with its duration; a failed call records its error; a PNG after the last step", async () => {
    const run = await host.newRun({ actionTimeoutMs: 500 });
    await run.builtins.goto("https://example.com/", { waitUntil: "domcontentloaded" });
    await run.builtins.waitFor("h1", "visible");
    await expect(run.builtins.waitFor("#nothing", "attached")).rejects.toThrow("waitFor: Timeout 500ms exceeded. (waiting for locator('#nothing'))");
    await expect(run.builtins.pressKey("NoSuchKey")).rejects.toThrow('pressKey: Unknown key: "NoSuchKey"');
    await expect(run.builtins.waitFor("h1", "shown")).rejects.toThrow("waitFor: state must be one of attached, detached, visible, hidden");
    await expect(run.builtins.goto("/relative")).rejects.toThrow('goto: "/relative" is not an absolute URL');
    await expect(run.builtins.paste("", "x")).rejects.toThrow("paste: give a selector or a locator to paste into");
    await expect(run.builtins.paste([{ kind: "sideways" }], "x")).rejects.toThrow('paste: unknown chain step kind "sideways"');
    const { steps, screenshots } = await run.finish();
    expect(steps.map(({ index, action, ok }) => [index, action, ok])).toEqual([
      [0, "goto https://example.com/", true],
      [1, "waitFor h1 (visible)", true],
      [2, "waitFor #nothing (attached)", false],
      [3, "pressKey NoSuchKey", false],
      [4, "waitFor h1 (shown)", false],
      [5, "goto /relative", false],
      [6, "paste into ", false],
      [7, "paste into sideways", false],
    ]);
    expect(steps[0]?.detail).toEqual({ options: { waitUntil: "domcontentloaded" }, status: 200 });
    for (const step of steps) expect(step.duration_ms).toEqual(expect.any(Number));
    expect(steps[2]?.duration_ms).toBeGreaterThanOrEqual(400);
    expect(screenshots).toHaveLength(1);
    expect(screenshots[0]).toMatchObject({ kind: "last", afterStep: 7 });
    expect(present(screenshots[0], "the last screenshot").png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  });

  test("paste takes a selector, a Playwright locator or a chain, and fires a paste event the page may handle", async () => {
    const run = await host.newRun();
    try {
      await run.builtins.goto("https://example.com/");
      await run.page.setContent(`
        <input id="a"><textarea></textarea><textarea></textarea><div id="chips"></div>
        <input id="handled">
        <script>
          document.getElementById("handled").addEventListener("paste", (event) => {
            event.preventDefault();
            document.getElementById("chips").textContent = "chip:" + event.clipboardData.getData("text/plain");
          });
        </script>`);
      await run.builtins.paste("#a", "by selector");
      await run.builtins.paste(run.page.locator("textarea").first(), "by locator");
      await run.builtins.paste(
        [
          { kind: "role", body: "textbox" },
          { kind: "nth", body: 2 },
        ],
        "by chain",
      );
      await run.builtins.paste("#handled", "x@y.z");
      expect(await run.page.evaluate(() => [...document.querySelectorAll("input, textarea")].map((e) => (e as HTMLInputElement).value))).toEqual([
        "by selector",
        "by locator",
        "by chain",
        "",
      ]);
      expect(await run.page.locator("#chips").textContent()).toBe("chip:x@y.z");
      expect(run.steps.map((s) => s.action).slice(1)).toEqual([
        "paste into #a",
        expect.stringMatching(/^paste into locator\('textarea'\)/),
        "paste into role=textbox >> nth=2",
        "paste into #handled",
      ]);
    } finally {
      await run.finish();
    }
  });
});

describe("a browser that dies or hangs", () => {
  test("a killed browser fails the run it was in, with a clear error; the next run gets a new browser", async () => {
    const run = await host.newRun();
    await run.builtins.goto("https://example.com/");
    const launches = host.launches;
    const pid = (await host.browserPid())!;
    const gone = new Promise((resolve) => run.context.browser()!.once("disconnected", resolve));
    process.kill(pid, "SIGKILL");
    await gone;
    await expect(run.builtins.goto("https://mail.google.com/")).rejects.toThrow("goto: the browser closed during the run (it crashed or was killed)");
    const { steps, screenshots } = await run.finish({ failed: true });
    expect(steps.at(-1)).toMatchObject({ ok: false, error: "goto: the browser closed during the run (it crashed or was killed)" });
    expect(screenshots).toEqual([]);

    const next = await host.newRun();
    await next.builtins.goto("https://example.com/");
    expect(await next.page.title()).toBe("Example Domain");
    await next.finish();
    expect(host.launches).toBe(launches + 1);
    expect(await host.browserPid()).not.toBe(pid);
  }, 60_000);

  test("a page stuck in a loop: the run still ends, and the next run works", async () => {
    const run = await host.newRun({ actionTimeoutMs: 500 });
    await run.builtins.goto("https://example.com/");
    void run.page
      .evaluate(() => {
        for (;;);
      })
      .catch(() => {});
    const { screenshots } = await run.finish({ failed: true });
    expect(screenshots).toEqual([]);

    const next = await host.newRun();
    await next.builtins.goto("https://example.com/");
    expect(await next.page.title()).toBe("Example Domain");
    await next.finish();
  }, 60_000);

  test("a browser that hangs (stopped) is killed when it does not open a context in time; the next run gets a new one", async () => {
    const hanging = new BrowserHost({ answerTimeoutMs: 1_000 });
    try {
      const first = await hanging.newRun({ actionTimeoutMs: 500 });
      const pid = (await hanging.browserPid())!;
      process.kill(pid, "SIGSTOP");
      await expect(hanging.newRun()).rejects.toThrow(
        "the sandbox's browser did not answer within 1 s (it hung): it was stopped, and the next run gets a new one",
      );
      expect(await hanging.browserPid()).toBeNull();
      await first.finish({ failed: true });
      const next = await hanging.newRun();
      await next.builtins.goto("https://example.com/");
      expect(await next.page.title()).toBe("Example Domain");
      await next.finish();
      expect(hanging.launches).toBe(2);
    } finally {
      await hanging.close();
    }
  }, 60_000);

  test("kill() ends a hung browser at once; the next run launches another", async () => {
    await (await host.newRun()).finish();
    const launches = host.launches;
    await host.kill();
    expect(await host.browserPid()).toBeNull();
    const run = await host.newRun();
    await run.builtins.goto("https://example.com/");
    await run.finish();
    expect(host.launches).toBe(launches + 1);
  }, 60_000);
});
