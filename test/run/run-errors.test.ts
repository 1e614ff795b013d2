/**
 * What a run's failure looks like to a program, against the sandbox over loopback HTTP: one kind
 * whichever way the failure came back (within the service's hold, or after a wait), an abort
 * after the run was sent that says the run may go on and how to find it (findRun finds it), and
 * a misspelt argument the service refused, named by the library with a did-you-mean.
 */
import { describe, expect, test } from "vitest";
import { findRun, runScript, waitForRun, type ReduckError } from "../../src/index.js";
import { useCliSandbox } from "../support/sandbox.js";
import { waitFor } from "../support/wait.js";

const sandbox = useCliSandbox({ store: { browser: "simulated" }, home: "reduck-run-errors-" });

const SLEEP = { handle: "sandbox", host: "sandbox.test", slug: "sleep" };
const SEND_EMAIL = { handle: "reduck", host: "mail.google.com", slug: "send_email" };

/** The requests the sandbox received from here on, as `METHOD path`. */
function requestsFrom() {
  const start = sandbox.store.requestLog.length;
  return () => sandbox.store.requestLog.slice(start).map((r) => `${r.method} ${r.path}`);
}

describe("a run that fails is run_failed, whichever way the failure came back", () => {
  test("one script: failed within the hold and failed after a wait give the same error, errorType and externalMessage", async () => {
    const log = requestsFrom();
    const within = await runScript({ client: sandbox.client, script: { ...SLEEP, args: { seconds: 0, fail: "the site said no" } } });
    const after = await runScript({ client: sandbox.client, script: { ...SLEEP, args: { seconds: 2, fail: "the site said no" } }, waitForSeconds: 1 });

    expect(within.error).toMatchObject({ kind: "run_failed", runId: expect.any(String), errorType: "site_error" });
    // The fields a program reads of a failure, equal whichever way it came back (the run ids differ: two runs).
    const fields = (error: ReduckError | undefined) => ({
      kind: error?.kind,
      error: error?.error,
      errorType: error?.errorType,
      externalMessage: error?.externalMessage,
      runId: typeof error?.runId,
    });
    expect(fields(after.error)).toEqual(fields(within.error));
    expect(within.error!.externalMessage).toContain("the site said no");
    expect(within.error!.error).toBe("Error: the site said no");
    // Each way, the run's outcome beside its error, as a batch gives its steps'.
    for (const result of [within, after]) {
      expect(result.outcomes).toEqual([
        expect.objectContaining({ status: "failed", runId: result.error!.runId, error: "Error: the site said no", errorType: "site_error" }),
      ]);
    }
    // The slow one was waited on through its batch, whose envelopes keep the failure's fields.
    expect(
      log()
        .filter((r) => r.startsWith("GET "))
        .every((r) => r.startsWith("GET /batches/")),
    ).toBe(true);
    expect(log()).toContain(`GET /batches/${after.error!.batchId}`);
  });

  test("several scripts: failed within the hold (a 200 array) and after a wait (a 202 batch polled) give the same outcomes", async () => {
    const scripts = (seconds: number) => [
      { ...SLEEP, args: { seconds, echo: "ok" } },
      { ...SLEEP, args: { seconds, fail: "the site said no" } },
    ];
    const within = await runScript({ client: sandbox.client, scripts: scripts(0) });
    const after = await runScript({ client: sandbox.client, scripts: scripts(2), waitForSeconds: 1 });
    const { runId: _within, ...failedWithin } = within.outcomes![1]!;
    const { runId: _after, ...failedAfter } = after.outcomes![1]!;
    expect(within.data?.status).toBe("failed");
    expect(after.data?.status).toBe("failed");
    expect(after.outcomes!.map((o) => o.status)).toEqual(["completed", "failed"]);
    expect(failedAfter).toEqual(failedWithin);
    expect(within.outcomes![1]).toMatchObject({ status: "failed", errorType: "site_error", externalMessage: expect.stringContaining("the site said no") });
    // The outcomes are the batch's runs: one list, not two copies that could differ.
    expect(after.outcomes).toBe(after.data!.runs);
  });
});

