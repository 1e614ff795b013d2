/**
 * create_draft_script_version: adds a draft to a script (a copy of the current version or of
 * parent_version_id, with what is given), to try with run_script before promoting it.
 */
import type { z as Zod } from "zod";
import type { SchemaParts } from "../common/schema-parts.js";
import type { Schemas } from "../common/tool-schemas.js";
import { createDraftScriptVersion } from "../../generated/operations.js";
import { fail, failWith, type ToolContext, type ToolResult } from "../common/answers.js";
import { addressOf, notAVersionId, scriptCallFailed, scriptPath, unknownVersionHint } from "../common/naming.js";
import { currentVersionId, draftBody, tryThenPromote, versionAnswer } from "../common/versions.js";
import { ADD, ADDRESS, type Tool } from "../common/tool.js";

/** create_draft_script_version's input schema; a draft's fields are those patch_draft_script_version takes. */
function schemas(z: typeof Zod, { closed, naming }: SchemaParts, draftFields: Schemas["draftFields"]) {
  const createDraftScriptVersionInput = closed({
    ...naming(),
    note: z.string().min(1).max(1_000).describe("Why this version exists (shown in list_script_versions)."),
    ...draftFields,
    parent_version_id: z.string().optional().describe("Build on this version instead of the current one."),
  });

  return { createDraftScriptVersionInput };
}

type Input = Zod.infer<ReturnType<typeof schemas>["createDraftScriptVersionInput"]>;

async function handle(ctx: ToolContext, input: Input): Promise<ToolResult> {
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
  spec: ({ s, z, parts }) => {
    const own = schemas(z, parts, s.draftFields);
    return {
      title: "Add a draft version",
      description:
        "Adds a draft version to a script: a copy of the current version (or parent_version_id) with the code and contract you give. Runs keep using the current version until the draft is promoted; try the draft with run_script and script.version_id. Adds a version; changes nothing else.",
      input: own.createDraftScriptVersionInput,
      output: s.versionOutput,
      annotations: ADD,
      usage: `create_draft_script_version { ${ADDRESS}, note: "Wait for the heading", content: "..." }`,
    };
  },
  run: handle,
};
