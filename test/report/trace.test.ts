/**
 * A run's trace and record as recognised (trace-data.ts), and the run's page made from them: what
 * is recognised is shown as such, everything else as JSON, the failing step stands out, and
 * screenshots are embedded only when they are images.
 */
import { describe, expect, test } from "vitest";
import { normaliseRun, normaliseTrace } from "../../src/report/trace-data.js";
import { renderTraceHtml } from "../../src/report/trace-page.js";

const PNG = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(64, 1)]);
const RUN = {
  id: "86b0479f-a68f-4fcd-92d1-b68f485ee3d9",
  user_id: "00000000-0000-4000-8001-000000000001",
  name: "Send Gmail email",
  browser: { type: "managed", region: "eu", country: "DE" },
  args: { to: "me@example.com", subject: "<img src=x onerror=alert(1)>" },
  status: "error",
  result: { error: "Error: the button is gone" },
  source: "cli",
  started_at: "2026-03-02T14:03:11.000Z",
  finished_at: "2026-03-02T14:03:14.500Z",
  script: { id: "s1", version_id: "v3", version_number: "3", name: "Send Gmail email", handle: "reduck", host: "mail.google.com", slug: "send_email" },
  region_used: "eu-west",
};
const TRACE = {
  steps: [
    { index: 0, action: "goto https://mail.google.com/", ok: true, duration_ms: 1000 },
    {
      index: 1,
      action: "click #send",
      ok: false,
      duration_ms: 2000,
      detail: { selector: "#send" },
      error: "Timeout </style><script>alert(2)</script>",
      retries: 3,
    },
  ],
  screenshots: [{ kind: "failure", afterStep: 1, url: "https://shots.example/f.png", type: "image/png", size: PNG.length, taken: "2026" }],
  engine: "chromium 143",
};

describe("normaliseTrace", () => {
  test("recognises the steps (cumulative starts, the failing one) and screenshots; keeps every other field apart", () => {
    const view = normaliseTrace(TRACE);
    expect(view.steps.map((s) => [s.action, s.ok, s.durationMs, s.startMs])).toEqual([
      ["goto https://mail.google.com/", true, 1000, 0],
      ["click #send", false, 2000, 1000],
    ]);
    expect(view.failedStep).toBe(1);
    expect(view.totalMs).toBe(3000);
    expect(view.steps[1]!.extra).toEqual({ retries: 3 });
    expect(view.screenshots[0]).toMatchObject({ kind: "failure", afterStep: 1, url: "https://shots.example/f.png", extra: { taken: "2026" } });
    expect(view.extra).toEqual({ engine: "chromium 143" });
  });

  test("an array is taken as the steps; a step that is no object, an action that is no text, still shows", () => {
    const view = normaliseTrace(["opened", { action: { verb: "click" }, error: "x" }]);
    expect(view.steps.map((s) => s.action)).toEqual(["opened", '{"verb":"click"}']);
    expect(view.failedStep).toBe(1);
  });

  test("anything else is kept whole as `extra`, nothing thrown", () => {
    expect(normaliseTrace("a string").extra).toEqual({ trace: "a string" });
    expect(normaliseTrace({ steps: "nope" }).extra).toEqual({ steps: "nope" });
    expect(normaliseTrace(null)).toMatchObject({ steps: [], screenshots: [], extra: {} });
  });
});

describe("normaliseRun", () => {
  test("the script's address, version, times and browser; an outcome adds what the record lacks (errorType)", () => {
    const run = normaliseRun(RUN, { status: "failed", runId: RUN.id, errorType: "site_error", externalMessage: "It broke" });
    expect(run).toMatchObject({
      id: RUN.id,
      address: "reduck/mail.google.com/send_email",
      version: "3",
      versionId: "v3",
      status: "error",
      durationMs: 3500,
      browser: "managed (eu, DE)",
      error: "Error: the button is gone",
      errorType: "site_error",
      externalMessage: "It broke",
    });
    expect(run.extra).toEqual({ user_id: RUN.user_id, region_used: "eu-west" });
  });
});

describe("renderTraceHtml", () => {
  const html = renderTraceHtml({ run: RUN, trace: TRACE, images: new Map([["https://shots.example/f.png", { bytes: PNG, type: "image/png" as const }]]) });

  test("names the failing step and its error, and every step's action", () => {
    expect(html).toContain('Failed at <a href="#step-2">step 2</a></strong>: <code>click #send</code>');
    expect(html).toContain("Timeout &lt;/style&gt;&lt;script&gt;alert(2)&lt;/script&gt;");
    expect(html).toContain('<li class="step failed" id="step-2">');
    for (const step of TRACE.steps) expect(html).toContain(step.action);
  });

  test("hostile strings are text: no markup of theirs survives", () => {
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).not.toContain("<img src=x");
    expect(html).not.toMatch(/<script/i);
    expect(html.match(/<style>/g)).toHaveLength(1);
  });

  test("durations to scale: a bar's start and length are its share of the whole", () => {
    expect(html).toContain('style="left:33.333%;width:66.667%"');
  });

  test("the screenshot is embedded once, as a data: URI of its bytes", () => {
    expect(html.split(`data:image/png;base64,${PNG.toString("base64")}`)).toHaveLength(2);
  });

  test("every unrecognised field is on the page as JSON", () => {
    for (const shown of ['"engine": "chromium 143"', '"retries": 3', '"taken": "2026"', '"region_used": "eu-west"'])
      expect(html).toContain(shown.replaceAll('"', "&quot;"));
  });

  test("a screenshot that is not an image (an SVG, HTML) is not embedded; the reason and its URL are said", () => {
    const svg = new TextEncoder().encode('<svg onload="alert(1)"/>');
    const page = renderTraceHtml({ run: RUN, trace: TRACE, images: { "https://shots.example/f.png": svg } });
    expect(page).not.toContain("data:image");
    expect(page).toContain("Not embedded: its bytes are not a PNG, JPEG, GIF or WebP image.");
    expect(page).toContain("https://shots.example/f.png");
  });

  test("a run without a trace: its record, and the note", () => {
    const page = renderTraceHtml({ run: RUN, trace: null, notes: ["No trace: No such run on this account, or it recorded no trace."] });
    expect(page).toContain("No trace: No such run on this account, or it recorded no trace.");
    expect(page).toContain("reduck/mail.google.com/send_email");
  });

  test("past 10,000 steps the page stops, but the failing step is shown wherever it is, and the count and total cover them all", () => {
    const steps = Array.from({ length: 30_000 }, (_, i) => ({
      action: `step ${i}`,
      ok: i !== 20_000,
      duration_ms: 1,
      ...(i === 20_000 ? { error: "here" } : {}),
    }));
    const page = renderTraceHtml({ run: RUN, trace: { steps } });
    expect(page).toContain('id="step-10000"');
    expect(page).not.toContain('id="step-10001"');
    expect(page).toContain("… 10,000 steps left out …");
    expect(page).toContain('<li class="step failed" id="step-20001">');
    expect(page).toContain("9,999 more steps left out");
    expect(page).toContain("<dd>30,000, 30.0 s in all</dd>");
  });

  test("a 5,000-step trace renders whole (its speed is measured by npm run bench)", () => {
    const steps = Array.from({ length: 5_000 }, (_, i) => ({
      index: i,
      action: `click #b${i}`,
      ok: true,
      duration_ms: i % 50,
      detail: { selector: `#b${i}` },
    }));
    const page = renderTraceHtml({ run: RUN, trace: { steps } });
    expect(page).toContain('id="step-5000"');
    expect(page).toContain("click #b4999");
  });
});
