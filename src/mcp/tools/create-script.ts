/**
 * create_script: a new script under one's own handle or a project's. The answer says what
 * changed and what an agent would call next.
 */
import type { z as Zod } from "zod";
import type { SchemaParts } from "../common/schema-parts.js";
import type { Schemas } from "../common/tool-schemas.js";
import { createScript } from "../../generated/operations.js";
import { answer, fail, failWith, type ToolContext, type ToolResult } from "../common/answers.js";
import { addressOf, hostAndSlug, ownHandle, unknownHandle } from "../common/naming.js";
import { ADD, type Tool } from "../common/tool.js";

/** create_script's input and output schemas; a script's code and contract are described as the version tools describe them. */
function schemas(z: typeof Zod, { closed, open, next }: SchemaParts, { contract, language, sideEffects, content }: Schemas["scriptFields"]) {
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

  return { createScriptInput, created };
}

type Input = Zod.infer<ReturnType<typeof schemas>["createScriptInput"]>;

async function handle(ctx: ToolContext, input: Input): Promise<ToolResult> {
  const checked = hostAndSlug(input.host, input.slug);
  if ("problem" in checked) return fail(checked.problem);
  if (input.draft && input.visibility === "public") {
    return fail(
      'draft: true leaves the script with no promoted version, and a public script needs one: create it private, promote a version, then update_script_metadata with visibility: "public".',
    );
  }
  const handle = input.handle ?? (await ownHandle(ctx));
  if (typeof handle !== "string") return handle;
  const path = { handle, host: input.host, slug: input.slug };
  const created = await createScript({
    client: ctx.client,
    path: { handle },
    body: {
      host: input.host,
      slug: input.slug,
      description: input.description,
      content: input.content,
      input_schema: input.inputSchema,
      output_schema: input.outputSchema,
      side_effects: input.sideEffects,
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.language !== undefined ? { language: input.language } : {}),
      ...(input.loggedIn !== undefined ? { logged_in: input.loggedIn } : {}),
      ...(input.humanRequired !== undefined ? { human_required: input.humanRequired } : {}),
      ...(input.visibility !== undefined ? { visibility: input.visibility } : {}),
      ...(input.draft !== undefined ? { draft: input.draft } : {}),
    },
  });
  if (created.error?.status === 404 && input.handle) return unknownHandle(ctx, input.handle, created.error);
  if (created.error?.status === 409) {
    return failWith(
      created.error,
      `To change ${addressOf(path)}, add a draft version to it (create_draft_script_version with address: "${addressOf(path)}"); or pick another slug.`,
    );
  }
  if (created.error) return failWith(created.error);
  const address = addressOf(path);
  const { id, created_version_id, current_version_id } = created.data;
  return answer({
    address,
    scriptId: id,
    versionId: created_version_id,
    currentVersionId: current_version_id,
    next:
      current_version_id === null
        ? `Its first version is a draft: try it with run_script { script: { address: "${address}", version_id: "${created_version_id}", args: {...} } }, then promote_script_version { address: "${address}", version_id: "${created_version_id}" }.`
        : `Run it with run_script { script: { address: "${address}", args: {...} } }; if it fails, read_run_trace with the runId shows where.`,
  });
}

export const createScriptTool: Tool = {
  name: "create_script",
  spec: ({ s, z, parts }) => {
    const own = schemas(z, parts, s.scriptFields);
    return {
      title: "Create a script",
      description:
        "Creates a new script under your own handle (or a project's): its code (content, the body of an async function with page, args, files and builtins) and the JSON Schemas of its input and output. Adds to the catalogue; its first version is current unless draft: true. The address it answers goes to run_script. To change an existing script, add a draft version instead.",
      input: own.createScriptInput,
      output: own.created,
      annotations: ADD,
      usage:
        'create_script { host: "example.com", slug: "get_title", description: "Reads the page title", content: "await page.goto(\\"https://example.com/\\"); return { title: await page.title() };", inputSchema: { type: "object", properties: {} }, outputSchema: { type: "object" }, sideEffects: "none" }',
    };
  },
  run: handle,
};
