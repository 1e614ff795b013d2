// A run's trace is finished after its answer has gone (its screenshot takes a few tens of ms that
// the caller need not wait for): until then reading it waits, so a trace read right after a run is
// always whole.
import type { SandboxStore } from "../store/store.js";
import type { TraceStep } from "./builtin-rules.js";
import { forgetScreenshots, type TraceScreenshot } from "./screenshots.js";

export interface RunTrace {
  steps: TraceStep[];
  screenshots: TraceScreenshot[];
}

const pending = new WeakMap<SandboxStore, Map<string, Promise<void>>>();

/**
 * Records `trace` on the run once it is ready (never rejects: a trace that could not be made is
 * the run's business, not the server's).
 *
 * @example
 * finishTrace(store, run.id, step.end({ failed }).then(toTrace));
 */
export function finishTrace(store: SandboxStore, runId: string, trace: Promise<RunTrace>): void {
  let runs = pending.get(store);
  if (!runs) pending.set(store, (runs = new Map()));
  const done = trace
    .then(async (value) => {
      if (store.runs.has(runId)) store.updateRun(runId, { trace: value });
      // Deleted while its trace was being made: its screenshots go too.
      else await forgetScreenshots(store, [runId]);
    })
    .catch((error: unknown) => console.error(`sandbox: the trace of run ${runId} could not be recorded`, error))
    .finally(() => runs.delete(runId));
  runs.set(runId, done);
}

/** Resolves once the run's trace, if one is being made, is recorded. */
export async function traceFinished(store: SandboxStore, runId: string): Promise<void> {
  await pending.get(store)?.get(runId);
}
