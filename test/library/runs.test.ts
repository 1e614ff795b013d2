import { describe, expect, test } from "vitest";
import { listRuns, getRun, deleteRun, batchDeleteRuns, getRunTrace } from "../../src/index.js";
import { SEED_IDS } from "@reduck-client/sandbox";
import { useSandboxClient } from "../support/sandbox-client.js";

const ref = useSandboxClient({ fresh: true });
const runs = SEED_IDS.runs;

describe("runs", () => {
  test("listed newest first, only the caller's", async () => {
    const { data, totalCount } = await listRuns({ client: ref.client });
    const started = data!.map((r) => Date.parse(r.started_at));
    expect(started).toEqual([...started].sort((a, b) => b - a));
    expect(data!.map((r) => r.id)).not.toContain(runs.alice);
    expect(totalCount).toBe(data!.length);
  });

  test("filtered by status", async () => {
    const { data } = await listRuns({ client: ref.client, query: { status: "error" } });
    expect(data!.length).toBeGreaterThan(0);
    expect(data!.every((r) => r.status === "error")).toBe(true);
  });

  test("getRun reads one run; another user's is not found", async () => {
    expect((await getRun({ client: ref.client, path: { runId: runs.success } })).data?.status).toBe("success");
    expect((await getRun({ client: ref.client, path: { runId: runs.alice } })).error?.status).toBe(404);
  });

  test("only finished runs can be deleted", async () => {
    expect((await deleteRun({ client: ref.client, path: { runId: runs.running } })).error?.status).toBe(409);
    expect((await deleteRun({ client: ref.client, path: { runId: runs.success } })).response?.status).toBe(204);
    expect((await getRun({ client: ref.client, path: { runId: runs.success } })).error?.status).toBe(404);
  });

  test("batch delete reports the runs it skipped", async () => {
    const { data } = await batchDeleteRuns({ client: ref.client, body: { runIds: [runs.cancelled, runs.queued, runs.alice] } });
    expect(data).toEqual({ deletedIds: [runs.cancelled], skippedIds: [runs.queued, runs.alice] });
  });

  test("batch delete of nothing is a 400", async () => {
    const { error } = await batchDeleteRuns({ client: ref.client, body: { runIds: [] } });
    expect(error?.status).toBe(400);
    expect(error?.variables?.runIds).toEqual(["must NOT have fewer than 1 items"]);
  });

  test("a trace, or 404 when none was recorded", async () => {
    expect((await getRunTrace({ client: ref.client, path: { runId: runs.success } })).data).toMatchObject({
      steps: [
        { action: "goto https://example.com", ok: true },
        { action: "read title", ok: true },
        { action: "return", ok: true },
      ],
    });
    expect((await getRunTrace({ client: ref.client, path: { runId: runs.sendEmail } })).error?.status).toBe(404);
  });
});