describe("an abort after the run was sent tells the truth", () => {
  test("runScript aborted 300 ms after sending says the run may go on, and findRun finds it", async () => {
    const script = { ...SLEEP, args: { seconds: 2, echo: `abort-${Date.now()}` } };
    const requests = requestsFrom();
    const controller = new AbortController();
    const pending = runScript({ client: sandbox.client, script, signal: controller.signal });
    await waitFor("the run's request to arrive", () => requests().includes("POST /run"));
    setTimeout(() => controller.abort(), 300);
    const { error, outcomes } = await pending;

    expect(error).toMatchObject({ kind: "aborted", code: "run_may_continue", sentAt: expect.any(String) });
    expect(outcomes).toBeUndefined();
    expect(error!.error).toContain("may go on at the service");
    expect(error!.error).toContain(`findRun({ client, script, since: "${error!.sentAt}" })`);

    const found = await findRun({ client: sandbox.client, script, since: error!.sentAt! });
    expect(found.error).toBeUndefined();
    expect(found.data).toMatchObject({ id: expect.any(String), args: script.args });
    // It was the run, and it went on to its end at the service.
    const done = await waitForRun({ client: sandbox.client, runId: found.data!.id });
    expect(done.data).toEqual({ result: { slept: 2, echo: script.args.echo }, runId: found.data!.id });
  });

  test("a signal aborted before sending: nothing was sent, and it says so (no run to find)", async () => {
    const requests = requestsFrom();
    const { error } = await runScript({ client: sandbox.client, script: { ...SLEEP, args: { seconds: 0 } }, signal: AbortSignal.abort() });
    expect(error).toEqual({ kind: "aborted", error: "the run was not sent: its signal was aborted first" });
    expect(requests()).not.toContain("POST /run");
  });

  test("findRun finds nothing with other arguments, before the time, or among runs it is told to pass over", async () => {
    const script = { ...SLEEP, args: { seconds: 0, echo: `find-${Date.now()}` } };
    const since = new Date();
    const ran = await runScript({ client: sandbox.client, script });
    const runId = ran.data!.runId;
    expect((await findRun({ client: sandbox.client, script: "sandbox/sandbox.test/sleep", args: script.args, since })).data?.id).toBe(runId);
    expect((await findRun({ client: sandbox.client, script, args: { ...script.args, echo: "other" }, since })).data).toBeNull();
    expect((await findRun({ client: sandbox.client, script, since: Date.now() + 60_000 })).data).toBeNull();
    expect((await findRun({ client: sandbox.client, script, since, exclude: [runId] })).data).toBeNull();
    expect((await findRun({ client: sandbox.client, script: "not an address", since })).error).toMatchObject({
      kind: "invalid_request",
      code: "invalid_options",
    });
    expect((await findRun({ client: sandbox.client, script, since: "yesterday-ish" })).error).toMatchObject({
      kind: "invalid_request",
      code: "invalid_options",
    });
  });
});

describe("a misspelt argument the service refused is named by the library", () => {
  test("subjet: the refusal names it with a did-you-mean, the contract read only then", async () => {
    const requests = requestsFrom();
    const ok = await runScript({ client: sandbox.client, script: { ...SEND_EMAIL, args: { to: "a@b.co", subject: "x" } } });
    expect(ok.error).toBeUndefined();
    expect(requests().filter((r) => r.startsWith("GET /api/scripts/"))).toEqual([]);

    const { error, outcomes } = await runScript({ client: sandbox.client, script: { ...SEND_EMAIL, args: { to: "a@b.co", subjet: "x" } } });
    expect(error).toMatchObject({
      kind: "run_failed",
      code: "unknown_argument",
      parameter: "subjet",
      suggestion: "subject",
      runId: expect.any(String),
      errorType: "invalid_input",
    });
    // The service's words first, then the library's.
    expect(error!.error).toMatch(/subject is required; reduck\/mail\.google\.com\/send_email takes no argument subjet \(did you mean subject\?\)$/);
    expect(outcomes).toEqual([expect.objectContaining({ status: "failed", code: "unknown_argument", parameter: "subjet", suggestion: "subject" })]);
    expect(requests().filter((r) => r.startsWith("GET /api/scripts/"))).toEqual(["GET /api/scripts/reduck/mail.google.com/send_email"]);
  });

  test("in a step of several scripts, the step's outcome says it", async () => {
    const { data } = await runScript({
      client: sandbox.client,
      scripts: [
        { ...SLEEP, args: { seconds: 0 } },
        { ...SLEEP, args: { secnds: 0 } },
      ],
    });
    expect(data?.runs[0]).toMatchObject({ status: "completed" });
    expect(data?.runs[1]).toMatchObject({ status: "failed", code: "unknown_argument", parameter: "secnds", suggestion: "seconds" });
    expect(data?.runs[1]!.error).toContain("sandbox/sandbox.test/sleep takes no argument secnds (did you mean seconds?)");
  });
});
