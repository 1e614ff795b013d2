/** What the version tools share: a version as they answer it, the script's current version, a draft's body. */
import type { components } from "../../generated/schema.js";
import { getScript } from "../../generated/operations.js";
import { answer, type ToolContext, type ToolResult } from "./answers.js";
import { boundJson, shownText } from "./bounded.js";
import { MESSAGE_CHARS } from "./limits.js";
import { addressOf, type ScriptPath } from "./naming.js";
import type { Input } from "./tool-schemas.js";

type VersionSummary = components["schemas"]["ScriptVersionSummary"];

type VersionWithDiff = components["schemas"]["ScriptVersion"] & { diff?: unknown };

export function versionSummary(v: VersionSummary, currentId: string | null) {
  return {
    versionId: v.id,
    version: v.version_number,
    current: v.id === currentId,
    draft: v.draft,
    note: v.note == null ? null : shownText(v.note, 1_000),
    language: v.language,
    sideEffects: v.side_effects,
    loggedIn: v.logged_in,
    createdAt: v.created_at,
    parentVersionId: v.parent_version_id,
  };
}

/** The id of the script's current version, or null (none, or the script could not be read). */
export async function currentVersionId(ctx: ToolContext, path: ScriptPath): Promise<string | null> {
  const read = await getScript({ client: ctx.client, path });
  return read.error ? null : read.data.current_version_id;
}

/** A version as the version tools answer it, with what to call next. */
export function versionAnswer(path: ScriptPath, v: VersionWithDiff, currentId: string | null, next: string, extra: Record<string, unknown> = {}): ToolResult {
  return answer({
    address: addressOf(path),
    versionId: v.id,
    version: v.version_number,
    draft: v.draft,
    current: v.id === currentId,
    note: v.note == null ? null : shownText(v.note, 1_000),
    ...(v.diff !== undefined ? { changed: boundJson(v.diff, MESSAGE_CHARS).value } : {}),
    ...extra,
    next,
  });
}

/** What to call to try a draft, then to ship it. */
export const tryThenPromote = (address: string, id: string) =>
  `Try it with run_script { script: { address: "${address}", version_id: "${id}", args: {...} } }; when it works, promote_script_version { address: "${address}", version_id: "${id}" } makes it the version runs use.`;

/** The body fields a draft takes, in the service's names. */
export function draftBody(input: Input<"patchDraftScriptVersionInput">) {
  return {
    ...(input.content !== undefined ? { content: input.content } : {}),
    ...(input.language !== undefined ? { language: input.language } : {}),
    ...(input.inputSchema !== undefined ? { input_schema: input.inputSchema } : {}),
    ...(input.outputSchema !== undefined ? { output_schema: input.outputSchema } : {}),
    ...(input.loggedIn !== undefined ? { logged_in: input.loggedIn } : {}),
    ...(input.sideEffects !== undefined ? { side_effects: input.sideEffects } : {}),
    ...(input.note !== undefined ? { note: input.note } : {}),
  };
}
