/**
 * The sandbox under attack, as `npm run bench` reports it (`benchSandboxAttacks()`, or
 * `npx tsx bench/sandbox-attacks.ts` alone): a sandbox started as users start it
 * (`--browser simulated`), then
 * 1. the median time of 20 ordinary runs through POST /run (each body in a process of its own,
 *    taken warm from the pool);
 * 2. for each memory attack, the server's resident memory before and after, and the peak of its
 *    whole process tree during the attack (aims: after within 200 MiB of before, peak under 1 GiB).
 */
import { fileURLToPath } from "node:url";
import { MiB, peakTreeRss, startAttackedSandbox } from "@reduck-client/sandbox/internal";
import { median } from "./measure.js";

const ATTACKS: Array<[string, string]> = [
  ["500-million-character result", "return { s: 'x'.repeat(500e6) };"],
  ["4 GiB typed array, filled", "const big = new Uint8Array(4 * 2 ** 30); big.fill(1); return {};"],
  ["typed arrays without end", "const all = []; for (;;) all.push(new Uint8Array(32 * 2 ** 20).fill(7));"],
  ["30 million numbers as result", "return { n: Array.from({ length: 3e7 }, (_, i) => i) };"],
];

/** Rows of `[what, figure, note]`. */
export async function benchSandboxAttacks(): Promise<Array<[string, string, string]>> {
  const rows: Array<[string, string, string]> = [];
  const mib = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`;
  const sandbox = await startAttackedSandbox();
  try {
    const slug = await sandbox.create("return { ok: true };");
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      const ran = await sandbox.call("POST", "/run", { browser: "extension", script: { host: "example.org", slug, args: {} } });
      if (ran.status !== 200) throw new Error(`an ordinary run failed: ${JSON.stringify(ran.body)}`);
      times.push(performance.now() - started);
    }
    rows.push(["sandbox: an ordinary run (own process, simulated page)", `${median(times).toFixed(0)} ms`, "median of 20"]);
    for (const [what, attack] of ATTACKS) {
      const before = await sandbox.serverRss();
      const { value: ran, peak } = await peakTreeRss(sandbox, () => sandbox.createAndRun(attack));
      const after = await sandbox.serverRss();
      const ok = ran.status === 422 && after - before < 200 * MiB && peak < 1024 * MiB;
      rows.push([
        `sandbox attack: ${what}`,
        `peak ${mib(peak)}`,
        `server ${mib(before)} -> ${mib(after)}; ${ran.status}; aim peak < 1 GiB, after within 200 MiB: ${ok ? "ok" : "MISSED"}`,
      ]);
    }
  } finally {
    await sandbox.stop();
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [what, value, note] of await benchSandboxAttacks()) console.log(`${what.padEnd(58)}  ${value.padStart(12)}  ${note}`);
}
