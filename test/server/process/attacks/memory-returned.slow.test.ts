// Memory is given back. After rounds of refused runs (results too big to hold,
// gigabytes of ArrayBuffer, a heap without end) and refused uploads, the server's resident memory
// (read from /proc) is within 200 MiB of where it was, and its process tree never passed 1 GiB.
import { describe, expect, it } from "vitest";
import { BESIDE, MiB, peakTreeRss } from "../../testing/sandbox-under-attack.js";
import { attackedSandbox } from "./fixtures/attacked-sandbox.js";

const sandbox = attackedSandbox();

const ATTACKS = [
  "return { s: 'x'.repeat(500e6) };",
  "const big = new Uint8Array(4 * 2 ** 30); big.fill(1); return {};",
  "const all = []; for (;;) all.push(new Uint8Array(32 * 2 ** 20).fill(7));",
  "return { n: Array.from({ length: 3e7 }, (_, i) => i) };",
];

describe("memory is given back", () => {
  it("after three rounds of every memory attack and of oversized script bodies, the server is within 200 MiB of where it was", async () => {
    expect((await sandbox.createAndRun("return { warm: true };")).status).toBe(200);
    const before = await sandbox.serverRss();
    const { peak } = await peakTreeRss(sandbox, async () => {
      for (let round = 0; round < 3; round++) {
        const beside = sandbox.createAndRun(BESIDE);
        for (const attack of ATTACKS) expect((await sandbox.createAndRun(attack)).status).toBe(422);
        const tooBig = await fetch(`${sandbox.url}/api/scripts/@demo`, {
          method: "POST",
          headers: { "x-api-key": sandbox.key, "content-type": "application/json" },
          body: JSON.stringify({ host: "example.org", slug: `big_${round}`, content: "x".repeat(20 * MiB) }),
        });
        expect(tooBig.status).toBe(413);
        await tooBig.arrayBuffer();
        expect(await beside).toMatchObject({ status: 200, body: { result: { beside: "fine" } } });
      }
    });
    const after = await sandbox.serverRss();
    process.stderr.write(
      `memory-returned: server RSS ${Math.round(before / MiB)} MiB before, ${Math.round(after / MiB)} MiB after; tree peak ${Math.round(peak / MiB)} MiB\n`,
    );
    expect(after).toBeLessThan(before + 200 * MiB);
    expect(peak).toBeLessThan(1024 * MiB);
    expect((await sandbox.call("GET", "/api/ping")).status).toBe(200);
  }, 120_000);
});
