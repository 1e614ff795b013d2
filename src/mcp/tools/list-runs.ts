/**
 * list_runs: the account's runs, newest first, a page at a time, in the statuses run_script uses.
 */
import type { z as Zod } from "zod";
import type { SchemaParts } from "../common/schema-parts.js";
import { listRuns } from "../../generated/operations.js";
import { answer, failWith, type ToolContext, type ToolResult } from "../common/answers.js";
import { oneLine, shownText } from "../common/bounded.js";
import { DEFAULT_PAGE_SIZE } from "../common/limits.js";
import { addressOf } from "../common/naming.js";
import { pageOf } from "../common/paging.js";
import { recordRunStatus, TOOL_RUN_STATUSES, toolRunStatus } from "../common/run-status.js";
import { READ, type Tool } from "../common/tool.js";

/** list_runs's own schemas. */
function schemas(z: typeof Zod, { closed, open, paging, page }: SchemaParts) {
  const listRunsInput = closed({
    ...paging("Runs"),
    status: z.enum(TOOL_RUN_STATUSES).optional().describe("Only runs with this status (the words run_script uses)."),
  });

  const listRunsOutput = open({
    runs: z.array(
      open({
        runId: z.string(),
        status: z.enum(TOOL_RUN_STATUSES),
        address: z.string().nullable().describe("The script run; null when it has been deleted since."),
        versionId: z.string().nullable().optional(),
        name: z.string(),
        startedAt: z.string(),
        finishedAt: z.string().nullable().optional(),
        error: z.string().optional(),
      }),
    ),
    ...page(),
  });

  return { listRunsInput, listRunsOutput };
}

type Input = Zod.infer<ReturnType<typeof schemas>["listRunsInput"]>;

async function handle(ctx: ToolContext, input: Input): Promise<ToolResult> {
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
  spec: ({ z, parts }) => {
    const own = schemas(z, parts);
    return {
      title: "List runs",
      description:
        "Your runs, newest first, a page at a time, with their status (completed, failed, queued, running, cancelled: the words run_script uses), the version run and errors. Changes nothing.",
      input: own.listRunsInput,
      output: own.listRunsOutput,
      annotations: READ,
      usage: 'list_runs { status: "failed", page: 0, pageSize: 20 }',
    };
  },
  run: handle,
};
