// A script body runs isolated from the server: it sees page, args, files, builtins and plain
// JavaScript, and nothing it does reaches the server's process, modules, files or network, nor
// stops the server. Every probe is a script created through the API and run through POST /run
// (in-process, the same handlers as the sandbox); each would succeed in leaking something, killing
// or freezing the server if the body ran with the server's powers.
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API, useScriptProbes } from "./fixtures/script-probes.js";

// One second is the limit here: a probe that freezes its run must not freeze the suite. It starts
// with the body (a loaded machine's slow process start-up is not counted), and a body that spins
// uses it up in CPU time as well; tests whose bodies do seconds of honest work raise it.
const probes = useScriptProbes(
  { runTimeoutMs: 1000, browser: "simulated" },
  { content: "return { still: 'serving', answer: 6 * 7 };", result: { still: "serving", answer: 42 } },
);
const { call, createAndRun, expectFailedRun } = probes;
const setRunTimeout = (ms: number) => {
  probes.store.runTimeoutMs = ms;
};

const FILE = { doc: { b64: Buffer.from("%PDF-1.7").toString("base64"), mime: "application/pdf" } };
const NO_CODE_FROM_STRINGS = "EvalError: scripts can't run code given as a string (eval, Function): write it in the script";

describe("script isolation: the classic constructor escapes", () => {
  // Each reaches for the Function constructor of whatever realm made the value, then for `process`.
  const probes: Array<[string, string]> = [
    ["page", `return { pid: page.constructor.constructor("return process")().pid };`],
    ["a page method", `return { pid: page.url.constructor("return process")().pid };`],
    ["builtins", `return { pid: builtins.constructor.constructor("return process")().pid };`],
    ["a builtin", `return { pid: builtins.goto.constructor("return process")().pid };`],
    ["args", `return { pid: args.constructor.constructor("return process")().pid };`],
    ["files", `return { pid: files.doc.constructor.constructor("return process")().pid };`],
    ["globalThis", `return { pid: globalThis.constructor.constructor("return process")().pid };`],
    ["this", `return { pid: this.constructor.constructor("return process")().pid };`],
    [
      "a promise a builtin returns",
      `const p = builtins.goto("https://example.org/"); await p; return { pid: p.constructor.constructor("return process")().pid };`,
    ],
    [
      "what a page method returns",
      `await page.setContent('<input type="file" id="f">'); await builtins.uploadFile("#f", "doc"); const held = await page.locator("#f").evaluate((input) => ({ name: input.files[0].name })); return { pid: held.constructor.constructor("return process")().pid };`,
    ],
    [
      "an error a builtin throws",
      `try { await builtins.goto("not a url"); } catch (e) { return { pid: e.constructor.constructor("return process")().pid }; } return {};`,
    ],
    [
      "an error a page method throws",
      `try { page.setDefaultTimeout("soon"); } catch (e) { return { pid: e.constructor.constructor("return process")().pid }; } return {};`,
    ],
    ["an async function's constructor", `return { pid: await (async () => {}).constructor("return process")().pid };`],
    ["eval", `return { pid: eval("process").pid };`],
  ];
  for (const [through, content] of probes) {
    it(`fails a run that reaches for process through ${through}`, async () => {
      await expectFailedRun(await createAndRun(content, { files: FILE }), NO_CODE_FROM_STRINGS);
    });
  }

  it("gives no caller to climb: arguments.callee.caller, a stack trace's functions", async () => {
    await expectFailedRun(await createAndRun(`return { pid: arguments.callee.caller.constructor("return process")().pid };`), /^TypeError: /);
    const frames = await createAndRun(`
      Error.prepareStackTrace = (_, frames) => frames.map((f) => typeof f.getFunction());
      await builtins.goto("https://example.org/");
      return { kinds: new Error("x").stack };`);
    expect(frames.status).toBe(200);
    expect(frames.body.result.kinds.every((kind: string) => kind === "undefined" || kind === "function")).toBe(true);
  });

  it("keeps whatever the host throws inside the script's realm, even at the edge of the stack", async () => {
    // Near the stack limit, a call into the host can fail while entering it; what is thrown must
    // still be the script's own kind of error, never the host's. Fifty trips to the stack's edge
    // take seconds on a loaded machine, and are no test of the time limit: they get 30 s.
    setRunTimeout(30_000);
    const ran = await createAndRun(`
      let leaked = null;
      const reach = (e) => { try { return e.constructor.constructor("return process")(); } catch { return null; } };
      function deep(n) {
        try { return deep(n + 1); } catch {
          try { page.url(); } catch (e) { leaked = leaked || reach(e); }
          try { builtins.goto("https://example.org/").catch((e) => { leaked = leaked || reach(e); }); } catch (e) { leaked = leaked || reach(e); }
          try { crypto.randomUUID(); } catch (e) { leaked = leaked || reach(e); }
          return n;
        }
      }
      for (let i = 0; i < 50; i++) deep(0);
      await builtins.goto("https://example.org/");
      if (leaked) return { pid: leaked.pid };
      throw new Error("no way out");`);
    await expectFailedRun(ran, "Error: no way out");
  });
});

