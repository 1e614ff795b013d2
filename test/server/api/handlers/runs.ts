// Runs of the caller's account. Another account's run answers exactly like a run that never existed.
import { ApiError } from "../errors.js";
import { forgetScreenshots } from "../../runtime/screenshots.js";
import { traceFinished } from "../../runtime/traces.js";
import type { RunRecord } from "../../store/records.js";
import { isFinished, type SandboxStore } from "../../store/store.js";
import { runView } from "../views.js";
import { paginate, requireCaller } from "./shared.js";
import type { Implementations } from "./types.js";

function ownRun(store: SandboxStore, userId: string, runId: string): RunRecord {
  const run = store.runs.get(runId);
  if (!run || run.userId !== userId) throw new ApiError(404, `No such run on this account: ${runId}`);
  return run;
}

export const runHandlers: Pick<Implementations, "listRuns" | "getRun" | "deleteRun" | "batchDeleteRuns" | "getRunTrace"> = {
  listRuns: ({ store, caller, query }) => {
    const { userId } = requireCaller(caller);
    const host = query.host?.toLowerCase();
    const runs = store
      .runsOf(userId)
      .filter((r) => !query.status || r.status === query.status)
      .filter((r) => !query.script_id || r.script?.id === query.script_id)
      .filter((r) => !host || (r.script?.host.toLowerCase().includes(host) ?? false))
      .sort((a, b) => b.startedAt.localeCompare(a.startedAt) || b.id.localeCompare(a.id));
    const page = paginate(runs, query);
    return { status: 200, body: { ...page, data: page.data.map(runView) } };
  },

  getRun: ({ store, caller, path }) => {
    const { userId } = requireCaller(caller);
    return { status: 200, body: runView(ownRun(store, userId, path.runId)) };
  },

  deleteRun: async ({ store, caller, path }) => {
    const { userId } = requireCaller(caller);
    const run = ownRun(store, userId, path.runId);
    if (!isFinished(run.status)) {
      throw new ApiError(409, `Run ${run.id} is ${run.status}: only finished runs (success, error, cancelled) can be deleted`);
    }
    store.runs.delete(run.id);
    await forgetScreenshots(store, [run.id]);
    return { status: 204, body: undefined };
  },

  // Partial success by design: what cannot go (unknown, another account's, unfinished) is reported, not fatal.
  batchDeleteRuns: async ({ store, caller, body }) => {
    const { userId } = requireCaller(caller);
    const deletedIds: string[] = [];
    const skippedIds: string[] = [];
    for (const runId of new Set(body.runIds)) {
      const run = store.runs.get(runId);
      if (run && run.userId === userId && isFinished(run.status)) {
        store.runs.delete(runId);
        deletedIds.push(runId);
      } else {
        skippedIds.push(runId);
      }
    }
    await forgetScreenshots(store, deletedIds);
    return { status: 200, body: { deletedIds, skippedIds } };
  },

  getRunTrace: async ({ store, caller, path }) => {
    const { userId } = requireCaller(caller);
    await traceFinished(store, ownRun(store, userId, path.runId).id);
    const run = ownRun(store, userId, path.runId);
    if (run.trace === null || run.trace === undefined) throw new ApiError(404, `Run ${run.id} recorded no trace`);
    return { status: 200, body: run.trace };
  },
};
