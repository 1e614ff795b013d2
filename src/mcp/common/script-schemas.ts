/**
 * Schemas several tools that write scripts share: a script's code and contract (create_script
 * and the draft tools), how a version is named and answered (the version tools), a script's
 * state (update_script_metadata, archive_script, unarchive_script), what was deleted.
 */
import type { z as Zod } from "zod";
import type { SchemaParts } from "./schema-parts.js";

export function scriptSchemas(z: typeof Zod, { closed, open, next, naming }: SchemaParts) {
  /** How a tool that acts on one script names it (not a run: no args, no files). */
  const scriptTarget = () => naming();

  const contract = {
    inputSchema: z
      .record(z.unknown())
      .describe('JSON Schema of the script\'s args (an object schema; a file input is { "type": "string", "format": "file" }).'),
    outputSchema: z.record(z.unknown()).describe("JSON Schema of what the script returns."),
  };

  const language = z.enum(["typescript", "javascript"]);
  const sideEffects = z.enum(["none", "write"]);

  const content = z
    .string()
    .min(1)
    .describe(
      "The script's code: the body of an async function with page (a Playwright page), args (its validated input), files and builtins in scope; `return` gives the result, a throw fails the run.",
    );

  const versionChoice = () => ({
    version_id: z.string().optional().describe("The version's id (from list_script_versions or create_draft_script_version)."),
    version: z.number().int().min(1).optional().describe("Or its number (1, 2, ...)."),
  });

  const draftFields = {
    content: content.optional(),
    language: language.optional(),
    inputSchema: contract.inputSchema.optional(),
    outputSchema: contract.outputSchema.optional(),
    loggedIn: z.boolean().optional(),
    sideEffects: sideEffects.optional(),
  };

  const patchDraftScriptVersionInput = closed({
    ...scriptTarget(),
    ...versionChoice(),
    ...draftFields,
    note: z.string().min(1).max(1_000).optional(),
  });

  const versionTarget = closed({ ...scriptTarget(), ...versionChoice() });

  const versionOutput = open({
    address: z.string(),
    versionId: z.string(),
    version: z.number().int(),
    draft: z.boolean(),
    current: z.boolean(),
    note: z.string().nullable().optional(),
    changed: z.unknown().optional().describe("What differs from the parent version: fields (from, to) and the code, shortened."),
    next: next(),
  });

  const deletedOutput = open({
    address: z.string(),
    deleted: z.string().describe("What was deleted."),
    next: next(),
  });

  const scriptState = open({
    address: z.string(),
    name: z.string(),
    description: z.string(),
    visibility: z.string(),
    archived: z.boolean(),
    currentVersionId: z.string().nullable(),
    changed: z.array(z.string()).optional().describe("What this call changed."),
    next: next(),
  });

  return {
    scriptFields: { contract, language, sideEffects, content },
    draftFields,
    patchDraftScriptVersionInput,
    versionTarget,
    versionOutput,
    deletedOutput,
    scriptTargetInput: closed(scriptTarget()),
    scriptState,
  };
}
