// A script process kept for the next run of the same body by the same caller (script-processes.ts):
// each run still gets a fresh realm, nothing a run left behind (a timer, promise jobs, a callback
// the language schedules) runs in the next one, a run that failed by time or crash leaves no
// process behind, and another caller or another body never gets the process.
import { afterEach, describe, expect, it } from "vitest";
import { keptScriptProcesses, scriptKey } from "./script-processes.js";
import { objectHost, runScriptBody } from "./script-runner.js";

const host = objectHost(
  {
    async title() {
      return "Inbox";
    },
    url() {
      return "https://mail.example/";
    },
  },
  {},
  new Set(["url"]),
);
const run = (content: string, caller: string, timeoutMs = 5_000, args: object = {}) => runScriptBody({ content, args, files: {}, host, timeoutMs, caller });
/** Waits until the process a run left is kept (it is readied for the next run once the run has ended). */
async function keptFor(caller: string, content: string): Promise<number[]> {
  const script = scriptKey(content);
  for (let i = 0; i < 1_000; i++) {
    const pids = keptScriptProcesses()
      .filter((kept) => kept.caller === caller && kept.script === script)
      .map((kept) => kept.pid);
    if (pids.length) return pids;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return [];
}

describe("script processes kept between runs", () => {
  afterEach(() => {
    for (const { pid } of keptScriptProcesses()) process.kill(pid, "SIGKILL");
  });

  it("serves the next run of the same body and caller from the same process, in a fresh realm", async () => {
    const counter = "globalThis.seen = (globalThis.seen ?? 0) + 1; return { seen: globalThis.seen, title: await page.title(), url: page.url() };";
    expect(await run(counter, "alice")).toEqual({ ok: true, value: { seen: 1, title: "Inbox", url: "https://mail.example/" } });
    const [pid] = await keptFor("alice", counter);
    expect(pid).toBeGreaterThan(0);
    // The same process, a new worker: nothing the first body left on its global is there.
    expect(await run(counter, "alice")).toEqual({ ok: true, value: { seen: 1, title: "Inbox", url: "https://mail.example/" } });
    expect(await keptFor("alice", counter)).toEqual([pid]);
  });

  it("keeps no process for another caller's or another body's run, nor after a run that timed out", async () => {
    const body = "return { title: await page.title() };";
    await run(body, "alice");
    const [alices] = await keptFor("alice", body);
    await run(body, "bob");
    const [bobs] = await keptFor("bob", body);
    expect(bobs).not.toBe(alices);
    const other = "return { other: true };";
    await run(other, "alice");
    expect(await keptFor("alice", other)).not.toContain(alices);

    const spin = "for (;;) {}";
    expect(await run(spin, "carol", 300)).toMatchObject({ ok: false, stage: "timeout" });
    expect(keptScriptProcesses().filter((kept) => kept.script === scriptKey(spin))).toEqual([]);
  });

  // Each body below leaves something that would spin forever in the next run, were it to run there:
  // the next run (the same body, other args) would then time out instead of answering.
  it("cancels the timers of a run that has ended: none fires in the next run", async () => {
    const body =
      "if (args.leave) { setTimeout(() => { for (;;) {} }, 100); return 'left'; } const t = Date.now(); await new Promise((r) => setTimeout(r, 400)); return Date.now() - t >= 390 ? 'waited' : 'woken early';";
    expect(await run(body, "dana", 5_000, { leave: true })).toEqual({ ok: true, value: "left" });
    const [pid] = await keptFor("dana", body);
    expect(await run(body, "dana", 2_000)).toEqual({ ok: true, value: "waited" });
    expect(await keptFor("dana", body)).toEqual([pid]);
  });

  it("serves the next run after a run that left promise jobs running without end", async () => {
    const body = "if (args.leave) { (async () => { for (;;) await null; })(); return 'left'; } return 'next';";
    expect(await run(body, "erin", 5_000, { leave: true })).toEqual({ ok: true, value: "left" });
    const [pid] = await keptFor("erin", body);
    expect(await run(body, "erin")).toEqual({ ok: true, value: "next" });
    expect(await keptFor("erin", body)).toEqual([pid]);
  });

  it("keeps Atomics.waitAsync and FinalizationRegistry working, and runs none of a run's such callbacks in the next run", async () => {
    const body = `const cell = new Int32Array(new SharedArrayBuffer(4));
      if (args.leave) {
        Atomics.waitAsync(cell, 0, 0, 100).value.then(() => { for (;;) {} });
        new FinalizationRegistry(() => { for (;;) {} }).register({}, "held");
        return "left";
      }
      await new Promise((r) => setTimeout(r, 400));
      return { waited: await Atomics.waitAsync(cell, 0, 0, 10).value };`;
    expect(await run(body, "frank", 5_000, { leave: true })).toEqual({ ok: true, value: "left" });
    const [pid] = await keptFor("frank", body);
    expect(await run(body, "frank", 2_000)).toEqual({ ok: true, value: { waited: "timed-out" } });
    expect(await keptFor("frank", body)).toEqual([pid]);
  });
});
