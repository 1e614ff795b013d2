/**
 * The sandbox's real browser, measured as a user meets it (`npx tsx bench/browser.ts`, or
 * `benchBrowser()` from bench/run.ts): two sandboxes started as `npm run sandbox` starts them, one
 * running scripts in the real browser, one against the simulated page (`--browser simulated`), and
 * the library's runScript sending send_email with a 1 MiB attachment to each.
 *
 * 1. The first run after each sandbox starts (the browser launches as the sandbox starts listening).
 * 2. The median of 20 later runs on each, paired (real, then simulated, twenty times), and the
 *    median of the pairs' differences (aim: the real browser within 300 ms of the simulated page).
 * 3. The real sandbox's resident memory, its browser included (the whole process tree), after 20
 *    and after 200 runs (aim: the second within 1.2x of the first), each read once it is at rest:
 *    a run's context closes just after its answer, and until then its renderer (some 100 MiB)
 *    would count or not by chance.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { createReduckClient, runScript, type ReduckClient } from "../src/index.js";
import { startSandboxProcess } from "@reduck-client/sandbox";
import { treeRssBytes } from "@reduck-client/sandbox/internal";
import { median } from "./measure.js";

const MiB = 2 ** 20;
const RUNS = 20;
const LONG_RUNS = 200;
const REST_MS = 1_000;

/** Rows of `[what, figure, note]`. */
export async function benchBrowser(): Promise<Array<[string, string, string]>> {
  const rows: Array<[string, string, string]> = [];
  const work = await mkdtemp(path.join(os.tmpdir(), "reduck-bench-browser-"));
  const attachment = path.join(work, "report.pdf");
  await writeFile(attachment, Buffer.alloc(MiB, 7));
  const [real, simulated] = await Promise.all([startSandboxProcess(work), startSandboxProcess(work, { browser: "simulated" })]);
  try {
    const clientOf = (sandbox: typeof real): ReduckClient => createReduckClient({ apiKey: sandbox.env.REDUCK_API_KEY!, baseUrl: sandbox.env.REDUCK_API_URL! });
    const clients = { real: clientOf(real), simulated: clientOf(simulated) };
    const send = async (client: ReduckClient): Promise<number> => {
      const started = performance.now();
      const { error } = await runScript({
        client,
        browser: "extension",
        script: {
          handle: "reduck",
          host: "mail.google.com",
          slug: "send_email",
          args: { to: ["a@example.com"], subject: "Quarterly report", body: "Attached.", attachmentName: "report.pdf" },
          files: { attachment: { path: attachment } },
        },
      });
      if (error) throw new Error(`send_email failed: ${error.error}`);
      return performance.now() - started;
    };

    const firstReal = await send(clients.real);
    const firstSimulated = await send(clients.simulated);
    rows.push([
      "sandbox, real browser: first run after it starts",
      `${firstReal.toFixed(0)} ms`,
      "send_email, 1 MiB; the browser launches as the sandbox listens",
    ]);
    rows.push(["sandbox, simulated page: first run after it starts", `${firstSimulated.toFixed(0)} ms`, "the same run"]);

    const realTimes: number[] = [];
    const simulatedTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      realTimes.push(await send(clients.real));
      simulatedTimes.push(await send(clients.simulated));
    }
    await sleep(REST_MS);
    const rss20 = await treeRssBytes(real.pid);
    const over = median(realTimes.map((t, i) => t - simulatedTimes[i]!));
    rows.push([`sandbox, simulated page: send_email, 1 MiB (median of ${RUNS})`, `${median(simulatedTimes).toFixed(0)} ms`, "library runScript over loopback"]);
    rows.push([
      `sandbox, real browser: send_email, 1 MiB (median of ${RUNS})`,
      `${median(realTimes).toFixed(0)} ms`,
      `median of paired differences ${over.toFixed(0)} ms over the simulated page, aim <= 300 ms: ${over <= 300 ? "ok" : "MISSED"}`,
    ]);

    for (let i = RUNS; i < LONG_RUNS; i++) await send(clients.real);
    await sleep(REST_MS);
    const rss200 = await treeRssBytes(real.pid);
    rows.push([
      `sandbox with its browser: RSS after ${RUNS} runs`,
      `${(rss20 / MiB).toFixed(0)} MiB`,
      `the sandbox process and its whole tree (Chromium's processes), ${REST_MS / 1000} s after the last run`,
    ]);
    rows.push([
      `sandbox with its browser: RSS after ${LONG_RUNS} runs`,
      `${(rss200 / MiB).toFixed(0)} MiB`,
      `${(rss200 / rss20).toFixed(2)}x after ${RUNS}, aim <= 1.2x: ${rss200 / rss20 <= 1.2 ? "ok" : "MISSED"}`,
    ]);
  } finally {
    real.stop();
    simulated.stop();
    await Promise.all([real.exited, simulated.exited]);
    await rm(work, { recursive: true, force: true });
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
