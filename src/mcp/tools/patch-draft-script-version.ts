/**
 * patch_draft_script_version: changes a draft in place; a promoted version never changes.
 */
import { patchDraftScriptVersion } from "../../generated/operations.js";
import { fail, failWith, type ToolContext, type ToolResult } from "../common/answers.js";
import { addressOf, scriptCallFailed, scriptPath, unknownVersionHint, versionId } from "../common/naming.js";
import type { Input } from "../common/tool-schemas.js";
import { currentVersionId, draftBody, tryThenPromote, versionAnswer } from "../common/versions.js";
import { ADDRESS, REPLACE, type Tool } from "../common/tool.js";

async function handle(ctx: ToolContext, input: Input<"patchDraftScriptVersionInput">): Promise<ToolResult> {
  const body = draftBody(input);
  if (!Object.keys(body).length) {
    return fail(
      "Nothing to change: give content, language, inputSchema, outputSchema, loggedIn, sideEffects or note, beside the script's address and the version.",
    );
  }
  const named = await scriptPath(ctx, input);
  if ("content" in named) return named;
  const { path, ownImplied } = named;
  const id = await versionId(ctx, path, input, ownImplied);
  if (typeof id !== "string") return id;
  const patched = await patchDraftScriptVersion({ client: ctx.client, path: { ...path, versionId: id }, body });
  if (patched.error?.status === 409) {
    return failWith(
      patched.error,
      `A promoted version never changes: create_draft_script_version { address: "${addressOf(path)}", note } starts a new draft from it.`,
    );
  }
  if (patched.error) return scriptCallFailed(ctx, path, patched.error, { ownImplied, versionHint: () => unknownVersionHint(ctx, path, id) });
  return versionAnswer(path, patched.data, await currentVersionId(ctx, path), tryThenPromote(addressOf(path), id));
}

export const patchDraftScriptVersionTool: Tool = {
  name: "patch_draft_script_version",
  spec: ({ s }) => ({
    title: "Change a draft version",
    description:
      "Changes a draft version in place: the fields you give replace the draft's (a promoted version never changes). Name the version by version_id or by its number (version).",
    input: s.patchDraftScriptVersionInput,
    output: s.versionOutput,
    annotations: REPLACE,
    usage: `patch_draft_script_version { ${ADDRESS}, version: 2, content: "..." }`,
  }),
  run: handle,
};
