// A script process kept for the next run of the same body by the same caller (run/script-processes.ts):
// each run still gets a fresh realm and worker, a run that failed by time or crash leaves no process
// behind, and another caller or another body never gets the process.
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
const run = (content: string, caller: string, timeoutMs = 5_000) => runScriptBody({ content, args: {}, files: {}, host, timeoutMs, caller });
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
});
