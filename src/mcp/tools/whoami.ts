/**
 * whoami: the account in use, its projects and usage, and the folder files are read from.
 */
import type { z as Zod } from "zod";
import type { SchemaParts } from "../common/schema-parts.js";
import { getMe } from "../../generated/operations.js";
import { answer, failWith, type ToolContext, type ToolResult } from "../common/answers.js";
import { boundJson, shownText } from "../common/bounded.js";
import { READ, type Tool } from "../common/tool.js";

/** whoami's own schemas. */
function schemas(z: typeof Zod, { open }: SchemaParts) {
  const whoamiOutput = open({
    name: z.string(),
    email: z.string(),
    handle: z.string().nullable(),
    projects: z.array(open({ handle: z.string(), name: z.string(), role: z.string() })),
    usage: z.unknown().optional().describe("This period's usage and quotas; null when no period is active."),
    filesFolder: z.string().describe("The folder files are named in (relativePath)."),
  });

  return { whoamiOutput };
}

async function handle(ctx: ToolContext): Promise<ToolResult> {
  const r = await getMe({ client: ctx.client });
  if (r.error) return failWith(r.error);
  const { name, email, handle, projects, usage } = r.data;
  const period = usage && { browserMinutes: usage.browser_minutes, proxyMb: usage.proxy_mb, runs: usage.runs, periodEnd: usage.period_end };
  return answer({
    name: shownText(name, 200),
    email: shownText(email, 320),
    handle,
    projects: projects.slice(0, 100).map((p) => ({ handle: shownText(p.handle, 100), name: shownText(p.name, 200), role: shownText(p.role, 50) })),
    usage: period && boundJson(period, 2_000).value,
    filesFolder: ctx.folder,
  });
}

export const whoamiTool: Tool = {
  name: "whoami",
  spec: ({ s, z, parts }) => {
    const own = schemas(z, parts);
    return {
      title: "Who am I",
      description: "The account in use, its projects and this period's usage, and the folder files are read from. Changes nothing.",
      input: s.noInput,
      output: own.whoamiOutput,
      annotations: READ,
      usage: "whoami {}",
    };
  },
  run: (tc) => handle(tc),
};
