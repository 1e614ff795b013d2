/**
 * `reduck run` through the service's answers that are not final (a 202 batch, a single run's
 * 202), `--no-wait`, the new flags, and `reduck runs wait`. The sandbox answers the
 * catalogue; POST /run and the batch polls are played here, from the wire facts (§3b).
 */
import { http, HttpResponse } from "msw";
import { beforeEach, describe, expect, it } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { API_URL, reduck, useSandboxForCli } from "../harness.js";

const server = useSandboxForCli();
// With REDUCK_API_URL set (as the harness does), runs go to the same host.
const RUN_HOST = API_URL;
const EMAIL = ["--script", "reduck/mail.google.com/send_email", "to=me@example.com", "subject=Hi"];
// Run and batch ids as the service hands them out: UUIDs (the CLI checks the shape before printing one).
const R1 = "0d4e8619-5b1c-4c1e-9d55-0000000000a1";
const R2 = "0d4e8619-5b1c-4c1e-9d55-0000000000a2";
const B1 = "0d4e8619-5b1c-4c1e-9d55-0000000000b1";
const B2 = "0d4e8619-5b1c-4c1e-9d55-0000000000b2";
const B3 = "0d4e8619-5b1c-4c1e-9d55-0000000000b3";
const B4 = "0d4e8619-5b1c-4c1e-9d55-0000000000b4";

let posts: any[] = [];
let polls = 0;
beforeEach(() => {
  posts = [];
  polls = 0;
});

/** POST /run answers `first`; each poll of a batch answers the next of `then` (the last repeating). */
function wire(first: { status: number; body: unknown }, then: unknown[] = []) {
  server.use(
    http.post(`${RUN_HOST}/run`, async ({ request }) => {
      posts.push(await request.json());
      return HttpResponse.json(first.body as never, { status: first.status });
    }),
    http.get(`${RUN_HOST}/batches/:id`, ({ params }) => {
      const next = then[Math.min(polls++, then.length - 1)];
      if (next === undefined) return HttpResponse.json({ error: `Batch ${params.id} not found` }, { status: 404 });
      return HttpResponse.json(next as never);
    }),
  );
}

const running = (batchId: string, runs: unknown[] = [{ status: "running", runId: R1 }]) => ({ batchId, status: "running", retryAfterMs: 20, runs });
/** A batch of one run, R1, completed with `result`. */
const completed = (batchId: string, result: unknown) => ({ batchId, status: "completed", runs: [{ status: "completed", runId: R1, result }] });

describe("reduck run waits through a 202", () => {
  it("a batch polled to the end: the result on stdout, the run sent once, no status line when piped", async () => {
    wire({ status: 202, body: running(B1) }, [running(B1), completed(B1, { sent: true })]);
    const { stdout, stderr, exitCode } = await reduck("run", ...EMAIL);
    expect(exitCode).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ sent: true });
    expect(stderr).toContain(`run ${R1}`);
    expect(stderr).not.toMatch(/running \d+\/\d+/);
    expect(posts).toHaveLength(1);
    expect(polls).toBe(2);
  });

  it("a failed step: exit 1, errorType in the JSON, the service's message in the human line", async () => {
    const failed = {
      batchId: B2,
      status: "failed",
      runs: [
        { status: "failed", runId: R2, error: "selector #send missing", errorType: "site_error", externalMessage: "Gmail changed: the Send button is gone" },
      ],
    };
    wire({ status: 202, body: running(B2) }, [failed]);
    const json = await reduck("run", "--json", ...EMAIL);
    expect(json.exitCode).toBe(1);
    expect(json.json()).toEqual({
      status: "failed",
      runId: R2,
      error: "selector #send missing",
      errorType: "site_error",
      externalMessage: "Gmail changed: the Send button is gone",
    });

    wire({ status: 202, body: running(B2) }, [failed]);
    const human = await reduck("run", ...EMAIL);
    expect(human.exitCode).toBe(1);
    expect(human.stderr).toContain(`Error: run ${R2} failed: Gmail changed: the Send button is gone`);
    expect(human.stdout).toBe("");
  });

  it("several scripts through a 202: a JSON array of results, one per script", async () => {
    const done = {
      batchId: B3,
      status: "completed",
      runs: [
        { status: "completed", runId: R1, result: 1 },
        { status: "completed", runId: R2, result: null },
      ],
    };
    wire({ status: 202, body: running(B3, []) }, [done]);
    const { stdout, exitCode } = await reduck("run", ...EMAIL, ...EMAIL);
    expect(exitCode).toBe(0);
    expect(JSON.parse(stdout)).toEqual([1, null]);
  });
});

describe("--no-wait", () => {
  it("prints the id on stdout (the handle with --json), polls nothing, exit 0", async () => {
    wire({ status: 202, body: running(B4) });
    const plain = await reduck("run", "--no-wait", ...EMAIL);
    expect(plain.exitCode).toBe(0);
    expect(plain.stdout).toBe(`${B4}\n`);
    expect(plain.stderr).toContain(`reduck runs wait ${B4}`);
    const json = await reduck("run", "--no-wait", "--json", ...EMAIL);
    expect(json.exitCode).toBe(0);
    expect(json.json()).toEqual({ status: "running", batchId: B4, runIds: [R1], retryAfterMs: 20 });
    expect(polls).toBe(0);
  });
});

