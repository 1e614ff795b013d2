/**
 * The pages as people open them: a run's page and a batch's report written by the built CLI from
 * a real run in the sandbox's Chromium, then opened from disk (file://) in another real Chromium.
 * No request leaves them, nothing complains in the console, the hostile strings of the run show
 * as text and run nothing, the screenshot decodes, every step's action is on the page, and the
 * failing step is named with its error.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runCli } from "../support/cli.js";
import { type OpenedPage, pageBrowser } from "../support/page-browser.js";
import { present } from "../support/present.js";
import { useCliSandbox } from "../support/sandbox.js";
import { addFailingScript, FAILING_SCRIPT, HOSTILE_ARG, HOSTILE_ERROR, HOSTILE_SELECTOR } from "./failing-run.js";

const sandbox = useCliSandbox({
  home: "reduck-pages-slow-",
  seed: (store) => {
    addFailingScript(store);
    store.addScript({
      handle: "@demo",
      host: "rows.example",
      slug: "maybe",
      content: "if (args.fail) throw new Error(args.fail); return { n: args.n };",
      inputSchema: { type: "object", properties: { n: { type: "number" }, fail: { type: "string" } } },
    });
  },
});

let browser: Awaited<ReturnType<typeof pageBrowser>>;
let runId: string;
let run: OpenedPage;
let dialogs: string[];

beforeAll(async () => {
  browser = await pageBrowser();
  const made = await runCli(["run", "--script", FAILING_SCRIPT, `note=${HOSTILE_ARG}`], { env: sandbox.env });
  expect(made.code, made.stderr).toBe(1);
  runId = present(/run ([0-9a-f-]{36}) failed/.exec(made.stderr)?.[1], "the failed run's id");
  const file = path.join(sandbox.home, "run.html");
  const written = await runCli(["runs", "trace", runId, "--html", file], { env: sandbox.env });
  expect(written.code, written.stderr).toBe(0);
  run = await browser.open(file);
  dialogs = [];
  run.page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe("a failed run's page, opened from disk in Chromium", () => {
  test("makes no request but for its own file, and nothing complains in the console", () => {
    expect(run.requests).toEqual([pathToFileURL(path.join(sandbox.home, "run.html")).href]);
    expect(run.problems).toEqual([]);
  });

  test("the hostile strings of the run show as the characters they are, and run nothing", async () => {
    const shown = await run.page.innerText("main");
    for (const hostile of [HOSTILE_ARG, HOSTILE_ERROR, HOSTILE_SELECTOR.replace("text=", "")]) expect(shown).toContain(hostile);
    // Hovering what would have been the <b onmouseover>, had it been markup.
    await run.page.hover(`text=${HOSTILE_SELECTOR.replace("text=", "")}`).catch(() => {});
    expect(await run.page.title()).not.toBe("pwned");
    expect(dialogs).toEqual([]);
    // Only the screenshot is an image; no element came from the run's strings.
    expect(await run.page.locator("img").count()).toBe(1);
    expect(await run.page.locator("script, b[onmouseover], img[onerror]").count()).toBe(0);
  });

  test("the screenshot decodes to an image of the page, and opens full size on a click", async () => {
    const size = await run.page
      .locator("img")
      .evaluate((img: HTMLImageElement) => ({ complete: img.complete, width: img.naturalWidth, height: img.naturalHeight }));
    expect(size.complete).toBe(true);
    expect(size.width).toBeGreaterThan(100);
    expect(size.height).toBeGreaterThan(100);
    await run.page.locator("details.shot summary").click();
    const shown = await run.page.locator("details.shot img").boundingBox();
    expect(shown!.width).toBeGreaterThan(320);
    await run.page.locator("details.shot summary").click();
  });

  test("every step's action is on the page, and the failing one is named with its error", async () => {
    const trace = sandbox.store.runs.get(runId)!.trace as { steps: Array<{ action: string; ok: boolean; error?: string }> };
    const text = await run.page.innerText("main");
    for (const step of trace.steps) expect(text).toContain(step.action);
    const failing = trace.steps.findIndex((s) => !s.ok);
    const callout = await run.page.innerText(".callout");
    expect(callout).toContain(`Failed at step ${failing + 1}: ${trace.steps[failing]!.action}`);
    expect(callout).toContain(trace.steps[failing]!.error!);
    expect(await run.page.locator(`#step-${failing + 1}.failed`).count()).toBe(1);
  });
});

describe("a batch's report with failing rows, opened from disk in Chromium", () => {
  let report: OpenedPage;
  let results: string;

  beforeAll(async () => {
    const input = path.join(sandbox.home, "rows.jsonl");
    const rows = Array.from({ length: 12 }, (_, i) => JSON.stringify(i % 4 === 3 ? { n: i + 1, fail: `${HOSTILE_ERROR} on row ${i + 1}` } : { n: i + 1 }));
    await writeFile(input, `${rows.join("\n")}\n`);
    const file = path.join(sandbox.home, "report.html");
    const r = await runCli(["batch", "--script", "rows.example/maybe", "--input", input, "--report", file, "--browser", "cloud"], { env: sandbox.env });
    expect(r.stderr).toContain(`Report: ${file}`);
    results = path.join(sandbox.home, "rows.results.jsonl");
    report = await browser.open(file);
  }, 120_000);

  test("makes no request but for its own file, and nothing complains in the console", () => {
    expect(report.requests).toEqual([pathToFileURL(path.join(sandbox.home, "report.html")).href]);
    expect(report.problems).toEqual([]);
  });

  test("shows the counts, one group for the failures (row numbers aside) with their rows, and every row's run id", async () => {
    const text = await report.page.innerText("main");
    expect(text).toMatch(/12\s*rows/);
    expect(text).toMatch(/9\s*completed/);
    expect(text).toMatch(/3\s*failed/);
    expect(text).toContain("#1 · 3 rows · failed");
    expect(text).toContain("Rows: 4, 8, 12");
    expect(text).toContain(HOSTILE_ERROR);
    expect(await report.page.title()).not.toBe("pwned");
    const lines = (await readFile(results, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    for (const line of lines.filter((l) => l.runId)) expect(text).toMatch(new RegExp(`row ${line.row} +${line.status} +${line.runId}`));
  });
});
