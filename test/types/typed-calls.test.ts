/**
 * Type-level tests: `npm test` runs `tsc --noEmit` over this file, so each
 * `@ts-expect-error` below fails the suite if the mistake it marks ever compiles.
 */
import { expectTypeOf, test } from "vitest";
import {
  createReduckClient,
  getMe,
  getRun,
  getScript,
  listRuns,
  patchScript,
  runMany,
  runScript,
  waitForRun,
  type Run,
  type ScriptSummary,
  listAllScripts,
  paginateToArray,
  readBatchScript,
  isPendingRun,
  type BatchCounts,
  type BatchRunResponse,
  type BatchScript,
  type ReduckApi,
  type ReduckError,
  type RunManyOptions,
  type RunResponse,
  type RunManySummary,
  type WaitForRunOptions,
  type paths,
} from "../../src/index.js";

const client = createReduckClient({ apiKey: "k", baseUrl: "http://127.0.0.1:9", maxRetries: 0, timeoutMs: 1 });

test("path parameters are checked by name and type", () => {
  const compileOnly = () => {
    // @ts-expect-error runId is the parameter's name, not id
    void getRun({ client, path: { id: "x" } });
    // @ts-expect-error the path is required
    void getRun({ client });
    // @ts-expect-error getScript needs handle, host and slug
    void getScript({ client, path: { handle: "reduck", host: "x.com" } });
    // @ts-expect-error pageSize is a number
    void listRuns({ client, query: { pageSize: "10" } });
    // @ts-expect-error patchScript has no such body field
    void patchScript({ client, path: { handle: "@me", host: "x.com", slug: "s" }, body: { title: "x" } });
    // @ts-expect-error a client is required
    void listRuns({});
  };
  expectTypeOf(compileOnly).toBeFunction();
});

test("results are typed from openapi.json", () => {
  expectTypeOf(getRun).returns.resolves.toHaveProperty("data").toEqualTypeOf<Run | undefined>();
  expectTypeOf(listAllScripts).returns.resolves.toHaveProperty("data").toEqualTypeOf<ScriptSummary[] | undefined>();
  expectTypeOf(listAllScripts).returns.resolves.toHaveProperty("hasNextPage").toEqualTypeOf<boolean>();
});

test("operations that take no body refuse one", () => {
  const compileOnly = () => {
    // @ts-expect-error getScript takes no body
    void getScript({ client, path: { handle: "reduck", host: "x.com", slug: "s" }, body: { x: 1 } });
    // @ts-expect-error getMe takes no body
    void getMe({ client, body: {} });
    // a body where one is taken still compiles
    void patchScript({ client, path: { handle: "@me", host: "x.com", slug: "s" }, body: { description: "d" } });
  };
  expectTypeOf(compileOnly).toBeFunction();
});

test("without a generated module (ReduckScripts empty), runs keep the loose types", () => {
  const compileOnly = async () => {
    const { data } = await runScript({
      client,
      script: { handle: "reduck", host: "mail.google.com", slug: "send_email", args: { anything: 1 }, files: { any: { path: "./x" } } },
    });
    expectTypeOf(data!.result).toBeUnknown();
    const batch = await runScript({ client, scripts: [{ host: "a.com", slug: "b", args: { x: 1 } }] });
    expectTypeOf(batch.data!.runs[0]!.result).toEqualTypeOf<unknown>();
    const waited = await waitForRun({ client, runId: "r" });
    expectTypeOf(waited.data!.result).toBeUnknown();
    for await (const row of runMany({ client, script: "reduck/mail.google.com/send_email", rows: [{ anything: 1 }] })) expectTypeOf(row.result).toBeUnknown();
    // @ts-expect-error the browser's values are listed in the message
    void runScript({ client, browser: "chrome", script: { host: "a.com", slug: "b" } });
    // @ts-expect-error pth is not a file source field
    void runScript({ client, script: { host: "a.com", slug: "b", files: { doc: { pth: "./x" } } } });
    // @ts-expect-error wait: false may give a pending run, which has no result
    void (await runScript({ client, wait: false, script: { host: "a.com", slug: "b" } })).data!.result;
  };
  expectTypeOf(compileOnly).toBeFunction();
});

