/**
 * How a tool answers: data as JSON text and as `structuredContent` (matching the tool's output
 * schema), or a tool error (`isError`) whose text is one line saying what is wrong and what to
 * do. Never a protocol error and never a stack: an agent reads a tool error and acts on it.
 */
import type { ReduckClient } from "../../core/client.js";
import type { ReduckError } from "../../core/errors.js";
import { withHint } from "../../core/words/sentence.js";
import { oneLine } from "./bounded.js";

export interface ToolContext {
  client: ReduckClient;
  /** Absolute path of the service folder (`<desktop>/reduck`). */
  folder: string;
  /**
   * How long run_script and read_run_results wait before answering with the run's handle:
   * MCP clients give up on a call after about 60 s. 45 s unless set (tests set it short).
   */
  holdMs?: number;
}

export type ToolContent = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

export interface ToolResult {
  [key: string]: unknown;
  content: ToolContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** Data, as JSON text (compact: every character costs the agent context) and as structured content. */
export const answer = (value: Record<string, unknown>, isError = false): ToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value) }],
  structuredContent: value,
  ...(isError ? { isError } : {}),
});

/** A tool error: one line. */
export const fail = (message: string): ToolResult => ({ content: [{ type: "text", text: oneLine(message, 2_000) }], isError: true });

/** The service's per-field messages the message does not already say, `(slug: must match ...; host: ...)`. */
function fieldMessages(error: ReduckError): string {
  const fields = Object.entries(error.variables ?? {})
    .map(([field, messages]) => [field, messages.filter((m) => !error.error.includes(m))] as const)
    .filter(([, messages]) => messages.length)
    .slice(0, 5);
  return fields.length ? ` (${fields.map(([field, messages]) => `${field}: ${messages.slice(0, 2).join(", ")}`).join("; ")})` : "";
}

/** Where the agent finds ids of each kind a path takes, for an id the library refused (`invalid_id`). */
const ID_LISTS: Record<string, string> = {
  runId: "run_script gives a run's id; list_runs lists your runs and their ids.",
  batchId: "run_script gives a batch's id.",
  versionId: "list_script_versions lists a script's versions and their ids.",
};

/** The service's (or the library's) error as a tool error, with the run it concerns when there is one. */
export const failWith = (error: ReduckError & { runId?: string }, hint?: string): ToolResult =>
  fail(
    withHint(
      `${oneLine(error.error)}${fieldMessages(error)}${error.runId ? ` (run ${error.runId})` : ""}`,
      hint ?? (error.code === "invalid_id" ? ID_LISTS[error.parameter ?? ""] : undefined),
    ),
  );
