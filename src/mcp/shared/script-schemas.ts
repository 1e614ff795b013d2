/**
 * The schemas of the tools that write scripts and their versions (create_script,
 * update_script_metadata, archive and restore, the version tools), several of which share them.
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

  const createScriptInput = closed({
    host: z.string().describe('The site it automates, e.g. "example.com".'),
    slug: z.string().describe("Its name on that host: lowercase letters, digits, _ and -, up to 64."),
    handle: z.string().optional().describe("Owner: a project handle you may create scripts in; omit for your own."),
    description: z.string().min(1).max(10_000).describe("What it does (shown in listings and to agents)."),
    content,
    ...contract,
    sideEffects: sideEffects.describe("none: it only reads the site; write: it acts on it (sends, posts, deletes)."),
    name: z.string().min(1).max(75).optional().describe("Display name (default: the slug)."),
    language: language.optional().describe("Default typescript."),
    loggedIn: z.boolean().optional().describe("It needs the user signed in to the site."),
    humanRequired: z.boolean().optional().describe("It needs a person at the browser (a captcha, a confirmation)."),
    visibility: z.enum(["private", "public"]).optional().describe("Default private. A public script needs a promoted version."),
    draft: z.boolean().optional().describe("Leave the first version a draft: the script has no current version until one is promoted."),
  });

  const created = open({
    address: z.string().describe("Give this to run_script, read_script and the version tools."),
    scriptId: z.string(),
    versionId: z.string().describe("The first version."),
    currentVersionId: z.string().nullable().describe("null when the first version was left a draft."),
    next: next(),
  });

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

  const createDraftScriptVersionInput = closed({
    ...scriptTarget(),
    note: z.string().min(1).max(1_000).describe("Why this version exists (shown in list_script_versions)."),
    ...draftFields,
    parent_version_id: z.string().optional().describe("Build on this version instead of the current one."),
  });

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
    createScriptInput,
    createScriptOutput: created,
    createDraftScriptVersionInput,
    patchDraftScriptVersionInput,
    versionTarget,
    versionOutput,
    deletedOutput,
    scriptTargetInput: closed(scriptTarget()),
    scriptState,
  };
}