describe("where and how long, on the wire", () => {
  it("--browser cloud --region --country --wait-for-seconds go as the service reads them", async () => {
    wire({ status: 200, body: { result: { ok: 1 }, runId: R1 } });
    const { exitCode } = await reduck("run", "--browser", "cloud", "--region", "us-east-1", "--country", "de", "--wait-for-seconds", "5", ...EMAIL);
    expect(exitCode).toBe(0);
    expect(posts[0]).toMatchObject({ browser: "cloud", region: "us-east-1", country: "DE", waitForSeconds: 5 });
  });

  it("--browser managed goes as cloud; --browser ID is that device", async () => {
    wire({ status: 200, body: { result: 1, runId: R1 } });
    await reduck("run", "--browser", "managed", ...EMAIL);
    await reduck("run", "--browser", SEED_IDS.devices.demo, ...EMAIL);
    expect(posts.map((p) => p.browser)).toEqual(["cloud", { deviceId: SEED_IDS.devices.demo }]);
  });

  it.each([
    [["--region", "us-east-1"], "--region chooses where a cloud browser runs, so it needs --browser cloud"],
    [["--browser", "cloud", "--country", "Germany"], "--country takes a two-letter ISO 3166 code"],
    [["--wait-for-seconds", "0"], "--wait-for-seconds must be a whole number"],
    [["--wait-for-seconds", "111"], '--wait-for-seconds must be a whole number of at most 110 (you gave "111")'],
    [["--browser", "firefox"], '--browser takes cloud, extension or a paired browser\'s id (see `reduck devices list`), not "firefox"'],
  ])("%j: exit 2, nothing sent", async (flags, message) => {
    wire({ status: 200, body: { result: 1, runId: R1 } });
    const { exitCode, stderr } = await reduck("run", ...flags, ...EMAIL);
    expect(exitCode).toBe(2);
    expect(stderr).toContain(message);
    expect(posts).toHaveLength(0);
  });
});

describe("reduck runs wait", () => {
  it("a batch id: the outcome as `run` prints it", async () => {
    wire({ status: 200, body: null }, [running("0d4e8619-5b1c-4c1e-9d55-000000000b05"), completed("0d4e8619-5b1c-4c1e-9d55-000000000b05", { n: 2 })]);
    const { stdout, stderr, exitCode } = await reduck("runs", "wait", "0d4e8619-5b1c-4c1e-9d55-000000000b05");
    expect(exitCode).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ n: 2 });
    expect(stderr).toContain(`run ${R1}`);
    expect(posts).toHaveLength(0);
  });

  it("a failed batch of several with --json: exit 1, each step with its errorType", async () => {
    const done = {
      batchId: "0d4e8619-5b1c-4c1e-9d55-000000000b06",
      status: "failed",
      runs: [
        { status: "completed", runId: R1, result: 1 },
        { status: "failed", runId: R2, error: "timed out", errorType: "timeout" },
      ],
    };
    wire({ status: 200, body: null }, [done]);
    const { json, exitCode } = await reduck("runs", "wait", "0d4e8619-5b1c-4c1e-9d55-000000000b06", "--json");
    expect(exitCode).toBe(1);
    expect(json()).toEqual({
      batchId: "0d4e8619-5b1c-4c1e-9d55-000000000b06",
      status: "failed",
      totalSteps: 2,
      runs: [
        { status: "completed", runId: R1, result: 1 },
        { status: "failed", runId: R2, error: "timed out", errorType: "timeout" },
      ],
    });
  });

  it("a run id (not a batch): waits on the run's record", async () => {
    wire({ status: 200, body: null }, []);
    const { stdout, exitCode } = await reduck("runs", "wait", SEED_IDS.runs.success, "--json");
    expect(exitCode).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ status: "completed", runId: SEED_IDS.runs.success });
    const failed = await reduck("runs", "wait", SEED_IDS.runs.error);
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toMatch(new RegExp(`Error: run ${SEED_IDS.runs.error} failed: `));
  });

  it("an id that is no id at all: exit 2, nothing asked of the service", async () => {
    wire({ status: 200, body: null }, []);
    const { stderr, exitCode } = await reduck("runs", "wait", "123");
    expect(exitCode).toBe(2);
    expect(stderr).toContain('"123" is not a batch id or run id: both are UUIDs');
    expect(polls).toBe(0);
  });

  it("an id that is neither: exit 1, saying so", async () => {
    wire({ status: 200, body: null }, []);
    const { stderr, exitCode } = await reduck("runs", "wait", "00000000-0000-4000-8005-0000000000ff");
    expect(exitCode).toBe(1);
    expect(stderr).toContain("there is no batch or run 00000000-0000-4000-8005-0000000000ff: check the id");
  });
});
