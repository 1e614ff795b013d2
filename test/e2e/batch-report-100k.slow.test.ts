/**
 * A 100,000-row batch's report within its limits: `reduck batch report` builds it in at most
 * 200 MiB (the process's peak resident memory), the page is at most 15 MiB, and Chromium opens it
 * from disk within 10 s with no request, every row still findable by its number and run id.
 */
import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { writeBigResults } from "../support/big-results.js";
import { runCli } from "../support/cli.js";
import { temporaryFolder } from "../support/files.js";
import { pageBrowser } from "../support/page-browser.js";

const MiB = 2 ** 20;
const ROWS = 100_000;
let dir: string;
let results: string;
let counts: Awaited<ReturnType<typeof writeBigResults>>;

beforeAll(async () => {
  dir = temporaryFolder("reduck-report-100k-");
  results = path.join(dir, "people.results.jsonl");
  counts = await writeBigResults(results, ROWS);
}, 120_000);

let browser: Awaited<ReturnType<typeof pageBrowser>> | undefined;
afterAll(async () => {
  await browser?.close();
});

test("100,000 rows: built in at most 200 MiB, a page of at most 15 MiB that Chromium opens from disk within 10 s, with no request", async () => {
  // The CLI's peak resident memory, written by the process itself as it exits.
  const rssFile = path.join(dir, "rss");
  const preload = path.join(dir, "rss.mjs");
  await writeFile(
    preload,
    `import { writeFileSync } from "node:fs";\nprocess.on("exit", () => writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS * 1024)));\n`,
  );
  const page = path.join(dir, "report.html");
  const r = await runCli(["batch", "report", results, "--html", page, "--json"], { env: { NODE_OPTIONS: `--import=${pathToFileURL(preload).href}` } });
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout).rows).toMatchObject({ total: ROWS, failed: counts.failed, invalid: counts.invalid, sending: counts.inFlight });
  const peak = Number(await readFile(rssFile, "utf8"));
  console.log(
    `100,000-row report: results file ${((await stat(results)).size / MiB).toFixed(1)} MiB, peak ${(peak / MiB).toFixed(0)} MiB, page ${((await stat(page)).size / MiB).toFixed(1)} MiB`,
  );
  expect(peak).toBeLessThanOrEqual(200 * MiB);
  expect((await stat(page)).size).toBeLessThanOrEqual(15 * MiB);

  browser = await pageBrowser();
  const opened = await browser.open(page);
  console.log(`opened in Chromium in ${(opened.loadMs / 1000).toFixed(1)} s`);
  expect(opened.loadMs).toBeLessThanOrEqual(10_000);
  expect(opened.requests).toEqual([pathToFileURL(page).href]);
  expect(opened.problems).toEqual([]);
  // Every row is on the page, the last one and its run id included; the groups say what they left out.
  const html = await readFile(page, "utf8");
  const last = ROWS - 41;
  const lastLine = (await readFile(results, "utf8")).split("\n").find((l) => l.startsWith(`{"row":${last},`) && l.includes('"completed"'));
  const lastRun = JSON.parse(lastLine!).runId as string;
  expect(html).toMatch(new RegExp(`row ${last} +completed +${lastRun}`));
  expect(await opened.page.getByText(lastRun).count()).toBe(1);
  expect(html).toContain(`row ${ROWS} `);
  expect(html).toMatch(/more \(in the list of rows below\)/);
}, 180_000);
