/**
 * A script's state as the tools that change it answer it, and archiving (archive_script and
 * unarchive_script: one call each way, idempotent).
 */
import type { components } from "../../generated/schema.js";
import { archiveScript, restoreScript } from "../../generated/operations.js";
import { answer, type ToolContext, type ToolResult } from "./answers.js";
import { shownText } from "./bounded.js";
import { MESSAGE_CHARS } from "./limits.js";
import { addressOf, scriptCallFailed, scriptPath, type ScriptPath } from "./naming.js";
import type { Input } from "./tool-schemas.js";

type ScriptWithVersion = components["schemas"]["ScriptWithVersion"];

/** A script's state as the tools show it. */
export function scriptState(path: ScriptPath, script: ScriptWithVersion, extra: Record<string, unknown> = {}) {
  return {
    address: addressOf(path),
    name: shownText(script.name, 200),
    description: shownText(script.description, MESSAGE_CHARS),
    visibility: script.visibility,
    archived: script.archived_at !== null,
    currentVersionId: script.current_version_id,
    ...extra,
  };
}

/** archive_script and unarchive_script: one call each way, idempotent. */
export async function setArchived(ctx: ToolContext, input: Input<"scriptTargetInput">, archive: boolean): Promise<ToolResult> {
  const named = await scriptPath(ctx, input);
  if ("content" in named) return named;
  const { path, ownImplied } = named;
  const done = archive ? await archiveScript({ client: ctx.client, path }) : await restoreScript({ client: ctx.client, path });
  if (done.error) return scriptCallFailed(ctx, path, done.error, { ownImplied });
  const address = addressOf(path);
  return answer(
    scriptState(path, done.data as ScriptWithVersion, {
      next: archive
        ? `${address} no longer shows in listings and cannot be run; unarchive_script { address: "${address}" } restores it.`
        : `${address} is listed and can be run again.`,
    }),
  );
}
