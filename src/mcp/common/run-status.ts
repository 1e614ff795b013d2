/**
 * One vocabulary for run statuses in the agent tool. The service's run records say
 * `success` / `error`; the answer to a run (the hosted tool's `run_script`) says `completed` /
 * `failed`. An agent that runs a script and then lists its runs must see the same word for the
 * same outcome, so every tool speaks the run answer's words, mapped here and nowhere else.
 */
import type { components } from "../../generated/schema.js";

type RecordStatus = components["schemas"]["RunStatus"];

/** A run record's status (`GET /api/runs`) in the words `run_script` uses. */
export const TOOL_RUN_STATUS = {
  success: "completed",
  error: "failed",
  queued: "queued",
  running: "running",
  cancelled: "cancelled",
} as const satisfies Record<RecordStatus, string>;

export type ToolRunStatus = (typeof TOOL_RUN_STATUS)[RecordStatus];

/** The statuses `list_runs` shows and filters on. */
export const TOOL_RUN_STATUSES = Object.values(TOOL_RUN_STATUS) as [ToolRunStatus, ...ToolRunStatus[]];

export function toolRunStatus(status: RecordStatus): ToolRunStatus {
  return TOOL_RUN_STATUS[status];
}

/** The record status to ask the service for, from a status in the tool's words. */
export function recordRunStatus(status: ToolRunStatus): RecordStatus {
  const found = (Object.keys(TOOL_RUN_STATUS) as RecordStatus[]).find((s) => TOOL_RUN_STATUS[s] === status);
  return found!;
}
