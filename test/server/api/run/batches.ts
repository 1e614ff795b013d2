// Batches: what POST /run hands back (202) when its scripts outlive `waitForSeconds`, and
// GET /batches/{batchId} on the run host, which reports where they stand. The batch's envelopes
// are read live from the running request (see handler.ts), so a poll sees each run end.
import { ApiError } from "../errors.js";
import { requireCaller } from "../handlers/shared.js";
import type { HandwrittenImplementations } from "../handlers/types.js";

export type { BatchRecord, RunBatch, RunEnvelope } from "../../store/batch-record.js";
import type { RunBatch, RunEnvelope } from "../../store/batch-record.js";

/**
 * `queued` until a run starts, `running` while any is in flight, then `completed` when every
 * script completed, else `failed` (one failed or never ran).
 *
 * @example
 * batchStatus([{ status: "completed", runId: "…", result: 1 }, { status: "running", runId: "…" }]); // "running"
 */
export function batchStatus(runs: RunEnvelope[]): RunBatch["status"] {
  if (runs.every((r) => r.status === "queued")) return "queued";
  if (runs.some((r) => r.status === "queued" || r.status === "running")) return "running";
  return runs.every((r) => r.status === "completed") ? "completed" : "failed";
}

/** GET /batches/{batchId}: another account's batch answers exactly like one that never existed. */
export const batchHandlers: HandwrittenImplementations = {
  getBatch: ({ store, caller, path }) => {
    const { userId } = requireCaller(caller);
    const batch = store.batches.get(path.batchId);
    if (!batch || batch.userId !== userId) throw new ApiError(404, `No such batch on this account: ${path.batchId}`);
    return { status: 200, body: batch.view() };
  },
};