describe("script isolation: what the body's realm holds", () => {
  it("has page, args, files, builtins, crypto, timers and plain JavaScript, and nothing of Node", async () => {
    const ran = await createAndRun(`
      return {
        globals: Object.getOwnPropertyNames(globalThis),
        types: [typeof page, typeof args, typeof files, typeof builtins, typeof crypto.randomUUID],
        uuid: crypto.randomUUID(),
      };`);
    expect(ran.status).toBe(200);
    const { globals, types, uuid } = ran.body.result;
    expect(types).toEqual(["object", "object", "object", "object", "function"]);
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    for (const name of ["process", "require", "module", "Buffer", "fetch", "setImmediate", "setInterval", "queueMicrotask", "structuredClone", "global"]) {
      expect(globals).not.toContain(name);
    }
    expect(globals).toEqual(expect.arrayContaining(["Object", "Promise", "JSON", "Math", "Date", "Array", "crypto", "setTimeout", "clearTimeout"]));
  });

  it("waits with setTimeout, cancels with clearTimeout, and fails the run on an error thrown in a timer", async () => {
    const waited = await createAndRun(`
      const started = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 30));
      let fired = 0;
      clearTimeout(setTimeout(() => fired++, 0));
      const passed = await new Promise((resolve) => setTimeout((a, b) => resolve(a + b), 5, "pas", "sed"));
      // Node's timers may fire a millisecond early by Date.now(): a loose bound, no timing claim.
      return { waited: Date.now() - started >= 25, fired, passed };`);
    expect(waited).toMatchObject({ status: 200, body: { result: { waited: true, fired: 0, passed: "passed" } } });
    await expectFailedRun(await createAndRun(`setTimeout(() => { throw new TypeError("late"); }, 0); await new Promise(() => {});`), "TypeError: late");
    await expectFailedRun(
      await createAndRun(`setTimeout("process.exit(0)", 0); return {};`),
      "TypeError: setTimeout: give a function (code in a string is not run)",
    );
  });

  it("fails process.exit, require, process.binding and Buffer with ReferenceError, and the server keeps serving", async () => {
    await expectFailedRun(await createAndRun("process.exit(0);"), "ReferenceError: process is not defined");
    await expectFailedRun(await createAndRun(`return { id: require("child_process").execSync("id").toString() };`), "ReferenceError: require is not defined");
    await expectFailedRun(await createAndRun(`return { fs: process.binding("fs") };`), "ReferenceError: process is not defined");
    await expectFailedRun(await createAndRun(`return { b: Buffer.from("x") };`), "ReferenceError: Buffer is not defined");
  });

  it("refuses import() in any form before the body runs", async () => {
    const refused = "SyntaxError: import() is not available to scripts: a script sees only page, args, files and builtins";
    await expectFailedRun(await createAndRun(`const fs = await import("node:fs"); return { passwd: fs.readFileSync("/etc/passwd", "utf8") };`), refused);
    await expectFailedRun(await createAndRun(`const cp = await import /* spaced */ ("child_process"); return { id: cp.execSync("id").toString() };`), refused);
    // Never called, but there: refused all the same.
    await expectFailedRun(await createAndRun(`const later = () => import("node:fs"); return {};`), refused);
    // A failed import() must not even be attempted: on Node 20 its error comes from the server's realm.
    await expectFailedRun(
      await createAndRun(`try { await import("x"); } catch (e) { return { pid: e.constructor.constructor("return process")().pid }; }`),
      refused,
    );
  });

  it("fails a run on a rejection nobody handles, without letting the server's realm inspect it", async () => {
    const marker = path.join(probes.scratch, "inspected.txt");
    // Node's default handling would inspect the reason, handing a custom inspect function the
    // server realm's own objects.
    const ran = await createAndRun(`
      const evil = new Error("nobody caught me");
      evil[Symbol.for("nodejs.util.inspect.custom")] = (depth, options, inspect) => {
        inspect.constructor("return process")().getBuiltinModule("fs").writeFileSync(${JSON.stringify(marker)}, "x");
        return "inspected";
      };
      evil.notCloneable = () => 1;
      Promise.reject(evil);
      // The rejection ends the run when Node reports it: the wait is a bound, not what the run takes.
      await new Promise((resolve) => setTimeout(resolve, 500));
      return {};`);
    await expectFailedRun(ran, "Error: nobody caught me");
    expect(existsSync(marker)).toBe(false);
    await expectFailedRun(
      await createAndRun(`builtins.goto("not a url"); await new Promise((resolve) => setTimeout(resolve, 500)); return {};`),
      /^Error: goto: "not a url" is not an absolute URL$/,
    );
  });

  it("cannot write a file, even through a body that closes its own function early", async () => {
    const marker = path.join(probes.scratch, "written.txt");
    const ran = await createAndRun(`});\nrequire("fs").writeFileSync(${JSON.stringify(marker)}, "pwned");\n(async function () {`);
    expect(ran.status).toBe(422);
    expect(ran.body.error).toMatch(/^SyntaxError: /);
    expect(existsSync(marker)).toBe(false);
    await expectFailedRun(await createAndRun(`require("fs").writeFileSync(${JSON.stringify(marker)}, "pwned");`), "ReferenceError: require is not defined");
    expect(existsSync(marker)).toBe(false);
  });
});