test("every call takes its own timeoutMs, maxRetries and onRetry, typed as the client's", () => {
  const compileOnly = async () => {
    const onRetry = (info: { attempt: number; delayMs: number; reason: string }) => void info;
    void getMe({ client, timeoutMs: 5_000, maxRetries: 0, onRetry });
    void getScript({ client, path: { handle: "reduck", host: "x.com", slug: "s" }, timeoutMs: 0 });
    void runScript({ client, script: { host: "x.com", slug: "s" }, timeoutMs: 120_000, maxRetries: 1, onRetry });
    void waitForRun({ client, runId: "r", timeoutMs: 10_000, maxRetries: 0 });
    void runMany({ client, script: "reduck/x.com/s", rows: [], maxRetries: 0, onRetry });
    // @ts-expect-error timeoutMs is a number of milliseconds
    void getMe({ client, timeoutMs: "5s" });
    // @ts-expect-error maxRetries is a number
    void runScript({ client, script: { host: "x.com", slug: "s" }, maxRetries: true });
    // @ts-expect-error onRetry is a function
    void waitForRun({ client, runId: "r", onRetry: "loudly" });
  };
  expectTypeOf(compileOnly).toBeFunction();
});

test("a bare object in the description is a record of unknown values, never of never", () => {
  const compileOnly = (run: Run) => {
    // @ts-expect-error an argument's value is unknown until checked, not a string
    const to: string = run.args.to;
    const checked: string | undefined = typeof run.args.to === "string" ? run.args.to : undefined;
    if (run.result && "result" in run.result) {
      // @ts-expect-error a run's result fields are unknown until checked
      const sent: boolean = run.result.result.sent;
      void sent;
    }
    return [to, checked];
  };
  expectTypeOf<Run["args"]>().toEqualTypeOf<Record<string, unknown>>();
  expectTypeOf(compileOnly).toBeFunction();
});

test("waitForRun takes one options object, as every call does; the older two-argument form still compiles", () => {
  const compileOnly = async (signal: AbortSignal) => {
    const one = await waitForRun({ client, runId: "r", signal, deadlineMs: 1000, onStatus: (u) => void u.status });
    expectTypeOf(one.data).toEqualTypeOf<RunResponse<unknown> | undefined>();
    const batch = await waitForRun({ client, batchId: "b", headers: { "X-Team": "ops" } });
    expectTypeOf(batch.data).toEqualTypeOf<BatchRunResponse<unknown[]> | undefined>();
    // A pending run, as runScript({ wait: false }) returned it, spread in.
    const first = await runScript({ client, script: { host: "a.com", slug: "b" }, wait: false });
    if (first.data && isPendingRun(first.data)) {
      const done = await waitForRun({ client, ...first.data, signal });
      expectTypeOf(done.data).toEqualTypeOf<RunResponse | BatchRunResponse | undefined>();
    }
    const older = await waitForRun({ client, runId: "r" }, { signal });
    expectTypeOf(older.data).toEqualTypeOf<RunResponse<unknown> | undefined>();
    const options: WaitForRunOptions = { client, runId: "r", deadlineMs: 5 };
    void options;
    // @ts-expect-error deadlinMs is not an option (deadlineMs is)
    void waitForRun({ client, runId: "r", deadlinMs: 1000 });
    // @ts-expect-error one run: a runId or a batchId, not both
    void waitForRun({ client, runId: "r", batchId: "b" });
  };
  expectTypeOf(compileOnly).toBeFunction();
});

test("runMany can be awaited for its summary, and iterated for its outcomes", () => {
  const compileOnly = async () => {
    const summary = await runMany({ client, script: "a.com/b", rows: [{ x: 1 }] });
    expectTypeOf(summary).toEqualTypeOf<RunManySummary>();
    expectTypeOf(summary.counts).toEqualTypeOf<BatchCounts>();
    expectTypeOf(summary.error).toEqualTypeOf<ReduckError | undefined>();
    for await (const outcome of runMany({ client, script: "a.com/b", rows: [{ x: 1 }], total: 1 })) expectTypeOf(outcome.row).toBeNumber();
  };
  expectTypeOf(compileOnly).toBeFunction();
});

test("names that read right, and every type a public option names is exported", () => {
  const compileOnly = async () => {
    const all = await paginateToArray(listAllScripts, { client });
    expectTypeOf(all.data).toEqualTypeOf<ScriptSummary[]>();
    // The contract runMany takes is what readBatchScript reads.
    const { data: contract } = await readBatchScript(client, "reduck/mail.google.com/send_email");
    if (contract) void runMany({ client, script: contract.address, contract, rows: [] });
  };
  expectTypeOf<RunManyOptions["contract"]>().toEqualTypeOf<BatchScript | undefined>();
  // The generated layer sits under one name; the former lowercase names still compile.
  expectTypeOf<ReduckApi.components["schemas"]["Run"]>().toEqualTypeOf<Run>();
  expectTypeOf<paths>().toEqualTypeOf<ReduckApi.paths>();
  expectTypeOf(compileOnly).toBeFunction();
});
