/**
 * The pieces of every page: a string from the service is text, never markup; JSON is shown
 * bounded, whatever its depth, width or length; durations and dates read as people read them.
 */
import { describe, expect, test } from "vitest";
import { Budget, cut, duration, JSON_LIMITS, jsonText, page, PAGE_CSP, text, when } from "../../src/report/html.js";

describe("text(): what the service wrote stays characters", () => {
  test("HTML specials are escaped for element content and quoted attributes alike", () => {
    expect(text(`<img src=x onerror="alert('1')">&`)).toBe("&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;");
    expect(text("</style><script>alert(1)</script>")).toBe("&lt;/style&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  test("characters that hide or reorder text show as escapes: controls, bidi overrides and isolates, lone surrogates", () => {
    expect(text("a\u202eb")).toBe('a<span class="ctl">\\u202e</span>b');
    expect(text("\u0000\u001b[31m\u0085\u2066")).toBe(
      '<span class="ctl">\\u0000</span><span class="ctl">\\u001b</span>[31m<span class="ctl">\\u0085</span><span class="ctl">\\u2066</span>',
    );
    expect(text("x\ud800y")).toBe('x<span class="ctl">\\ud800</span>y');
    // A whole surrogate pair (an emoji), tabs and line feeds are text as they are.
    expect(text("🦆\tok\n")).toBe("🦆\tok\n");
  });

  test("a string with nothing to change comes back as it is", () => {
    const plain = "goto https://mail.google.com/mail/u/0/#inbox?compose=new";
    expect(text(plain)).toBe(plain);
  });
});

describe("jsonText(): any value, bounded", () => {
  const budget = () => new Budget(10_000_000);

  test("indented JSON for ordinary values", () => {
    expect(jsonText({ a: [1, "x", {}, []], b: null }, JSON_LIMITS, budget())).toBe('{\n  "a": [\n    1,\n    "x",\n    {},\n    []\n  ],\n  "b": null\n}');
  });

  test("10,000 levels deep: the levels past the limit are summarised, with no stack overflow", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 10_000; i++) deep = [deep];
    const shown = jsonText(deep, { ...JSON_LIMITS, depth: 4 }, budget());
    expect(shown).toContain("[ … 1 item, deeper levels left out ]");
    expect(shown).not.toContain("bottom");
  });

  test("a cycle (not JSON, but a library user may hand one over) ends at the depth limit", () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    expect(jsonText(cycle, { ...JSON_LIMITS, depth: 3 }, budget())).toContain("{ … an object, deeper levels left out }");
  });

  test("long strings, wide arrays and objects, and the whole rendering are cut, saying what was left out", () => {
    expect(jsonText("x".repeat(50), { ...JSON_LIMITS, string: 10 }, budget())).toBe('"xxxxxxxxxx" … (40 more characters left out)');
    expect(
      jsonText(
        Array.from({ length: 10 }, (_, i) => i),
        { ...JSON_LIMITS, entries: 3 },
        budget(),
      ),
    ).toContain("… 7 more items left out");
    expect(jsonText(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, i])), { ...JSON_LIMITS, entries: 3 }, budget())).toContain(
      "… 7 more entries left out",
    );
    const whole = jsonText({ a: "y".repeat(5_000) }, { ...JSON_LIMITS, total: 100 }, budget());
    expect(whole.length).toBeLessThan(200);
    expect(whole).toMatch(/the rest of this value is left out/);
  });

  test("the page's budget is spent across blocks: once it is gone, values are cut short", () => {
    const shared = new Budget(1_000);
    jsonText("z".repeat(900), JSON_LIMITS, shared);
    expect(jsonText({ more: "w".repeat(500) }, JSON_LIMITS, shared).length).toBeLessThan(200);
    expect(cut("abcdef", 100, new Budget(3))).toBe("abc… (3 more characters left out)");
  });

  test("values JSON cannot hold are named, never thrown", () => {
    const getter = Object.defineProperty({}, "boom", {
      enumerable: true,
      get() {
        throw new Error("no reading me");
      },
    });
    expect(jsonText(getter, JSON_LIMITS, budget())).toContain("could not be read further: no reading me");
    expect(jsonText({ n: Number.NaN, b: 10n, u: undefined }, JSON_LIMITS, budget())).toBe(
      '{\n  "n": NaN (not a JSON number),\n  "b": 10n,\n  "u": undefined\n}',
    );
  });
});

describe("durations and dates", () => {
  test.each([
    [0, "0 ms"],
    [850, "850 ms"],
    [1_234, "1.23 s"],
    [12_345, "12.3 s"],
    [250_000, "4 min 10 s"],
    [7_500_000, "2 h 05 min"],
    [-1, "?"],
    [Number.NaN, "?"],
  ])("%s ms reads %s", (ms, words) => {
    expect(duration(ms)).toBe(words);
  });

  test("an ISO date in UTC; anything else as given", () => {
    expect(when("2026-03-02T14:03:11.512Z")).toBe("2026-03-02 14:03:11 UTC");
    expect(when("yesterday")).toBe("yesterday");
  });
});

test("a page: the Content-Security-Policy before anything else of the head, and the title as text", () => {
  const html = page("<script>x</script>", "<main></main>");
  expect(html.indexOf(`<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">`)).toBeLessThan(html.indexOf("<title>"));
  expect(html).toContain("<title>&lt;script&gt;x&lt;/script&gt;</title>");
  expect(PAGE_CSP).toMatch(/^default-src 'none'; img-src data:; style-src 'unsafe-inline'/);
  expect(html).not.toMatch(/<script|<link|@import|url\(/i);
});