describe("script isolation: bounded runs", () => {
  it("fails a body that loops forever when the run's time is up, records it as an error, and keeps serving", async () => {
    await expectFailedRun(await createAndRun("for (;;) {}"), "script timed out after 1 s");
  });

  it("times out a body stuck after a page call, and one blocked in Atomics.wait", async () => {
    await expectFailedRun(await createAndRun(`await builtins.goto("https://example.org/"); while (true) {}`), "script timed out after 1 s");
    await expectFailedRun(await createAndRun("Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); return {};"), "script timed out after 1 s");
  });

  it("records the step the time ran out at in the trace", async () => {
    const ran = await createAndRun(`await builtins.goto("https://example.org/"); for (;;) {}`);
    const trace = await call("GET", `${API}/api/runs/${ran.body.runId}/trace`);
    expect(trace.body.steps.map((s: { action: string; ok: boolean }) => [s.action, s.ok])).toEqual([
      ["goto https://example.org/", true],
      ["timeout", false],
    ]);
  });

  it("fails a body that calls the page without end, or hands it or returns more than 1 MB", async () => {
    // 10,000 calls answered by the server take more than a second on a loaded machine: the limit
    // met here must be the count, not the time.
    probes.store.runTimeoutMs = 30_000;
    await expectFailedRun(await createAndRun(`for (;;) builtins.pressKey("a");`), "script made more than 10,000 calls to page and builtins");
    await expectFailedRun(
      await createAndRun(`await builtins.paste("#x", "a".repeat(2 * 1024 * 1024)); return {};`),
      "RangeError: builtins.paste: its arguments are over 1 MiB as JSON",
    );
    await expectFailedRun(await createAndRun(`return { big: "a".repeat(2 * 1024 * 1024) };`), "Error: the script's result is over 1 MiB as JSON");
  });

  it("fails a body that eats memory without end, not the server", async () => {
    probes.store.runTimeoutMs = 30_000;
    await expectFailedRun(await createAndRun("const all = []; for (;;) all.push(new Array(1e6).fill(1.5));"), /^script ran out of memory/);
  });
});
