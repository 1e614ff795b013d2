// A script body that exhausts its heap, allocates gigabytes of
// ArrayBuffer or returns a value too big to hold fails its own run (422, the limit named), never
// the sandbox: a run beside it succeeds, the next run starts at once, the sandbox's processes stay
// under 1 GiB together, and the server's memory comes back within 200 MiB.
import { beforeAll, describe, expect, it } from "vitest";
import { BESIDE, MiB, peakTreeRss } from "../../testing/sandbox-under-attack.js";
import { attackedSandbox } from "./fixtures/attacked-sandbox.js";

const sandbox = attackedSandbox(["--run-memory", "128"]);
let baseline = 0;

beforeAll(async () => {
  // One ordinary run first, so the baseline is a sandbox that has run scripts.
  expect((await sandbox.createAndRun("return { warm: true };")).status).toBe(200);
  baseline = await sandbox.serverRss();
}, 60_000);

const ATTACKS: Array<[string, string, RegExp]> = [
  ["a ~500-million-character string as its result", "return { s: 'x'.repeat(500e6) };", /^script ran out of memory.*128 MiB/],
  ["tens of millions of numbers as its result", "return { n: Array.from({ length: 3e7 }, (_, i) => i) };", /^script ran out of memory.*128 MiB/],
  [
    "a 4 GiB typed array",
    "const big = new Uint8Array(4 * 2 ** 30); big.fill(1); return { n: big.length };",
    /^script ran out of memory: RangeError: Array buffer allocation failed.*128 MiB/,
  ],
  ["typed arrays without end, each filled", "const all = []; for (;;) all.push(new Uint8Array(32 * 2 ** 20).fill(7));", /^script ran out of memory.*128 MiB/],
  ["a heap that grows without end", "const all = []; for (;;) all.push(new Array(1e6).fill(1.5));", /^script ran out of memory.*128 MiB/],
];

describe("a run cannot take the sandbox down (memory)", () => {
  it.each(ATTACKS)(
    "%s: 422 naming the limit, a run beside it succeeds, the next starts at once",
    async (_what, attack, error) => {
      const beside = sandbox.createAndRun(BESIDE);
      const { value: ran, peak } = await peakTreeRss(sandbox, () => sandbox.createAndRun(attack));
      expect(ran.status).toBe(422);
      expect(ran.body.error).toMatch(error);
      expect(ran.body.errorType).toBe("script_error");
      expect(await beside).toMatchObject({ status: 200, body: { result: { beside: "fine" } } });
      expect(peak).toBeLessThan(1024 * MiB);

      const started = Date.now();
      expect(await sandbox.createAndRun("return { next: 1 + 1 };")).toMatchObject({ status: 200, body: { result: { next: 2 } } });
      expect(Date.now() - started).toBeLessThan(5000);
      expect((await sandbox.call("GET", "/api/ping")).status).toBe(200);
      // Item 6: what the refused run cost the server is given back.
      expect(await sandbox.serverRss()).toBeLessThan(baseline + 200 * MiB);
    },
    60_000,
  );
});
