/**
 * list_runs: the account's runs, newest first, a page at a time, in the statuses run_script uses.
 */
import { listRuns } from "../../generated/operations.js";
import { answer, failWith, type ToolContext, type ToolResult } from "../shared/answers.js";
import { oneLine, shownText } from "../shared/bounded.js";
import { DEFAULT_PAGE_SIZE } from "../shared/limits.js";
import { addressOf } from "../shared/naming.js";
import { pageOf } from "../shared/paging.js";
import { recordRunStatus, toolRunStatus } from "../shared/run-status.js";
import type { Input } from "../shared/tool-schemas.js";

import { READ, type Tool } from "../shared/tool.js";

async function handle(ctx: ToolContext, input: Input<"listRunsInput">): Promise<ToolResult> {
  const query = { page: input.page, pageSize: input.pageSize ?? DEFAULT_PAGE_SIZE, status: input.status && recordRunStatus(input.status) };
  const r = await listRuns({ client: ctx.client, query });
  if (r.error) return failWith(r.error);
  const paging = pageOf("list_runs", "runs", input, r);
  if ("content" in paging) return paging;
  return answer({
    runs: r.data.map((run) => ({
      runId: run.id,
      status: toolRunStatus(run.status),
      address: run.script ? addressOf(run.script) : null,
      versionId: run.script?.version_id ?? null,
      name: shownText(run.name, 200),
      startedAt: run.started_at,
      finishedAt: run.finished_at,
      ...(run.result && "error" in run.result ? { error: oneLine(run.result.error, 500) } : {}),
    })),
    ...paging,
  });
}

export const listRunsTool: Tool = {
  name: "list_runs",
  spec: ({ s }) => ({
    title: "List runs",
    description:
      "Your runs, newest first, a page at a time, with their status (completed, failed, queued, running, cancelled: the words run_script uses), the version run and errors. Changes nothing.",
    input: s.listRunsInput,
    output: s.listRunsOutput,
    annotations: READ,
    usage: 'list_runs { status: "failed", page: 0, pageSize: 20 }',
  }),
  run: handle,
};
