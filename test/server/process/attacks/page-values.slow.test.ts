// What the page hands back is bounded while it arrives. A page.evaluate value or
// a page's content over 1 MiB is refused in the page, before it crosses Playwright's pipe, so the
// server never holds it (its memory is read from /proc); a run beside succeeds, the server answers.
import { beforeAll, describe, expect, it } from "vitest";
import { MiB, peakTreeRss } from "../../testing/sandbox-under-attack.js";
import { attackedSandbox } from "./fixtures/attacked-sandbox.js";

const sandbox = attackedSandbox([], { browser: "real" });
let baseline = 0;

/** Uses the page (and a bounded reader) beside the attack. */
const BESIDE = "await page.setContent('<h1>fine</h1>'); await new Promise((r) => setTimeout(r, 1500)); return { beside: await page.textContent('h1') };";

beforeAll(async () => {
  expect(await sandbox.createAndRun(BESIDE)).toMatchObject({ status: 200, body: { result: { beside: "fine" } } });
  baseline = await sandbox.serverRss();
}, 120_000);

const ATTACKS: Array<[string, string, RegExp]> = [
  [
    "a 200 MB string from page.evaluate",
    "return { s: await page.evaluate(() => 'x'.repeat(200e6)) };",
    /^RangeError: page\.evaluate: its result is over 1 MiB as JSON$/,
  ],
  [
    "a ~512 MiB string from page.evaluate (crashed the server before)",
    "return { s: await page.evaluate(() => 'x'.repeat(2 ** 29 - 100)) };",
    /^(RangeError: page\.evaluate: its result is over 1 MiB as JSON|Error: page\.evaluate: .*(crash|closed).*)$/,
  ],
  [
    "an array of millions of numbers from a locator",
    "await page.setContent('<p>x</p>'); return { n: await page.locator('p').evaluate(() => Array.from({ length: 5e6 }, (_, i) => i)) };",
    /^RangeError: locator\.evaluate: its result is over 1 MiB as JSON$/,
  ],
  [
    "a 5 MB text read by a locator",
    "await page.setContent('<p>x</p>'); await page.evaluate(() => { document.querySelector('p').textContent = 'y'.repeat(5e6); }); return { t: await page.locator('p').textContent() };",
    /^RangeError: locator\.textContent: its result is over 1 MiB as JSON$/,
  ],
  [
    "a 50 MB page read by content()",
    "await page.setContent('<p hidden>x</p>'); await page.evaluate(() => { document.querySelector('p').textContent = 'y'.repeat(50e6); }); return { n: (await page.content()).length };",
    /^RangeError: page\.content: its result is over 1 MiB as JSON$/,
  ],
];

describe("values from the page are bounded in the page", () => {
  it.each(ATTACKS)(
    "%s: refused, never held by the server; a run beside succeeds",
    async (_what, attack, error) => {
      const beside = sandbox.createAndRun(BESIDE);
      const before = await sandbox.serverRss();
      let serverPeak = before;
      const { value: ran, peak } = await peakTreeRss(sandbox, async () => {
        const running = sandbox.createAndRun(attack);
        const watch = setInterval(
          () =>
            void sandbox.serverRss().then(
              (rss) => (serverPeak = Math.max(serverPeak, rss)),
              () => {},
            ),
          50,
        );
        try {
          return await running;
        } finally {
          clearInterval(watch);
        }
      });
      expect(ran.status).toBe(422);
      expect(ran.body.error).toMatch(error);
      expect(await beside).toMatchObject({ status: 200, body: { result: { beside: "fine" } } });
      // The value never reached the server: its memory barely moved (the 200 MB one cost +450 MB before).
      expect(serverPeak - before).toBeLessThan(100 * MiB);
      expect(await sandbox.serverRss()).toBeLessThan(baseline + 200 * MiB);
      expect(peak).toBeLessThan(1536 * MiB);
      expect((await sandbox.call("GET", "/api/ping")).status).toBe(200);
    },
    90_000,
  );
});
