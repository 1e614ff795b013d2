/**
 * create_script: a new script under one's own handle or a project's. The answer says what
 * changed and what an agent would call next.
 */
import { createScript } from "../../generated/operations.js";
import { answer, fail, failWith, type ToolContext, type ToolResult } from "../shared/answers.js";
import { addressOf, hostAndSlug, ownHandle, unknownHandle } from "../shared/naming.js";
import type { Input } from "../shared/tool-schemas.js";
import { ADD, type Tool } from "../shared/tool.js";

async function handle(ctx: ToolContext, input: Input<"createScriptInput">): Promise<ToolResult> {
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
  spec: ({ s }) => ({
    title: "Create a script",
    description:
      "Creates a new script under your own handle (or a project's): its code (content, the body of an async function with page, args, files and builtins) and the JSON Schemas of its input and output. Adds to the catalogue; its first version is current unless draft: true. The address it answers goes to run_script. To change an existing script, add a draft version instead.",
    input: s.createScriptInput,
    output: s.createScriptOutput,
    annotations: ADD,
    usage:
      'create_script { host: "example.com", slug: "get_title", description: "Reads the page title", content: "await page.goto(\\"https://example.com/\\"); return { title: await page.title() };", inputSchema: { type: "object", properties: {} }, outputSchema: { type: "object" }, sideEffects: "none" }',
  }),
  run: handle,
};
