// When a run is over, and what its record says it ended with.
import type { RunRecord, RunStatus } from "./records.js";

const FINISHED: ReadonlySet<RunStatus> = new Set(["success", "error", "cancelled"]);

export function isFinished(status: RunStatus): boolean {
  return FINISHED.has(status);
}

export function outcomeOf(status: RunStatus, result?: Record<string, unknown>, error?: string): RunRecord["result"] {
  // The generated type reads `type: object` as an empty record; any JSON object is what it means.
  if (status === "success") return { result: (result ?? {}) as Record<string, never> };
  if (status === "error") return { error: error ?? "Error: the script failed" };
  if (status === "cancelled") return error ? { error } : null;
  return null;
}
