/**
 * promote_script_version: makes a version the one runs use (also how to roll back).
 */
import { getScriptVersion, promoteScriptVersion } from "../../generated/operations.js";
import { failWith, type ToolContext, type ToolResult } from "../common/answers.js";
import { addressOf, scriptCallFailed, scriptPath, unknownVersionHint, versionId } from "../common/naming.js";
import type { Input } from "../common/tool-schemas.js";
import { currentVersionId, versionAnswer } from "../common/versions.js";
import { ADDRESS, type Tool } from "../common/tool.js";

async function handle(ctx: ToolContext, input: Input<"versionTarget">): Promise<ToolResult> {
  const named = await scriptPath(ctx, input);
  if ("content" in named) return named;
  const { path, ownImplied } = named;
  const id = await versionId(ctx, path, input, ownImplied);
  if (typeof id !== "string") return id;
  const address = addressOf(path);
  // The version first: an id the library will not put into its URL is refused before anything is sent.
  const version = await getScriptVersion({ client: ctx.client, path: { ...path, versionId: id } });
  if (version.error) return scriptCallFailed(ctx, path, version.error, { ownImplied, versionHint: () => unknownVersionHint(ctx, path, id) });
  const currentId = await currentVersionId(ctx, path);
  if (currentId === id) {
    // Promoted already (a second call, say): nothing to send, and the agent learns it.
    return versionAnswer(
      path,
      version.data,
      currentId,
      `Version ${version.data.version_number} was already the current version of ${address}: nothing changed.`,
      {
        alreadyCurrent: true,
      },
    );
  }
  const promoted = await promoteScriptVersion({ client: ctx.client, path: { ...path, versionId: id } });
  if (promoted.error?.status === 409) return failWith(promoted.error, `unarchive_script { address: "${address}" } restores it first.`);
  if (promoted.error) return scriptCallFailed(ctx, path, promoted.error, { ownImplied, versionHint: () => unknownVersionHint(ctx, path, id) });
  const was = version.data.draft ? "The draft" : "This earlier version";
  return versionAnswer(
    path,
    promoted.data,
    id,
    `${was} is now what runs of ${address} use. To go back, promote_script_version with the previous version_id${currentId ? ` ("${currentId}")` : ""}.`,
  );
}

export const promoteScriptVersionTool: Tool = {
  name: "promote_script_version",
  spec: ({ s }) => ({
    title: "Promote a version",
    description:
      "Makes a version the current one: what runs of the script use from now on (a draft stops being a draft). Promoting an earlier version rolls back. Promoting the current version again changes nothing. Name the version by version_id or by its number (version).",
    input: s.versionTarget,
    output: s.versionOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    usage: `promote_script_version { ${ADDRESS}, version_id: "00000000-0000-4000-8004-000000000002" }`,
  }),
  run: handle,
};
