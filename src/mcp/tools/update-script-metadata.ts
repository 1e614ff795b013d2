/**
 * update_script_metadata: a script's name, description, visibility or humanRequired.
 */
import { getScript, patchScript, publishScript, unpublishScript } from "../../generated/operations.js";
import { answer, fail, failWith, type ToolContext, type ToolResult } from "../shared/answers.js";
import { scriptCallFailed, scriptPath } from "../shared/naming.js";
import type { Input } from "../shared/tool-schemas.js";
import { scriptState } from "../shared/script-state.js";
import { ADDRESS, REPLACE, type Tool } from "../shared/tool.js";

async function handle(ctx: ToolContext, input: Input<"updateScriptMetadataInput">): Promise<ToolResult> {
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
  spec: ({ s }) => ({
    title: "Change a script's name, description or visibility",
    description:
      'Changes a script\'s name, description, visibility ("public": anyone may read and run it; "private") or humanRequired; the values given replace the old ones. The code and contract change only through versions.',
    input: s.updateScriptMetadataInput,
    output: s.scriptState,
    annotations: REPLACE,
    usage: `update_script_metadata { ${ADDRESS}, description: "Reads the page title" }`,
  }),
  run: handle,
};
