import { expect, it } from "vitest";
import { inPool } from "../../../src/cli/scripts/folder-tree.js";

/** A task that ends when told, so the test sees how many are in flight at once. */
function gate() {
  let inFlight = 0;
  let most = 0;
  const waiting: Array<() => void> = [];
  const task = async (n: number) => {
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise<void>((resolve) => waiting.push(resolve));
    inFlight--;
    if (n === -1) throw new Error("boom");
    return n * 2;
  };
  return { task, most: () => most, release: () => waiting.splice(0).forEach((r) => r()), started: () => waiting.length };
}

it("keeps at most the limit in flight and gives the results in the items' order", async () => {
  const g = gate();
  let finished = false;
  const done = inPool(
    Array.from({ length: 20 }, (_, i) => i),
    8,
    g.task,
  ).finally(() => {
    finished = true;
  });
  while (!finished) {
    await new Promise((r) => setImmediate(r));
    g.release();
  }
  expect(await done).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
  expect(g.most()).toBe(8);
});

it("starts nothing new after a failure, and throws it once those in flight ended", async () => {
  const g = gate();
  const calls: number[] = [];
  const done = inPool([-1, 1, 2, 3, 4, 5], 2, (n) => {
    calls.push(n);
    return g.task(n);
  });
  const settled = done.catch((err: Error) => err.message);
  for (let i = 0; i < 5; i++) {
    await new Promise((r) => setImmediate(r));
    g.release();
  }
  expect(await settled).toBe("boom");
  expect(calls).toEqual([-1, 1]);
});
