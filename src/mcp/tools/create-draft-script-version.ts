/**
 * create_draft_script_version: adds a draft to a script (a copy of the current version or of
 * parent_version_id, with what is given), to try with run_script before promoting it.
 */
import { createDraftScriptVersion } from "../../generated/operations.js";
import { fail, failWith, type ToolContext, type ToolResult } from "../shared/answers.js";
import { addressOf, notAVersionId, scriptCallFailed, scriptPath, unknownVersionHint } from "../shared/naming.js";
import type { Input } from "../shared/tool-schemas.js";
import { currentVersionId, draftBody, tryThenPromote, versionAnswer } from "../shared/versions.js";
import { ADD, ADDRESS, type Tool } from "../shared/tool.js";

async function handle(ctx: ToolContext, input: Input<"createDraftScriptVersionInput">): Promise<ToolResult> {
  // The parent's id goes in the body, not a URL: checked here by the same rule, before anything is sent.
  const badParent =
    input.parent_version_id !== undefined ? notAVersionId(input.parent_version_id, "list_script_versions lists a script's versions") : undefined;
  if (badParent) return fail(badParent);
  const named = await scriptPath(ctx, input);
  if ("content" in named) return named;
  const { path, ownImplied } = named;
  const body = { ...draftBody(input), note: input.note, ...(input.parent_version_id ? { parent_version_id: input.parent_version_id } : {}) };
  const created = await createDraftScriptVersion({ client: ctx.client, path, body });
  if (created.error?.status === 409) {
    return failWith(
      created.error,
      "A draft must differ from its parent in code or contract (content, inputSchema, outputSchema...); an archived script takes none (unarchive_script restores it).",
    );
  }
  if (created.error?.status === 400 && input.parent_version_id && created.error.variables?.parent_version_id) {
    return failWith(created.error, await unknownVersionHint(ctx, path, input.parent_version_id));
  }
  if (created.error) return scriptCallFailed(ctx, path, created.error, { ownImplied });
  const address = addressOf(path);
  return versionAnswer(path, created.data, await currentVersionId(ctx, path), tryThenPromote(address, created.data.id));
}

export const createDraftScriptVersionTool: Tool = {
  name: "create_draft_script_version",
  spec: ({ s }) => ({
    title: "Add a draft version",
    description:
      "Adds a draft version to a script: a copy of the current version (or parent_version_id) with the code and contract you give. Runs keep using the current version until the draft is promoted; try the draft with run_script and script.version_id. Adds a version; changes nothing else.",
    input: s.createDraftScriptVersionInput,
    output: s.versionOutput,
    annotations: ADD,
    usage: `create_draft_script_version { ${ADDRESS}, note: "Wait for the heading", content: "..." }`,
  }),
  run: handle,
};
