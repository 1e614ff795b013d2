// The plain-fetch client the long-run cases share (long-runs-cases.ts, long-runs-outcome-cases.ts):
// runs, batches and polls with a deadline, through whichever door a test file opens.
import { expect } from "vitest";
import type { ReferenceStore } from "./index.js";
import type { LoggedRequest } from "./store/store.js";

export interface Door {
  store: ReferenceStore;
  /** POST /run's URL. */
  runUrl: string;
  /** The run host's origin (GET /batches/{id}). */
  runHost: string;
  /** The catalogue API's origin (GET /api/runs/{id}). */
  api: string;
  /** The sandbox's request log, as this door reads it. */
  requests(): Promise<LoggedRequest[]>;
}

export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export type Script = { handle?: string; host: string; slug: string; args?: Record<string, unknown> };

/** A sandbox script that waits `seconds`, then returns `{ slept, echo }` (or throws `fail`). */
export const sleep = (seconds: number, extra: { fail?: string; echo?: unknown } = {}): Script => ({
  handle: "sandbox",
  host: "sandbox.test",
  slug: "sleep",
  args: { seconds, ...extra },
});
/** A sandbox script that ends with neither a result nor an error, after `seconds`. */
export const noOutcome = (seconds = 0): Script => ({ handle: "sandbox", host: "sandbox.test", slug: "no_outcome", args: { seconds } });

/** Polls must end well before the test's own timeout. */
export const POLL_DEADLINE_MS = 15_000;

/** The calls of the long-run cases, against the store and origin `door()` gives at call time. */
export function longRunClient(door: () => Door) {
  const key = () => door().store.demo.apiKey;

  async function answer(response: Response): Promise<Answer> {
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  async function run(body: unknown, apiKey = key()): Promise<Answer> {
    return answer(
      await fetch(door().runUrl, { method: "POST", headers: { "content-type": "application/json", "x-api-key": apiKey }, body: JSON.stringify(body) }),
    );
  }

  async function getBatch(batchId: string, headers: Record<string, string> = { "x-api-key": key() }): Promise<Answer> {
    return answer(await fetch(`${door().runHost}/batches/${batchId}`, { headers }));
  }

  async function getRun(runId: string): Promise<Answer> {
    return answer(await fetch(`${door().api}/api/runs/${runId}`, { headers: { "x-api-key": key() } }));
  }

  /** Polls as the service's own client does: sleep retryAfterMs, ask again, until the status is final. */
  async function pollBatch(batchId: string, seen: string[] = []): Promise<Answer> {
    const deadline = Date.now() + POLL_DEADLINE_MS;
    for (;;) {
      const polled = await getBatch(batchId);
      expect(polled.status).toBe(200);
      seen.push(polled.body.status);
      if (polled.body.status === "completed" || polled.body.status === "failed") return polled;
      expect(polled.body.retryAfterMs).toBeGreaterThan(0);
      if (Date.now() > deadline) throw new Error(`batch ${batchId} still ${polled.body.status} after ${POLL_DEADLINE_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, polled.body.retryAfterMs));
    }
  }

  /** Waits on a run with getRun, as a client does after a single script's 202. */
  async function pollRun(runId: string, seen: string[] = []): Promise<Answer> {
    const deadline = Date.now() + POLL_DEADLINE_MS;
    for (;;) {
      const polled = await getRun(runId);
      expect(polled.status).toBe(200);
      seen.push(polled.body.status);
      if (!["queued", "running"].includes(polled.body.status)) return polled;
      if (Date.now() > deadline) throw new Error(`run ${runId} still ${polled.body.status} after ${POLL_DEADLINE_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, door().store.pollIntervalMs));
    }
  }

  const count = (log: LoggedRequest[], method: string, pattern: RegExp) => log.filter((r) => r.method === method && pattern.test(r.path)).length;
  return { key, answer, run, getBatch, getRun, pollBatch, pollRun, count };
}
