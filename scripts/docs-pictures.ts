/**
 * `npx tsx scripts/docs-pictures.ts` (after `npm run build`): the pictures of docs/runs.md, made
 * from real pages. It starts the sandbox with its real Chromium, runs a script that fails on a step
 * and a batch with failing rows through the built CLI, writes their pages with
 * `reduck runs trace --html` and `reduck batch --report`, opens them from disk in the sandbox's
 * Chromium and screenshots the top of each into docs/pictures/.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { startSandbox } from "@reduck-client/sandbox";
import { chromiumExecutable, chromiumSandboxWanted, loadPlaywright } from "@reduck-client/sandbox/internal";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, "docs", "pictures");
const run = promisify(execFile);

/** Fills in an email, attaches the invoice, then looks for a button the page does not have. */
const SCHEDULE_SEND = `
await page.goto("https://mail.google.com/mail/u/0/#inbox?compose=new");
await builtins.waitFor('div[role="dialog"]');
await builtins.paste('div[role="dialog"] input[aria-label="To recipients"]', args.to);
await builtins.paste('div[role="dialog"] input[name="subjectbox"]', args.subject);
await builtins.uploadFile('div[role="dialog"] input[type="file"][name="Filedata"]', "attachment");
await page.locator('div[role="dialog"] [aria-label="Schedule send"]').click({ timeout: 2000 });
return { scheduled: true };`;

const sandbox = await startSandbox({ browser: "real" });
const work = await mkdtemp(path.join(os.tmpdir(), "reduck-pictures-"));
try {
  sandbox.store.addScript({
    handle: "@demo",
    host: "mail.google.com",
    slug: "schedule_email",
    content: SCHEDULE_SEND,
    inputSchema: {
      type: "object",
      properties: { to: { type: "string" }, subject: { type: "string" }, attachment: { type: "string", format: "file" } },
      required: ["to", "subject"],
    },
  });
  sandbox.store.addScript({
    handle: "@demo",
    host: "shop.example",
    slug: "check_stock",
    content:
      "await page.setContent('<h1>' + args.sku + '</h1>'); await page.waitForTimeout((Number(args.sku.slice(4)) * 397) % 1500); if (args.sku.endsWith('7')) throw new Error('no product page for ' + args.sku); return { sku: args.sku, inStock: true };",
    inputSchema: { type: "object", properties: { sku: { type: "string", pattern: "^SKU-\\d+$" } }, required: ["sku"] },
  });
  const env = { ...process.env, REDUCK_API_URL: sandbox.url, REDUCK_API_KEY: sandbox.apiKey, HOME: work, REDUCK_CONFIG_DIR: work, NO_COLOR: "1" };
  const reduck = (args: string[]) =>
    run(process.execPath, [path.join(root, "bin", "run.js"), ...args], { env, cwd: work }).catch((err) => err as { stdout: string; stderr: string });

  const invoice = path.join(work, "invoice.pdf");
  await writeFile(invoice, "%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");
  const failed = await reduck([
    "run",
    "--script",
    "@demo/mail.google.com/schedule_email",
    "to=ada@example.com",
    "subject=Your invoice, March",
    `file:attachment=${invoice}`,
  ]);
  const runId = /run ([0-9a-f-]{36}) failed/.exec(failed.stderr)?.[1];
  if (!runId) throw new Error(`the run did not fail as planned:\n${failed.stderr}`);
  const runPage = path.join(work, "run.html");
  await reduck(["runs", "trace", runId, "--html", runPage]);

  const rows = path.join(work, "stock.csv");
  await writeFile(rows, `sku\n${Array.from({ length: 60 }, (_, i) => (i === 41 ? "SKU-" : `SKU-${1000 + i}`)).join("\n")}\n`);
  const report = path.join(work, "report.html");
  await reduck(["batch", "--script", "@demo/shop.example/check_stock", "--input", rows, "--skip-invalid", "--concurrency", "8", "--report", report]);

  const { chromium } = await loadPlaywright();
  const browser = await chromium.launch({ executablePath: await chromiumExecutable(), chromiumSandbox: chromiumSandboxWanted(), args: ["--disable-gpu"] });
  try {
    for (const [page, picture, height] of [
      [runPage, "run-page.png", 1500],
      [report, "batch-report.png", 1400],
    ] as const) {
      const tab = await browser.newPage({ viewport: { width: 1000, height }, deviceScaleFactor: 1, colorScheme: "light" });
      await tab.goto(pathToFileURL(page).href);
      await tab.screenshot({ path: path.join(out, picture) });
      await tab.close();
      console.log(`wrote docs/pictures/${picture}`);
    }
  } finally {
    await browser.close();
  }
} finally {
  await sandbox.close();
  await rm(work, { recursive: true, force: true });
}
