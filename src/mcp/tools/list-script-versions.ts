/**
 * list_script_versions: a script's versions, newest first, a page at a time, with the current one marked.
 */
import type { z as Zod } from "zod";
import type { SchemaParts } from "../common/schema-parts.js";
import { listScriptVersions } from "../../generated/operations.js";
import { answer, type ToolContext, type ToolResult } from "../common/answers.js";
import { DEFAULT_PAGE_SIZE } from "../common/limits.js";
import { addressOf, scriptCallFailed, scriptPath } from "../common/naming.js";
import { pageOf } from "../common/paging.js";
import { currentVersionId, versionSummary } from "../common/versions.js";
import { ADDRESS, READ, type Tool } from "../common/tool.js";

/** list_script_versions's own schemas. */
function schemas(z: typeof Zod, { closed, open, naming, paging, page }: SchemaParts) {
  const listScriptVersionsInput = closed({
    ...naming(),
    draft: z.boolean().optional().describe("true: open drafts only; false: promoted versions only."),
    ...paging("Versions"),
  });

  const versionRow = open({
    versionId: z.string(),
    version: z.number().int().describe("Its number."),
    current: z.boolean().describe("The version runs use when no version_id is given."),
    draft: z.boolean(),
    note: z.string().nullable().optional(),
    language: z.string().optional(),
    sideEffects: z.string().optional(),
    loggedIn: z.boolean().optional(),
    createdAt: z.string().optional(),
    parentVersionId: z.string().nullable().optional(),
  });

  const listScriptVersionsOutput = open({
    address: z.string(),
    versions: z.array(versionRow).describe("Newest first."),
    ...page(),
  });

  return { listScriptVersionsInput, listScriptVersionsOutput };
}

type Input = Zod.infer<ReturnType<typeof schemas>["listScriptVersionsInput"]>;

async function handle(ctx: ToolContext, input: Input): Promise<ToolResult> {
  const named = await scriptPath(ctx, input);
  if ("content" in named) return named;
  const { path, ownImplied } = named;
  const query = {
    page: input.page,
    pageSize: input.pageSize ?? DEFAULT_PAGE_SIZE,
    ...(input.draft !== undefined ? { draft: input.draft ? ("true" as const) : ("false" as const) } : {}),
  };
  const [listed, currentId] = await Promise.all([listScriptVersions({ client: ctx.client, path, query }), currentVersionId(ctx, path)]);
  if (listed.error) return scriptCallFailed(ctx, path, listed.error, { ownImplied });
  const paging = pageOf("list_script_versions", "versions", input, listed);
  if ("content" in paging) return paging;
  return answer({ address: addressOf(path), versions: listed.data.map((v) => versionSummary(v, currentId)), ...paging });
}

export const listScriptVersionsTool: Tool = {
  name: "list_script_versions",
  spec: ({ z, parts }) => {
    const own = schemas(z, parts);
    return {
      title: "List a script's versions",
      description:
        "A script's versions, newest first, a page at a time: each one's id and number, whether it is a draft and whether it is the current one (what runs use). Changes nothing.",
      input: own.listScriptVersionsInput,
      output: own.listScriptVersionsOutput,
      annotations: READ,
      usage: `list_script_versions { ${ADDRESS} }`,
    };
  },
  run: handle,
};
