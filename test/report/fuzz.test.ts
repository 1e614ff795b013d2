/**
 * The renderers fuzzed: thousands of random JSON values (and values shaped like traces, runs and
 * results files, filled with hostile strings) never make them throw, and every page they make is
 * well-formed in the ways that keep it safe: only the renderer's own tags and attributes, no
 * script, no event handler, no request, images only as data: URIs.
 */
import { describe, expect, test } from "vitest";
import { renderBatchReportHtml } from "../../src/report/batch-page.js";
import { renderTraceHtml } from "../../src/report/trace-page.js";
import { seededRandom } from "../support/random.js";

const HOSTILE = [
  "<img src=x onerror=alert(1)>",
  "</style><script>alert(1)</script>",
  '"><svg onload=alert(1)>',
  "' onmouseover='alert(1)",
  "javascript:alert(1)",
  "<!--",
  "]]>",
  "\u202e",
  "\u2066",
  "\ud800",
  "\u0000",
  "\u001b[31m",
  "&amp;",
  "<a href=https://evil.example/>x</a>",
  "url(https://evil.example/x.png)",
  '<meta http-equiv="refresh" content="0;url=https://evil.example">',
  "data:image/png;base64,iVBORw0KGgo=",
  "https://evil.example/shot.png",
  "🦆",
];

const ALLOWED_TAGS = new Set(
  "html head meta title style body main h1 h2 h3 p dl dt dd code span div strong a pre details summary img figure figcaption ol li table tr th td ul b".split(
    " ",
  ),
);
const ALLOWED_ATTRIBUTES = new Set(["lang", "charset", "http-equiv", "content", "name", "class", "id", "href", "style", "title", "alt", "src"]);

function generator(seed: number) {
  const next = seededRandom(seed);
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]) => list[int(list.length)]!;
  const string = (): string => {
    const r = next();
    if (r < 0.3) return pick(HOSTILE);
    if (r < 0.5) return Array.from({ length: int(4) }, () => pick(HOSTILE)).join(pick(["", " ", "\n"]));
    if (r < 0.51) return "x".repeat(int(50_000));
    return String.fromCharCode(...Array.from({ length: int(30) }, () => (next() < 0.8 ? 32 + int(95) : int(0x3000))));
  };
  const value = (depth: number): unknown => {
    const r = next();
    if (depth > 5 || r < 0.15) return pick([null, true, false, 0, -1, 1.5, Number.MAX_SAFE_INTEGER, 1e308, -0]);
    if (r < 0.5) return string();
    if (r < 0.7) return Array.from({ length: int(6) }, () => value(depth + 1));
    return Object.fromEntries(
      Array.from({ length: int(6) }, () => [
        pick([string(), "steps", "screenshots", "url", "action", "ok", "error", "__proto__", "row", "status"]),
        value(depth + 1),
      ]),
    );
  };
  const step = () =>
    next() < 0.2
      ? value(2)
      : {
          index: int(10),
          action: next() < 0.8 ? string() : value(3),
          ok: pick([true, false, undefined, "no"]),
          duration_ms: pick([int(5000), -5, Number.NaN, "12", undefined]),
          detail: value(2),
          error: next() < 0.3 ? string() : undefined,
        };
  const shot = () => ({
    kind: pick(["last", "failure", string()]),
    afterStep: pick([int(5), -1, 1.5, "2"]),
    url: pick([string(), "https://shots.example/a.png", `data:image/png;base64,${"A".repeat(int(100))}`]),
    size: value(4),
  });
  const run = () =>
    next() < 0.3
      ? value(1)
      : {
          id: string(),
          status: pick(["success", "error", "running", string()]),
          args: value(1),
          browser: pick([{ type: "managed", region: string(), country: "DE" }, "extension", value(3)]),
          result: pick([{ result: value(2) }, { error: string() }, null, value(3)]),
          script: next() < 0.7 ? { handle: string(), host: string(), slug: string(), version_number: string() } : value(3),
          started_at: pick(["2026-03-02T14:03:11.000Z", string()]),
          finished_at: pick(["2026-03-02T14:03:15.000Z", null, string()]),
        };
  const trace = () =>
    next() < 0.3
      ? value(0)
      : { steps: Array.from({ length: int(12) }, step), screenshots: Array.from({ length: int(3) }, shot), ...(next() < 0.5 ? { extra: value(2) } : {}) };
  const line = () =>
    next() < 0.2
      ? value(2)
      : {
          row: pick([int(100), -3, 1.5, "7"]),
          key: pick([`k${int(20)}`, string(), undefined]),
          status: pick(["batch", "sending", "accepted", "unsent", "completed", "failed", "invalid", "unknown", string()]),
          runId: pick([string(), undefined, null]),
          error: pick([string(), value(3), undefined]),
          errorType: pick([string(), undefined]),
          at: pick(["2026-03-02T14:03:11.000Z", string(), undefined]),
          script: string(),
          shared: value(3),
        };
  return { next, int, pick, value, run, trace, line, string };
}

