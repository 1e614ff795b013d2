/**
 * update_script_metadata: a script's name, description, visibility or humanRequired.
 */
import type { z as Zod } from "zod";
import type { SchemaParts } from "../common/schema-parts.js";
import { getScript, patchScript, publishScript, unpublishScript } from "../../generated/operations.js";
import { answer, fail, failWith, type ToolContext, type ToolResult } from "../common/answers.js";
import { scriptCallFailed, scriptPath } from "../common/naming.js";
import { scriptState } from "../common/script-state.js";
import { ADDRESS, REPLACE, type Tool } from "../common/tool.js";

/** update_script_metadata's own schemas. */
function schemas(z: typeof Zod, { closed, naming }: SchemaParts) {
  const updateScriptMetadataInput = closed({
    ...naming(),
    name: z.string().min(1).max(75).optional(),
    description: z.string().min(1).max(10_000).optional(),
    visibility: z
      .enum(["private", "public"])
      .optional()
      .describe("public: anyone may read and run it (needs a promoted version); private: you and your project."),
    humanRequired: z.boolean().optional(),
  });

  return { updateScriptMetadataInput };
}

type Input = Zod.infer<ReturnType<typeof schemas>["updateScriptMetadataInput"]>;

async function handle(ctx: ToolContext, input: Input): Promise<ToolResult> {
  const { name, description, visibility, humanRequired } = input;
  if (name === undefined && description === undefined && visibility === undefined && humanRequired === undefined) {
    return fail('Nothing to change: give name, description, visibility ("public" or "private") or humanRequired, beside the script\'s address.');
  }
  const named = await scriptPath(ctx, input);
  if ("content" in named) return named;
  const { path, ownImplied } = named;
  const changed: string[] = [];
  if (name !== undefined || description !== undefined || humanRequired !== undefined) {
    const body = {
      ...(name !== undefined ? { name } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(humanRequired !== undefined ? { human_required: humanRequired } : {}),
    };
    const patched = await patchScript({ client: ctx.client, path, body });
    if (patched.error) return scriptCallFailed(ctx, path, patched.error, { ownImplied });
    changed.push(...Object.keys(body).map((k) => (k === "human_required" ? "humanRequired" : k)));
  }
  if (visibility !== undefined) {
    const toggled = visibility === "public" ? await publishScript({ client: ctx.client, path }) : await unpublishScript({ client: ctx.client, path });
    if (toggled.error?.status === 409) {
      const done = changed.length ? ` (${changed.join(" and ")} did change)` : "";
      return failWith(toggled.error, `Restore it with unarchive_script, or promote a version with promote_script_version, then try again${done}.`);
    }
    if (toggled.error) return scriptCallFailed(ctx, path, toggled.error, { ownImplied });
    changed.push("visibility");
  }
  const read = await getScript({ client: ctx.client, path });
  if (read.error) return failWith(read.error);
  return answer(scriptState(path, read.data, { changed }));
}

export const updateScriptMetadataTool: Tool = {
  name: "update_script_metadata",
  spec: ({ s, z, parts }) => {
    const own = schemas(z, parts);
    return {
      title: "Change a script's name, description or visibility",
      description:
        'Changes a script\'s name, description, visibility ("public": anyone may read and run it; "private") or humanRequired; the values given replace the old ones. The code and contract change only through versions.',
      input: own.updateScriptMetadataInput,
      output: s.scriptState,
      annotations: REPLACE,
      usage: `update_script_metadata { ${ADDRESS}, description: "Reads the page title" }`,
    };
  },
  run: handle,
};
