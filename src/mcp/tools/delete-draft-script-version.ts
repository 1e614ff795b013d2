/**
 * delete_draft_script_version: deletes a draft for good.
 */
import { deleteDraftScriptVersion } from "../../generated/operations.js";
import { answer, failWith, type ToolContext, type ToolResult } from "../common/answers.js";
import { addressOf, scriptCallFailed, scriptPath, unknownVersionHint, versionId } from "../common/naming.js";
import type { Input } from "../common/tool-schemas.js";
import { ADDRESS, type Tool } from "../common/tool.js";

async function handle(ctx: ToolContext, input: Input<"versionTarget">): Promise<ToolResult> {
  const named = await scriptPath(ctx, input);
  if ("content" in named) return named;
  const { path, ownImplied } = named;
  const id = await versionId(ctx, path, input, ownImplied);
  if (typeof id !== "string") return id;
  const deleted = await deleteDraftScriptVersion({ client: ctx.client, path: { ...path, versionId: id } });
  if (deleted.error?.status === 409)
    return failWith(deleted.error, "Only a draft can be deleted; a promoted version stays (promote another to stop using it).");
  if (deleted.error) return scriptCallFailed(ctx, path, deleted.error, { ownImplied, versionHint: () => unknownVersionHint(ctx, path, id) });
  return answer({ address: addressOf(path), deleted: `draft ${id}` });
}

export const deleteDraftScriptVersionTool: Tool = {
  name: "delete_draft_script_version",
  spec: ({ s }) => ({
    title: "Delete a draft version",
    description: "Deletes a draft version for good (a promoted version cannot be deleted). Name it by version_id or by its number (version).",
    input: s.versionTarget,
    output: s.deletedOutput,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    usage: `delete_draft_script_version { ${ADDRESS}, version: 3 }`,
  }),
  run: handle,
};
