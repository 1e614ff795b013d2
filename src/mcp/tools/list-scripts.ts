/**
 * list_scripts: the catalogue a page at a time (own, projects' and official scripts), each with the
 * address read_script and run_script take.
 */
import type { z as Zod } from "zod";
import type { SchemaParts } from "../common/schema-parts.js";
import { listAllScripts, listScripts } from "../../generated/operations.js";
import { answer, failWith, type ToolContext, type ToolResult } from "../common/answers.js";
import { shownText } from "../common/bounded.js";
import { DEFAULT_PAGE_SIZE } from "../common/limits.js";
import { addressOf, unknownHandle } from "../common/naming.js";
import { pageOf } from "../common/paging.js";
import { READ, type Tool } from "../common/tool.js";

/** list_scripts's own schemas. */
function schemas(z: typeof Zod, { closed, open, paging, page }: SchemaParts) {
  const listScriptsInput = closed({
    handle: z.string().optional().describe('Only this owner\'s scripts: "reduck" for the official catalogue, "@username", a project.'),
    host: z.string().optional().describe("Only scripts for this site."),
    q: z.string().optional().describe("Search words."),
    ...paging("Scripts"),
  });

  const listScriptsOutput = open({
    scripts: z.array(
      open({
        address: z.string().describe("Give this to read_script and run_script."),
        name: z.string(),
        description: z.string(),
        visibility: z.string(),
        sideEffects: z.string().optional().describe("none, write or undetermined."),
      }),
    ),
    ...page(),
  });

  return { listScriptsInput, listScriptsOutput };
}

type Input = Zod.infer<ReturnType<typeof schemas>["listScriptsInput"]>;

async function handle(ctx: ToolContext, input: Input): Promise<ToolResult> {
  const query = { host: input.host, q: input.q, page: input.page, pageSize: input.pageSize ?? DEFAULT_PAGE_SIZE };
  const result = input.handle
    ? await listScripts({ client: ctx.client, path: { handle: input.handle }, query })
    : await listAllScripts({ client: ctx.client, query });
  // An owner the service does not know: the handles it most likely meant, as the CLI says them.
  if (result.error?.status === 404 && input.handle) return unknownHandle(ctx, input.handle, result.error);
  if (result.error) return failWith(result.error);
  const paging = pageOf("list_scripts", "scripts", input, result);
  if ("content" in paging) return paging;
  return answer({
    scripts: result.data.map((s) => ({
      address: addressOf({ handle: s.author.handle, host: s.host, slug: s.slug }),
      name: shownText(s.name, 200),
      description: shownText(s.description, 500),
      visibility: s.visibility,
      ...(s.current_version ? { sideEffects: s.current_version.side_effects } : {}),
    })),
    ...paging,
  });
}

export const listScriptsTool: Tool = {
  name: "list_scripts",
  spec: ({ z, parts }) => {
    const own = schemas(z, parts);
    return {
      title: "Find scripts",
      description:
        'Lists scripts: your own, your projects\' and the official catalogue (handle "reduck"), filtered by owner, site or words, a page at a time (the answer says when there is more). Each comes with the address to give read_script and run_script. Changes nothing.',
      input: own.listScriptsInput,
      output: own.listScriptsOutput,
      annotations: READ,
      usage: 'list_scripts { host: "mail.google.com", q: "send", page: 0, pageSize: 20 }',
    };
  },
  run: handle,
};