/** What is unsafe about a page, whatever went into it (nothing, for a safe page). */
function problemsOf(html: string): string[] {
  const problems: string[] = [];
  if (!html.startsWith("<!DOCTYPE html>")) problems.push("no doctype first");
  const head = html.slice(0, html.indexOf("<title>"));
  if (!head.includes(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:;`)) problems.push("no CSP before the title");
  for (const tag of html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>/g)) {
    if (!ALLOWED_TAGS.has(tag[1]!.toLowerCase())) problems.push(`<${tag[1]}>`);
    // Each attribute with its whole quoted value, so words inside a value are not taken for attributes.
    for (const attribute of tag[2]!.matchAll(/\s([^\s=>]+)(?:="[^"]*")?/g))
      if (!ALLOWED_ATTRIBUTES.has(attribute[1]!.toLowerCase())) problems.push(`${attribute[1]}=`);
    const src = /\ssrc="([^"]*)"/.exec(tag[2]!);
    if (src && !/^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]*$/.test(src[1]!)) problems.push(`src=${src[1]!.slice(0, 80)}`);
    const href = /\shref="([^"]*)"/.exec(tag[2]!);
    if (href && !/^#[a-z]+-\d+$/.test(href[1]!)) problems.push(`href=${href[1]}`);
  }
  if (html.match(/<style>/g)?.length !== 1) problems.push("not one <style>");
  return problems;
}

function checkPage(html: string, seed: number) {
  const problems = problemsOf(html);
  if (problems.length) expect(problems, `seed ${seed}`).toEqual([]);
}

describe("renderTraceHtml and renderBatchReportHtml never throw and make safe pages", () => {
  test("3,000 random JSON values, as each field and as the whole input", () => {
    for (let seed = 1; seed <= 3_000; seed++) {
      const g = generator(seed);
      const whole = g.value(0);
      checkPage(renderTraceHtml(whole as never), seed);
      checkPage(renderTraceHtml({ run: g.value(0), trace: g.value(0), images: g.value(1) as never, outcome: g.value(1), notes: g.value(1) as never }), seed);
      checkPage(renderBatchReportHtml(whole as never), seed);
    }
  });

  test("1,000 traces, runs and results files shaped like the real ones, full of hostile strings", () => {
    const png = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(16)]);
    for (let seed = 1; seed <= 1_000; seed++) {
      const g = generator(100_000 + seed);
      const images = new Map<string, unknown>([
        ["https://shots.example/a.png", g.pick([{ bytes: png, type: "image/png" }, { problem: g.string() }, png, g.value(2)])],
      ]);
      checkPage(renderTraceHtml({ run: g.run(), trace: g.trace(), images: images as never, outcome: g.value(1) }), seed);
      const lines = Array.from({ length: g.int(40) }, g.line);
      checkPage(renderBatchReportHtml(lines), seed);
      checkPage(renderBatchReportHtml(lines.map((l) => (g.next() < 0.1 ? `${JSON.stringify(l)}`.slice(0, 5) : JSON.stringify(l))).join("\n")), seed);
    }
  });

  test("the extremes: nothing, null, 10,000 levels deep, megabytes of text, a million steps", () => {
    let deep: unknown = { action: "bottom" };
    for (let i = 0; i < 10_000; i++) deep = { steps: [deep], detail: deep };
    const megabytes = "<b>".repeat(2_000_000);
    const inputs: unknown[] = [
      undefined,
      null,
      [],
      {},
      deep,
      { run: deep, trace: deep },
      { run: { args: { big: megabytes } }, trace: { steps: [{ action: megabytes, error: megabytes, detail: megabytes }] } },
      { trace: { steps: Array.from({ length: 1_000_000 }, () => ({ action: "a", ok: true, duration_ms: 1 })) } },
    ];
    for (const [i, input] of inputs.entries()) {
      const html = renderTraceHtml(input as never);
      checkPage(html, i);
      // Bounded whatever came in: megabytes of text are cut, a million steps are capped.
      expect(html.length, `input ${i}`).toBeLessThan(30_000_000);
      const report = renderBatchReportHtml(input as never);
      checkPage(report, i);
    }
    expect(renderTraceHtml({ trace: { steps: Array.from({ length: 1_000_000 }, () => ({ action: "a" })) } })).toContain("990,000 more steps left out");
    expect(renderBatchReportHtml(megabytes)).toContain("not JSON");
  });
});
