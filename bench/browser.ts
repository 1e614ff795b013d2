/**
 * The sandbox's real browser, measured (`npx tsx bench/browser.ts`, or `benchBrowser()` from
 * bench/run.ts):
 *
 * 1. the first page after launch: Chromium started and the Gmail compose page shown;
 * 2. the median of 20 send_email runs with a 1 MiB attachment, in the real browser and, for
 *    comparison, the simulated page running the script's twin (issue 14 aims: within 300 ms);
 * 3. the resident memory of the browser's process tree after 20 and after 200 runs (aim: the
 *    second within 1.2x of the first).
 */
import { readFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { BrowserHost } from "../test/server/browser/index.js";
import { runBody } from "../test/server/browser/script.js";
import { createSimulatedBrowser, newBrowserState } from "../test/server/run/page.js";

const MiB = 2 ** 20;
const source = (dir: string) => readFileSync(new URL(`../${dir}/mail.google.com/send_email.js`, import.meta.url), "utf8");
const realScript = source("examples/scripts");
const simulatedScript = source("test/server/simulated-scripts");
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor as new (...params: string[]) => (...args: unknown[]) => Promise<unknown>;

const args = { to: ["a@example.com"], subject: "Quarterly report", body: "Attached.", attachmentName: "report.pdf" };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** Rows of `[what, figure, note]`. */
export async function benchBrowser(): Promise<Array<[string, string, string]>> {
  const rows: Array<[string, string, string]> = [];
  const bytes = Buffer.alloc(MiB, 7);
  const host = new BrowserHost();
  try {
    const first = await timed(async () => {
      const run = await host.newRun();
      await run.builtins.goto("https://mail.google.com/mail/u/0/#inbox?compose=new");
      await run.builtins.waitFor('div[role="dialog"]', "attached");
      await run.finish();
    });
    rows.push(["real browser: first page after launch", `${first.toFixed(0)} ms`, "Chromium started, compose page shown"]);

    const sendOnce = async () => {
      const { error } = await runBody(host, realScript, { args, files: { attachment: { via: "bytes", bytes } } });
      if (error) throw error;
    };
    const real: number[] = [];
    for (let i = 0; i < 20; i++) real.push(await timed(sendOnce));
    const rss20 = await host.rssBytes();

    const descriptor = { attachment: { name: "attachment", size: bytes.length, type: "application/pdf", sha256: "0".repeat(64) } };
    const simulated: number[] = [];
    for (let i = 0; i < 20; i++) {
      simulated.push(
        await timed(async () => {
          const { page, builtins } = createSimulatedBrowser(descriptor, newBrowserState());
          await new AsyncFunction("page", "args", "files", "builtins", simulatedScript)(page, args, structuredClone(descriptor), builtins);
        }),
      );
    }
    const realMs = median(real);
    const simulatedMs = median(simulated);
    rows.push(["simulated page: send_email, 1 MiB (median of 20)", `${simulatedMs.toFixed(2)} ms`, "the script's twin, in process"]);
    rows.push([
      "real browser: send_email, 1 MiB (median of 20)",
      `${realMs.toFixed(0)} ms`,
      `${(realMs - simulatedMs).toFixed(0)} ms over the simulated page, aim <= 300 ms: ${realMs - simulatedMs <= 300 ? "ok" : "MISSED"}`,
    ]);

    for (let i = 20; i < 200; i++) await sendOnce();
    const rss200 = await host.rssBytes();
    rows.push(["real browser: RSS of its process tree after 20 runs", `${(rss20 / MiB).toFixed(0)} MiB`, "summed over the processes"]);
    rows.push([
      "real browser: RSS of its process tree after 200 runs",
      `${(rss200 / MiB).toFixed(0)} MiB`,
      `${(rss200 / rss20).toFixed(2)}x after 20, aim <= 1.2x: ${rss200 / rss20 <= 1.2 ? "ok" : "MISSED"}; launches: ${host.launches}; stopped at the wall: ${(await host.wallAttempts()).length}`,
    ]);
  } finally {
    await host.close();
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await benchBrowser();
  const width = Math.max(...rows.map((r) => r[0].length));
  const width2 = Math.max(...rows.map((r) => r[1].length));
  console.log(`\nsandbox browser benchmark (node ${process.version}, ${os.cpus().length} cores)\n`);
  for (const [what, value, note] of rows) console.log(`${what.padEnd(width)}  ${value.padStart(width2)}  ${note}`);
}
